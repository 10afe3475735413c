import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  calendarDate,
  instantText,
  isStorableText,
  issueFields,
  optionalText,
  parseAmountText,
  recordableText,
  requiredText,
  sentText,
  textInput,
} from './validation.ts';

const codes = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe('isStorableText', () => {
  test.each([
    ['plain text', 'Monitoria de matemática', true],
    ['an emoji (a surrogate pair)', 'Parabéns 🎉', true],
    ['the replacement character', 'Ana\uFFFD', true],
    ['tabs and new lines', 'a\tb\r\nc', true],
    ['a NUL', 'a\u0000b', false],
    ['a lone high surrogate', 'a\ud83d', false],
    ['a lone low surrogate', '\ude00b', false],
    ['two high surrogates', '\ud83d\ud83d\ude00', false],
    ['a pair written backwards', '\ude00\ud83d', false],
    ['a family emoji (zero-width joiners)', 'Família 👨\u200d👩\u200d👧', true],
    ['a zero-width space', '2024001\u200b', false],
    ['a right-to-left override', '\u202eabc', false],
    ['a direction isolate', 'a\u2067b\u2069', false],
    ['a byte order mark inside', 'a\ufeffb', false],
    ['a blank braille pattern', '\u2800', false],
    ['a Hangul filler', '\u3164', false],
    ['a soft hyphen', 'Ni\u00adcolas', false],
  ])('%s → %s', (_label, value, storable) => {
    expect(isStorableText(value)).toBe(storable);
  });
});

describe('textInput', () => {
  const name = textInput({ error: 'missing_fields', max: 5 }).min(1, { error: 'missing_fields' });

  test('refuses NUL, other control characters and lone surrogates with invalid_text, and with that code only', () => {
    for (const value of [
      '\u0000',
      'ab\u0000',
      '\ud800',
      ' \udfff ',
      `${'x'.repeat(50)}\u0000`,
      'A\u0001',
      '\u001b[31mA',
      'A\bB',
      'A\u007f',
      'A\u0085',
    ]) {
      expect(codes(name.safeParse(value))).toEqual(['invalid_text']);
    }
    // Tab and line breaks belong in descriptions.
    expect(textInput({ max: 50 }).parse('Linha 1\r\nLinha 2\tfim')).toBe('Linha 1\r\nLinha 2\tfim');
  });

  test('keeps the callers’ rules: trimming, missing, too long', () => {
    expect(name.parse('  Ana  ')).toBe('Ana');
    expect(name.parse('🎉🎉')).toBe('🎉🎉');
    expect(codes(name.safeParse('   '))).toEqual(['missing_fields']);
    expect(codes(name.safeParse(undefined))).toEqual(['missing_fields']);
    expect(codes(name.safeParse(42))).toEqual(['missing_fields']);
    expect(codes(name.safeParse('Bartolomeu'))).toEqual(['validation']);
    expect(codes(textInput({ max: 3, maxError: 'preset_label_too_long' }).safeParse('abcd'))).toEqual(['preset_label_too_long']);
  });

  test('a password keeps its spaces', () => {
    expect(textInput({ max: 20, trim: false }).parse(' segredo ')).toBe(' segredo ');
    // One encoding of accents: decomposed input is stored composed (a password is kept as typed).
    expect(textInput({ max: 20 }).parse('Participac\u0327a\u0303o')).toBe('Participação');
    expect(textInput({ max: 20, trim: false }).parse('c\u0327')).toBe('c\u0327');
  });

  test('requiredText is the same schema with one code for missing', () => {
    expect(codes(requiredText('missing_fields_short').safeParse('Lanche\u0000'))).toEqual(['invalid_text']);
    expect(codes(requiredText('missing_fields_short').safeParse(''))).toEqual(['missing_fields_short']);
  });

  test('requiredText wants something to read: only joiners or combining marks are missing', () => {
    expect(codes(requiredText('missing_fields').safeParse('\u200d'))).toEqual(['missing_fields']);
    expect(codes(requiredText('missing_fields').safeParse(' \u0301\u200c '))).toEqual(['missing_fields']);
    expect(requiredText('missing_fields').parse('🎉')).toBe('🎉');
    expect(requiredText('missing_fields').parse('.')).toBe('.');
  });

  test('optionalText: missing, blank or only joiners and combining marks is no text at all; anything to read is kept', () => {
    for (const nothing of [undefined, '', '   ', '\u200d', ' \u0301\u0301\u0301 '])
      expect(optionalText(200).parse(nothing)).toBeUndefined();
    expect(optionalText(200).parse(' Lanche 🎉 ')).toBe('Lanche 🎉');
    expect(codes(optionalText(200).safeParse('a\u202e'))).toEqual(['invalid_text']);
  });

  test('an identifier reads full-width and other compatibility characters as the plain ones', () => {
    expect(requiredText('missing_fields', 50, { identifier: true }).parse(' ２０２４００１ ')).toBe('2024001');
    expect(requiredText('missing_fields', 50).parse('２０２４００１')).toBe('２０２４００１');
  });
});

describe('parseAmountText', () => {
  test.each([
    ['', undefined],
    ['  ', undefined],
    ['50', 50],
    [' 50 ', 50],
    ['1.000', 1000],
    ['12.500', 12500],
    ['1.000.000', 1000000],
    ['1,5', 1.5],
    ['1.5', 1.5],
    ['1.000,5', 1000.5],
    ['-3', -3],
    ['0', 0],
    ['1e3', Number.NaN],
    ['1E2', Number.NaN],
    ['0x10', Number.NaN],
    ['10abc', Number.NaN],
    ['1,000.5', Number.NaN],
    ['1.00.0', Number.NaN],
    ['Infinity', Number.NaN],
  ])('%j → %s', (text, amount) => {
    expect(parseAmountText(text)).toBe(amount);
  });
});

describe('issueFields', () => {
  const form = z.object({
    name: requiredText('missing_fields'),
    grade: z.object({ year: z.number({ error: 'invalid_grade' }) }),
    tags: z.array(textInput({ max: 3 })),
  });

  test("each field's first message in pt-BR, nested fields by dotted path, an unknown message as 'Dados inválidos'", () => {
    const result = form.safeParse({ name: '  ', grade: { year: 'x' }, tags: ['ok', 'longo demais', 'outro longo'] });
    expect(issueFields(result.error!.issues)).toEqual({
      name: 'Preencha todos os campos obrigatórios',
      'grade.year': 'Selecione uma turma válida',
      'tags.1': 'Dados inválidos',
      'tags.2': 'Dados inválidos',
    });
  });

  test("the first issue of a field wins; an issue about the whole input is 'body'", () => {
    expect(
      issueFields([
        { path: ['amount'], message: 'amount_not_positive' },
        { path: ['amount'], message: 'amount_too_large' },
        { path: [], message: 'missing_fields_short' },
      ]),
    ).toEqual({ amount: 'O valor deve ser maior que zero', body: 'Preencha todos os campos' });
  });
});

describe('sentText', () => {
  test('any JSON value a request may send becomes text, without throwing', () => {
    expect(sentText(12)).toBe('12');
    expect(sentText('1e3')).toBe('1e3');
    expect(sentText(null)).toBe('null');
    expect(sentText({ toString: 1 })).toBe('{"toString":1}');
    expect(sentText([5])).toBe('[5]');
    expect(sentText(JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`))).toBe('…');
  });
});

describe('recordableText', () => {
  test('cuts to the limit and shows what PostgreSQL cannot store as U+FFFD, also a pair the cut split', () => {
    expect(recordableText('a\u0000b\ud800c')).toBe('a\uFFFDb\uFFFDc');
    expect(recordableText('ab🎉', 3)).toBe('ab\uFFFD');
    expect(recordableText('Parabéns 🎉', 200)).toBe('Parabéns 🎉');
  });
});

describe('calendarDate', () => {
  test('a real time within 1900–2100', () => {
    expect(calendarDate(2024, 2, 29, 23, 59, 59)?.toISOString()).toBe('2024-02-29T23:59:59.000Z');
    expect(calendarDate(1900, 1, 1)?.toISOString()).toBe('1900-01-01T00:00:00.000Z');
  });

  test.each([
    [2023, 2, 29, 0, 0, 0],
    [2024, 2, 30, 0, 0, 0],
    [2024, 13, 1, 0, 0, 0],
    [2024, 0, 10, 0, 0, 0],
    [2024, 6, 1, 24, 0, 0],
    [2024, 6, 1, 12, 60, 0],
    [2024, 6, 1, 12, 0, 60],
    [9999, 12, 31, 0, 0, 0],
    [1899, 12, 31, 0, 0, 0],
    [275760, 9, 13, 0, 0, 0],
  ])('%i-%i-%i %i:%i:%i is refused', (...fields) => {
    expect(calendarDate(...fields)).toBeNull();
  });
});

describe('instantText', () => {
  const expiry = instantText('invalid_tag_expiry');

  test('takes ISO 8601 with an offset', () => {
    expect(expiry.parse('2026-03-01T10:00:00-03:00')).toBe('2026-03-01T10:00:00-03:00');
    expect(expiry.parse('2026-03-01T13:00:00.123Z')).toBe('2026-03-01T13:00:00.123Z');
  });

  test.each([
    '9999-12-31T23:59:59Z',
    '+275760-09-13T00:00:00.000Z',
    '1899-12-31T23:59:59Z',
    '2024-02-30T10:00:00Z',
    '2024-06-01',
    'amanhã',
    '2024-06-01T10:00:00\u0000Z',
  ])('%j is refused with the caller’s code', (value) => {
    expect(codes(expiry.safeParse(value))).toEqual(['invalid_tag_expiry']);
  });
});
