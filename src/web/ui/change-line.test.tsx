import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { expect, it } from 'vitest';
import type { ChangeDirection } from '../../shared/student-figures.ts';
import { ChangeLine } from './change-line.tsx';

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean;
}
globalThis.IS_REACT_ACT_ENVIRONMENT = true;

/** The colour a change line is drawn in. */
function toneOf(direction: ChangeDirection, better?: 'up' | 'down' | null): string {
  const container = document.createElement('div');
  const root = createRoot(container);
  act(() =>
    root.render(
      <ChangeLine direction={direction} {...(better === undefined ? {} : { better })}>
        x
      </ChangeLine>,
    ),
  );
  const tone = [...container.firstElementChild!.classList].find((name) => /^text-(emerald|rose|slate)-/.test(name))!;
  act(() => root.unmount());
  return tone;
}

it('a change is green when it goes the good way for its figure, red the other way, grey when neither is better', () => {
  expect(toneOf('up')).toBe('text-emerald-700');
  expect(toneOf('down')).toBe('text-rose-700');
  // Méritus or Estelecas removed: more is bad news.
  expect(toneOf('up', 'down')).toBe('text-rose-700');
  expect(toneOf('down', 'down')).toBe('text-emerald-700');
  expect(toneOf('up', null)).toBe('text-slate-600');
  expect(toneOf('flat', 'down')).toBe('text-slate-600');
});
