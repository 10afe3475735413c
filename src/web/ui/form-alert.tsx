import { useEffect, useRef } from 'react';

/**
 * A form's refusal above its submit button, announced to screen readers; nothing when there is
 * none. In a dialog whose body scrolls, it sits below the fold of a long form: it is brought
 * into view whenever it changes, so pressing the button never seems to do nothing. Until the
 * person does something else (clicks, types or scrolls), it stays in view while its form grows
 * above it (a list that finishes loading would otherwise push it back below the fold).
 */
export function FormAlert({ message }: { message: string | undefined }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    const alert = ref.current;
    const form = alert?.closest('form') ?? alert?.parentElement;
    if (!message || !alert || !form) return;
    const bringIntoView = () => alert.scrollIntoView({ block: 'nearest' });
    bringIntoView();
    const resizes = new ResizeObserver(bringIntoView);
    resizes.observe(form);
    const stop = () => resizes.disconnect();
    // Whatever the person does next (a click, a key, scrolling) is theirs to lead.
    const doings = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;
    for (const doing of doings) document.addEventListener(doing, stop, { once: true, capture: true, passive: true });
    return () => {
      stop();
      for (const doing of doings) document.removeEventListener(doing, stop, { capture: true });
    };
  }, [message]);
  if (!message) return null;
  return (
    <p ref={ref} role="alert" className="rounded-xl bg-rose-50 px-3 py-2 text-sm font-medium text-rose-800 ring-1 ring-rose-200 ring-inset">
      {message}
    </p>
  );
}
