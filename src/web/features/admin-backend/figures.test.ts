import { expect, test } from 'vitest';
import { formatMs } from '../../../shared/format.ts';
import { formatDuration, formatShare } from './figures.ts';

test('uptime reads in days, hours, minutes and seconds, dropping what is too small to matter', () => {
  expect(formatDuration(0)).toBe('0 min 0 s');
  expect(formatDuration(59.9)).toBe('0 min 59 s');
  expect(formatDuration(3 * 3600 + 4 * 60 + 5)).toBe('3 h 4 min 5 s');
  expect(formatDuration(2 * 86_400 + 3600 + 60 + 1)).toBe('2 d 1 h 1 min');
  // a clock a little behind the server's start never shows a negative time
  expect(formatDuration(-3)).toBe('0 min 0 s');
});

test('figures use the Brazilian decimal comma', () => {
  expect(formatMs(0.4215)).toBe('0,42 ms');
  expect(formatMs(123.45)).toBe('123,5 ms');
  expect(formatShare(0.0125)).toBe('1,25%');
});
