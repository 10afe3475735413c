/*
 * The messages' two parts from one description: a text part for every reader, and an HTML part with inline styles
 * only (mail readers drop style sheets). Every value written into the HTML is escaped here, once.
 */

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** A block of a message: a paragraph, a heading, a list of label/value lines, a button-like link, or small print. */
export type MailBlock =
  | { kind: 'heading'; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'lines'; lines: { label: string; value: string }[] }
  | { kind: 'code'; label: string; code: string; note: string }
  | { kind: 'link'; label: string; url: string }
  | { kind: 'small'; text: string; link?: { label: string; url: string } };

export type MailDocument = { school: string; title: string; blocks: MailBlock[] };

export function renderText(doc: MailDocument): string {
  const parts = [doc.school, '', doc.title, ''];
  for (const block of doc.blocks) {
    switch (block.kind) {
      case 'heading':
        parts.push('', block.text.toUpperCase());
        break;
      case 'paragraph':
        parts.push(block.text, '');
        break;
      case 'lines':
        for (const line of block.lines) parts.push(`- ${line.label}: ${line.value}`);
        parts.push('');
        break;
      case 'code':
        parts.push(`${block.label}: ${block.code}`, block.note, '');
        break;
      case 'link':
        parts.push(`${block.label}: ${block.url}`, '');
        break;
      case 'small':
        parts.push('--', block.text, ...(block.link ? [`${block.link.label}: ${block.link.url}`] : []));
        break;
    }
  }
  return `${parts
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}

const FONT = 'font-family:Arial,Helvetica,sans-serif';
/** The inline styles, by element. */
const STYLE = {
  cell: `${FONT};font-size:14px;padding:6px 0;border-bottom:1px solid #e2e8f0`,
  codeBox: 'background:#eef2ff;border:1px solid #c7d2fe;border-radius:10px;padding:14px 18px;margin:8px 0 16px',
  code: 'font-family:Consolas,monospace;font-size:26px;font-weight:bold;color:#0f172a;letter-spacing:2px;margin:6px 0',
  button:
    `${FONT};display:inline-block;background:#4338ca;color:#ffffff;text-decoration:none;font-size:15px;font-weight:bold;` +
    'padding:10px 18px;border-radius:8px',
  small: `${FONT};font-size:12px;line-height:1.5;color:#64748b;margin:24px 0 0;border-top:1px solid #e2e8f0;padding-top:12px`,
} as const;

export function renderHtml(doc: MailDocument): string {
  const body = doc.blocks
    .map((block) => {
      switch (block.kind) {
        case 'heading':
          return `<h2 style="${FONT};font-size:16px;color:#0f172a;margin:24px 0 8px">${escapeHtml(block.text)}</h2>`;
        case 'paragraph':
          return `<p style="${FONT};font-size:15px;line-height:1.5;color:#1e293b;margin:0 0 12px">${escapeHtml(block.text)}</p>`;
        case 'lines':
          return `<table role="presentation" style="width:100%;border-collapse:collapse;margin:0 0 8px">${block.lines
            .map(
              (line) =>
                `<tr><td style="${STYLE.cell};color:#334155">${escapeHtml(line.label)}</td>` +
                `<td style="${STYLE.cell};color:#0f172a;text-align:right;font-weight:bold">${escapeHtml(line.value)}</td></tr>`,
            )
            .join('')}</table>`;
        case 'code':
          return (
            `<div style="${STYLE.codeBox}">` +
            `<div style="${FONT};font-size:12px;color:#4338ca;text-transform:uppercase;letter-spacing:1px">${escapeHtml(block.label)}</div>` +
            `<div style="${STYLE.code}">${escapeHtml(block.code)}</div>` +
            `<div style="${FONT};font-size:12px;color:#475569">${escapeHtml(block.note)}</div></div>`
          );
        case 'link':
          return `<p style="margin:16px 0"><a href="${escapeHtml(block.url)}" style="${STYLE.button}">${escapeHtml(block.label)}</a></p>`;
        case 'small':
          return (
            `<p style="${STYLE.small}">${escapeHtml(block.text)}` +
            (block.link ? ` <a href="${escapeHtml(block.link.url)}" style="color:#4338ca">${escapeHtml(block.link.label)}</a>` : '') +
            `</p>`
          );
      }
    })
    .join('\n');
  return (
    `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
    `<title>${escapeHtml(doc.title)}</title></head><body style="margin:0;padding:0;background:#f1f5f9">` +
    `<div style="max-width:560px;margin:0 auto;padding:24px 16px"><div style="background:#ffffff;border-radius:12px;padding:24px">` +
    `<div style="${FONT};font-size:12px;color:#4338ca;text-transform:uppercase;letter-spacing:1px;font-weight:bold">${escapeHtml(doc.school)}</div>` +
    `<h1 style="${FONT};font-size:22px;color:#0f172a;margin:8px 0 16px">${escapeHtml(doc.title)}</h1>\n${body}\n</div></div></body></html>`
  );
}
