import { act } from 'react';
import { expect, test, vi } from 'vitest';
import { mountPerTest } from '../test/test-root.ts';
import { Button } from './button.tsx';

const root = mountPerTest();

function render(loading: boolean, onSubmit: () => void, onClick: () => void) {
  root.render(
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <input aria-label="Valor" />
      <Button type="submit" loading={loading} onClick={onClick}>
        Transferir
      </Button>
    </form>,
  );
  return root.container().querySelector('button')!;
}

test('a loading button keeps the focus it has and refuses clicks and the form submission they start', () => {
  const onSubmit = vi.fn();
  const onClick = vi.fn();
  const button = render(false, onSubmit, onClick);
  button.focus();
  act(() => button.click());
  expect(onSubmit).toHaveBeenCalledTimes(1);

  render(true, onSubmit, onClick);
  expect(button.disabled).toBe(false);
  expect(document.activeElement).toBe(button);
  expect(button.getAttribute('aria-disabled')).toBe('true');
  expect(button.getAttribute('aria-busy')).toBe('true');
  act(() => button.click());
  expect(onSubmit).toHaveBeenCalledTimes(1);
  expect(onClick).toHaveBeenCalledTimes(1);
});
