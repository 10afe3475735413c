import { useEffect, useRef } from 'react';

/**
 * A form's refusal above its submit button, announced to screen readers; nothing when there is
 * none. In a dialog whose body scrolls, it sits below the fold of a long form: it is brought
 * into view whenever it changes, so pressing the button never seems to do nothing.
 */
export function FormAlert({ message }: { message: string | undefined }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (message) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [message]);
  if (!message) return null;
  return (
    <p ref={ref} role="alert" className="rounded-xl bg-rose-50 px-3 py-2 text-sm font-medium text-rose-800 ring-1 ring-rose-200 ring-inset">
      {message}
    </p>
  );
}
