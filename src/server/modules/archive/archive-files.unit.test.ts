import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { bmpSize, svgVerdict } from './archive-files.ts';

const SVG = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"';

test('a drawing that links only within itself or to inline images is an SVG', () => {
  const drawing =
    `<?xml version="1.0"?>\n<!-- feito no Inkscape -->\n` +
    `<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg ${SVG} width="40" height="20"><defs><linearGradient id="g"><stop offset="0"/></linearGradient></defs>
<rect fill="url(#g)" style="fill: url( '#g' )" width="40" height="20"/><use href="#g"/><use xlink:href = '#g'/>
<image href="data:image/png;base64,iVBORw0KGgo="/></svg>`;
  expect(svgVerdict(drawing)).toBe('svg');
});

test('script, handlers, outside links and entities make it hostile', () => {
  for (const body of [
    '<script>alert(1)</script>',
    '<s:script xmlns:s="http://www.w3.org/2000/svg">alert(1)</s:script>',
    '<rect onload="alert(1)"/>',
    '<set attributeName="onmouseover" to="alert(1)"/>',
    "<set attributeName='xlink:href' to='https://example.com'/>",
    '<a href="https://example.com"><rect/></a>',
    '<a href=javascript:alert(1)><rect/></a>',
    '<rect fill="url(https://example.com/x.svg#g)"/>',
    '<rect style="fill:url(\'//example.com/g\')"/>',
  ]) {
    expect(svgVerdict(`<svg ${SVG}>${body}</svg>`), body).toBe('hostile');
  }
  expect(svgVerdict('<!DOCTYPE svg [<!ENTITY a "b">]><svg><text>&a;</text></svg>')).toBe(null);
});

test('only what starts as SVG is one', () => {
  expect(svgVerdict('<html><svg></svg></html>')).toBe(null);
  expect(svgVerdict('<!-- sem fim <svg></svg>')).toBe(null);
  expect(svgVerdict('\uFEFF  <!DOCTYPE   svg>\n<svg></svg>')).toBe('svg');
  expect(svgVerdict('<svgx></svgx>')).toBe(null);
});

// Inputs that made the former regular expressions backtrack: 40 comments took hours
// (twice as long for each one more), and repeated openings scanned to the end from each.
test('hostile prologs and long runs are read in one pass', () => {
  expect(svgVerdict(`${'<!---->'.repeat(40)}x`)).toBe(null);
  expect(svgVerdict(`<svg>${'<!DOCTYPE'.repeat(200_000)}`)).toBe('svg');
  expect(svgVerdict(`<svg>${'url('.repeat(500_000)}`)).toBe('hostile');
  expect(svgVerdict(`<svg><set attributeName=${' '.repeat(200_000)}x/></svg>`)).toBe('svg');
  expect(svgVerdict(`<svg><use href=${' '.repeat(200_000)}#a/></svg>`)).toBe('svg');
});

test("a BMP's size is read from its header, and a size no image has is none", async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'meritus-bmp-'));
  try {
    const header = (width: number, height: number) => {
      const bytes = Buffer.alloc(54);
      bytes.write('BM', 0, 'latin1');
      bytes.writeInt32LE(width, 18);
      bytes.writeInt32LE(height, 22);
      return bytes;
    };
    const sizeOf = async (width: number, height: number) => {
      const file = path.join(dir, `${width}x${height}.bmp`);
      await fs.writeFile(file, header(width, height));
      return bmpSize(file);
    };
    expect(await sizeOf(40, 30)).toEqual({ width: 40, height: 30 });
    // Rows stored top-down.
    expect(await sizeOf(40, -30)).toEqual({ width: 40, height: 30 });
    // Its absolute value overflowed the database's integer column: the upload failed as a server error.
    expect(await sizeOf(40, -(2 ** 31))).toBeNull();
    expect(await sizeOf(0, 30)).toBeNull();
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});
