import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** A PDF's text as a reader would copy it, pages one per line, runs of white space as one space. */
export async function pdfText(bytes: Buffer): Promise<string> {
  const document = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= document.numPages; n++) {
    const content = await (await document.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  return pages.join('\n').replace(/\s+/g, ' ');
}

/** How many pages a PDF has. */
export async function pdfPages(bytes: Buffer): Promise<number> {
  return (await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise).numPages;
}
