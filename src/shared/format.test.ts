import { describe, expect, test } from 'vitest';
import { countOf, firstName, formatEstelecas, formatMs, formatRelativeTime, formatSize, plural, startOfWeekIn } from './format.ts';

describe('agreement in number', () => {
  test('one (either sign) takes the singular; zero and the rest the plural', () => {
    expect([1, -1].map((n) => plural(n, 'Falta', 'Faltam'))).toEqual(['Falta', 'Falta']);
    expect([0, 2, -2, 1000].map((n) => plural(n, 'Falta', 'Faltam'))).toEqual(['Faltam', 'Faltam', 'Faltam', 'Faltam']);
  });

  test('a count reads with its noun, the number grouped as pt-BR writes it', () => {
    expect(countOf(1, 'aluno importado', 'alunos importados')).toBe('1 aluno importado');
    expect(countOf(0, 'operação', 'operações')).toBe('0 operações');
    expect(countOf(2500, 'operação', 'operações')).toBe('2.500 operações');
  });

  test('the formatters that count use it', () => {
    expect(formatEstelecas(1)).toBe('1 Esteleca');
    expect(formatEstelecas(3)).toBe('3 Estelecas');
    const now = new Date('2026-11-23T12:00:00Z');
    expect(formatRelativeTime(new Date('2026-11-22T11:00:00Z'), now)).toBe('1 dia atrás');
    expect(formatRelativeTime(new Date('2026-11-20T11:00:00Z'), now)).toBe('3 dias atrás');
  });
});

test('sizes and durations use the Brazilian decimal comma (the server writes them into diagnostics too)', () => {
  expect(formatSize(512)).toBe('512 B');
  expect(formatSize(1536)).toBe('1,5 KB');
  expect(formatSize(81_711_000_000)).toBe('76,1 GB');
  expect(formatMs(0.4215)).toBe('0,42 ms');
  expect(formatMs(14.873)).toBe('14,9 ms');
  expect(formatMs(123.45)).toBe('123,5 ms');
});

test('a greeting uses the first name, past a title', () => {
  expect(firstName('Ana Beatriz Souza')).toBe('Ana');
  expect(firstName('Profª Conceição Araújo')).toBe('Conceição');
  expect(firstName('Prof. Dr. Marcos Lima')).toBe('Marcos');
  expect(firstName('  Dra   Helena ')).toBe('Helena');
  expect(firstName('Prof')).toBe('Prof');
});

describe('the school week', () => {
  test('starts on Monday at midnight in the school time zone', () => {
    // Sunday 29/11/2026 23:30 in São Paulo (UTC-3) is already Monday in UTC: the week is still the one that began on 23/11.
    expect(startOfWeekIn('America/Sao_Paulo', new Date('2026-11-30T02:30:00Z')).toISOString()).toBe('2026-11-23T03:00:00.000Z');
    expect(startOfWeekIn('America/Sao_Paulo', new Date('2026-11-30T03:00:00Z')).toISOString()).toBe('2026-11-30T03:00:00.000Z');
    expect(startOfWeekIn('America/Sao_Paulo', new Date('2026-11-25T15:00:00Z')).toISOString()).toBe('2026-11-23T03:00:00.000Z');
    expect(startOfWeekIn('Asia/Tokyo', new Date('2026-11-29T16:00:00Z')).toISOString()).toBe('2026-11-29T15:00:00.000Z');
  });
});
