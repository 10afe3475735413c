import type { TransferReceipt } from '../../shared/ledger.ts';
import { formatAmount, formatDate, formatTime } from '../../shared/format.ts';

/**
 * A transfer's Comprovante as a PNG, drawn on a canvas (no library: a card of text), and handed to the phone's share
 * sheet (the Web Share API with files) or, where a browser cannot share files, downloaded.
 */

const WIDTH = 640;
const PAD = 40;
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

/** The lines of `text` that fit in `width` at the context's font, cutting a word longer than a line. */
function wrap(context: CanvasRenderingContext2D, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (context.measureText(candidate).width <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = word;
    while (context.measureText(line).width > width && line.length > 1) {
      let cut = line.length - 1;
      while (cut > 1 && context.measureText(line.slice(0, cut)).width > width) cut -= 1;
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
    }
  }
  if (line) lines.push(line);
  return lines.length > 0 ? lines : [''];
}

export function receiptRows(receipt: TransferReceipt): [string, string][] {
  const party = (side: TransferReceipt['from']) => (side ? `${side.name} (${side.grade})` : 'Estudante removido');
  return [
    ['De', party(receipt.from)],
    ['Para', party(receipt.to)],
    ...(receipt.currency === 'meritus' ? [['Descrição', receipt.description || 'Sem descrição'] as [string, string]] : []),
    ['Data', formatDate(receipt.createdAt)],
    ['Hora', formatTime(receipt.createdAt, { seconds: true })],
    ['Código', receipt.code],
  ];
}

/** Draws the receipt on a canvas at twice its size (sharp on a phone's screen) and returns the PNG. */
export async function receiptImage(receipt: TransferReceipt, schoolName: string): Promise<Blob> {
  const scale = 2;
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d');
  if (!context) throw new Error('canvas 2d unavailable');
  const valueWidth = WIDTH - PAD * 2 - 150;
  context.font = `600 22px ${FONT}`;
  const rows = receiptRows(receipt).map(([label, value]) => ({ label, lines: wrap(context, value, valueWidth) }));
  const rowsHeight = rows.reduce((sum, row) => sum + row.lines.length * 30 + 18, 0);
  const height = 250 + rowsHeight + 90;
  canvas.width = WIDTH * scale;
  canvas.height = height * scale;
  context.scale(scale, scale);

  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, WIDTH, height);
  context.fillStyle = '#4f46e5';
  context.fillRect(0, 0, WIDTH, 110);
  context.fillStyle = '#ffffff';
  context.font = `700 30px ${FONT}`;
  context.fillText('Comprovante', PAD, 56);
  context.font = `500 20px ${FONT}`;
  context.fillText(
    wrap(context, `Transferência de ${receipt.currency === 'meritus' ? 'Méritus' : 'Estelecas'} · ${schoolName}`, WIDTH - PAD * 2)[0]!,
    PAD,
    88,
  );

  context.fillStyle = '#312e81';
  context.font = `800 48px ${FONT}`;
  context.fillText(formatAmount(receipt.currency, receipt.amount), PAD, 190);

  let y = 250;
  for (const row of rows) {
    context.fillStyle = '#475569';
    context.font = `500 20px ${FONT}`;
    context.fillText(row.label, PAD, y);
    context.fillStyle = '#0f172a';
    context.font = `600 22px ${FONT}`;
    row.lines.forEach((line, index) => context.fillText(line, PAD + 150, y + index * 30));
    y += row.lines.length * 30 + 18;
  }
  context.fillStyle = '#e2e8f0';
  context.fillRect(PAD, y, WIDTH - PAD * 2, 2);
  context.fillStyle = '#475569';
  context.font = `400 18px ${FONT}`;
  context.fillText('Gerado pelo portal Méritus', PAD, y + 42);

  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('canvas toBlob failed'))), 'image/png'),
  );
}

/** 'shared' through the phone's share sheet, 'downloaded' where files cannot be shared, 'cancelled' when the student closed the sheet. */
export async function shareReceipt(receipt: TransferReceipt, schoolName: string): Promise<'shared' | 'downloaded' | 'cancelled'> {
  const blob = await receiptImage(receipt, schoolName);
  const fileName = `comprovante-${receipt.code}.png`;
  const file = new File([blob], fileName, { type: 'image/png' });
  if (typeof navigator.canShare === 'function' && navigator.canShare({ files: [file] })) {
    try {
      await navigator.share({ files: [file], title: `Comprovante ${receipt.code}` });
      return 'shared';
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return 'cancelled';
      throw error;
    }
  }
  const url = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement('a'), { href: url, download: fileName });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return 'downloaded';
}
