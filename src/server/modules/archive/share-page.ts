import { ARCHIVE_TEXTS } from '../../../shared/archive.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { formatSize } from '../../../shared/format.ts';
import type { archiveImages } from '../../db/schema.ts';
import { fileUrls } from './archive-rows.ts';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * The share page: the image (its preview), its description and a download button, in pt-BR,
 * without script (the route's CSP allows none). `row` null renders the link's end.
 */
export function renderSharePage(row: typeof archiveImages.$inferSelect | null): string {
  const title = row ? escapeHtml(row.fileName) : ARCHIVE_TEXTS.sharePageTitle;
  const urls = row ? fileUrls(row) : null;
  const size = row?.width && row.height ? ` width="${row.width}" height="${row.height}"` : '';
  const body =
    row && urls
      ? `<main>
  <h1>${escapeHtml(row.fileName)}</h1>
  ${urls.previewUrl ? `<img src="${urls.previewUrl}" alt="${escapeHtml(row.description)}"${size}>` : ''}
  <p>${escapeHtml(row.description)}</p>
  <p class="meta">${escapeHtml(formatSize(row.fileSize))}</p>
  <a class="button" href="${urls.downloadUrl}" download>${ARCHIVE_TEXTS.sharePageDownload}</a>
</main>`
      : `<main><h1>${ARCHIVE_TEXTS.sharePageTitle}</h1><p>${ERROR_MESSAGES.archive_share_not_found}</p></main>`;
  return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} · Méritus</title>
<style>
body{margin:0;font-family:system-ui,sans-serif;background:#0f172a;color:#e2e8f0;display:flex;justify-content:center}
main{max-width:960px;width:100%;padding:24px;box-sizing:border-box}
h1{font-size:1.25rem;overflow-wrap:anywhere}
img{max-width:100%;height:auto;border-radius:8px;background:#1e293b}
.meta{color:#94a3b8}
.button{display:inline-block;background:#2563eb;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600}
.button:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}
</style>
</head>
<body>
${body}
</body>
</html>
`;
}
