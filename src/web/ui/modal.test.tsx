import { act, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { mountPerTest } from '../test/test-root.ts';
import { Modal } from './modal.tsx';

const root = mountPerTest();

function Harness({ onClose, dismissible = true }: { onClose: () => void; dismissible?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Abrir
      </button>
      <Modal
        open={open}
        dismissible={dismissible}
        onClose={() => {
          onClose();
          setOpen(false);
        }}
        title="Editar estudante"
        description="Altere os dados"
      >
        <input aria-label="Nome" />
      </Modal>
    </>
  );
}

const press = (key: string) => act(() => void document.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true })));

function openModal(): HTMLButtonElement {
  const opener = root.container().querySelector('button')!;
  opener.focus();
  act(() => opener.click());
  return opener;
}

describe('Modal', () => {
  it('is a labelled modal dialog', () => {
    root.render(<Harness onClose={() => {}} />);
    expect(document.querySelector('[role="dialog"]')).toBeNull();
    openModal();
    const dialog = document.querySelector('[role="dialog"]')!;
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.getElementById(dialog.getAttribute('aria-labelledby')!)?.textContent).toBe('Editar estudante');
    expect(document.getElementById(dialog.getAttribute('aria-describedby')!)?.textContent).toBe('Altere os dados');
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('closes on Escape and gives focus back to the button that opened it', () => {
    const onClose = vi.fn();
    root.render(<Harness onClose={onClose} />);
    const opener = openModal();
    press('Escape');
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(document.querySelector('[role="dialog"]')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('closes on the overlay and on its close button', () => {
    const onClose = vi.fn();
    root.render(<Harness onClose={onClose} />);
    openModal();
    act(() => (document.querySelector('[role="dialog"]')!.previousElementSibling as HTMLElement).click());
    expect(onClose).toHaveBeenCalledTimes(1);
    openModal();
    act(() => document.querySelector<HTMLButtonElement>('button[aria-label="Fechar"]')!.click());
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('stays open while not dismissible (a request is running)', () => {
    const onClose = vi.fn();
    root.render(<Harness onClose={onClose} dismissible={false} />);
    openModal();
    press('Escape');
    act(() => (document.querySelector('[role="dialog"]')!.previousElementSibling as HTMLElement).click());
    expect(onClose).not.toHaveBeenCalled();
    expect(document.querySelector('[role="dialog"]')).not.toBeNull();
  });
});
