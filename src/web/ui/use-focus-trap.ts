import { useEffect, useRef, type RefObject } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), ' +
  'select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusables(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((element) => element.getClientRects().length > 0);
}

/**
 * Where focusing a field opens an on-screen keyboard (a touch screen, or one as narrow as a phone, where dialogs are
 * bottom sheets): there a dialog opens with its heading focused, not a field, so the keyboard does not cover the sheet.
 */
const KEYBOARD_SCREEN = '(pointer: coarse), (max-width: 39.99rem)';

/**
 * While `active`: moves focus into the container (see `initial` below), keeps Tab inside it, closes on Escape
 * and, when it ends, gives focus back to whatever had it before.
 */
export function useFocusTrap(containerRef: RefObject<HTMLElement | null>, active: boolean, onEscape: () => void): void {
  const escape = useRef(onEscape);
  useEffect(() => {
    escape.current = onEscape;
  });
  useEffect(() => {
    const container = containerRef.current;
    if (!active || !container) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // On a phone, the heading (data-focus-heading) or the container itself: a screen reader reads the dialog's name, and
    // the keyboard opens only when the student taps a field. Elsewhere, an element marked to take it, else the first
    // control of the parts marked as where work starts (a dialog's fields, then its buttons), else the first control.
    const starts = Array.from(container.querySelectorAll<HTMLElement>('[data-focus-start]')).flatMap(focusables);
    const initial = window.matchMedia?.(KEYBOARD_SCREEN).matches
      ? (container.querySelector<HTMLElement>('[data-focus-heading]') ?? container)
      : (container.querySelector<HTMLElement>('[data-autofocus]') ?? starts[0] ?? focusables(container)[0] ?? container);
    initial.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        escape.current();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusables(container);
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) {
        event.preventDefault();
        return;
      }
      if (event.shiftKey && (document.activeElement === first || !container.contains(document.activeElement))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (document.activeElement === last || !container.contains(document.activeElement))) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      if (previous?.isConnected) previous.focus();
    };
  }, [active, containerRef]);
}
