import { expect, test } from 'vitest';
import { boardsNotReadAgain, mergeOwed, type Owed } from './live-hub.ts';

const nothing: Owed = { figures: false, students: false };

test('what two ticks owe a stream before its turn merges into one of each event: both boards, the latest own position', () => {
  const first: Owed = { ...nothing, ranking: { type: 'ranking', boards: ['meritus'], own: { position: 30, total: 34 } } };
  const second: Owed = { ...nothing, figures: true, ranking: { type: 'ranking', boards: ['estelecas'], own: null }, tags: { mine: false } };
  // The student's own row did not move in the second tick: the position of the first still stands.
  expect(mergeOwed(first, second)).toEqual({
    ranking: { type: 'ranking', boards: ['meritus', 'estelecas'], own: { position: 30, total: 34 } },
    figures: true,
    tags: { mine: false },
    students: false,
  });
  const third: Owed = {
    ...nothing,
    ranking: { type: 'ranking', boards: ['meritus'], own: { position: 12, total: 34 } },
    tags: { mine: true },
  };
  expect(mergeOwed(mergeOwed(first, second), third)).toMatchObject({
    ranking: { boards: ['meritus', 'estelecas'], own: { position: 12, total: 34 } },
    tags: { mine: true },
  });
  expect(mergeOwed(undefined, second)).toBe(second);
});

test("beside a 'students' event, which has the Méritus ranking and the summary read again, a ranking event names only the other boards", () => {
  const own = { position: 3, total: 40 };
  expect(boardsNotReadAgain({ type: 'ranking', boards: ['meritus'], own })).toBeUndefined();
  expect(boardsNotReadAgain({ type: 'ranking', boards: ['meritus', 'estelecas'], own })).toEqual({
    type: 'ranking',
    boards: ['estelecas'],
    own,
  });
  expect(boardsNotReadAgain(undefined)).toBeUndefined();
});
