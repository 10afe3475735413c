/** A form's refusal above its submit button, announced to screen readers; nothing when there is none. */
export function FormAlert({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-xl bg-rose-50 px-3 py-2 text-sm font-medium text-rose-800 ring-1 ring-rose-200 ring-inset">
      {message}
    </p>
  );
}
