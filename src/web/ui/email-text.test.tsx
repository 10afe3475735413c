import { renderToStaticMarkup } from 'react-dom/server';
import { expect, it } from 'vitest';
import { EmailText } from './email-text.tsx';

it('offers a line break after the @ and after each dot, and nowhere inside a word', () => {
  const markup = renderToStaticMarkup(<EmailText email="maria.eduarda@colegio.sp.gov.br" />);
  expect(markup).toBe('<span class="wrap-break-word">maria.<wbr/>eduarda@<wbr/>colegio.<wbr/>sp.<wbr/>gov.<wbr/>br</span>');
});
