import fs from 'node:fs';
import path from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { FullScreenSpinner } from './spinner.tsx';

test("the page's markup before the code runs is the app's full-screen wait, so the first paint is the one React then keeps showing", () => {
  const page = fs.readFileSync(path.resolve(import.meta.dirname, '../../../index.html'), 'utf8');
  const root = new DOMParser().parseFromString(page, 'text/html').getElementById('root');
  // Prettier indents the page; whitespace between these tags draws nothing (flex items, svg children).
  expect(root?.innerHTML.replace(/>\s+</g, '><').trim()).toBe(renderToStaticMarkup(<FullScreenSpinner />));
});
