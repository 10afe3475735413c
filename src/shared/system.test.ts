import { expect, test } from 'vitest';
import { recordHealth } from './system.ts';

test("the backend panel's health rule: critical with no record, warning under 10, healthy from 10", () => {
  expect([0, 1, 9, 10, 5000].map(recordHealth)).toEqual(['critical', 'warning', 'warning', 'healthy', 'healthy']);
});
