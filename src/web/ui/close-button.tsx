import { X } from 'lucide-react';

/** The ✕ that closes a dialog or a drawer; each place sets its own size and position. */
export function CloseButton({ label, onClick, className }: { label: string; onClick: () => void; className: string }) {
  return (
    <button type="button" onClick={onClick} aria-label={label} className={className}>
      <X aria-hidden="true" className="size-5" />
    </button>
  );
}
