import { useEffect, useState, type ButtonHTMLAttributes, type MouseEvent, type ReactNode, type Ref } from 'react';
import { LoaderCircle } from 'lucide-react';
import { cn } from '../lib/cn.ts';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'dangerGhost' | 'danger' | 'success';
export type ButtonSize = 'sm' | 'md' | 'lg';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-indigo-600 text-white shadow-sm hover:bg-indigo-700 active:bg-indigo-800',
  secondary: 'border border-slate-300 bg-white text-slate-800 shadow-sm hover:bg-slate-50 active:bg-slate-100',
  ghost: 'text-slate-700 hover:bg-slate-100 active:bg-slate-200',
  /** A ghost button whose action cannot be undone (Excluir among quieter actions). */
  dangerGhost: 'text-rose-700 hover:bg-rose-50 active:bg-rose-100',
  danger: 'bg-rose-600 text-white shadow-sm hover:bg-rose-700 active:bg-rose-800',
  success: 'bg-emerald-700 text-white shadow-sm hover:bg-emerald-800 active:bg-emerald-900',
};

const sizes: Record<ButtonSize, string> = {
  sm: 'h-9 gap-1.5 rounded-lg px-3 text-sm',
  md: 'h-11 gap-2 rounded-xl px-4 text-sm',
  lg: 'h-12 gap-2 rounded-xl px-5 text-base',
};

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /**
   * Shows a spinner and refuses clicks (e.g. while a form is being sent). The button stays
   * focusable (aria-disabled, not disabled): a disabled button drops the keyboard's focus to
   * the page, so after sending a form the user had to find their place again.
   */
  loading?: boolean;
  /**
   * Every click starts a request (a confirmation, an import): the second click of a double click is refused too.
   * It can come before the request's `loading` reaches the screen, and would send it twice.
   */
  blocksDoubleClick?: boolean;
  icon?: ReactNode;
  fullWidth?: boolean;
  ref?: Ref<HTMLButtonElement>;
};

/** How long a click holds a button that blocks double clicks, unless its `loading` takes over sooner: longer than a double click. */
const CLICK_HOLD_MS = 600;

/** Whether the button is held by a recent click; `hold()` starts it. It ends when `loading` takes over, or after CLICK_HOLD_MS. */
function useClickHold(loading: boolean): [boolean, () => void] {
  const [held, setHeld] = useState(false);
  // Handed over to `loading` as soon as it shows (state adjusted while rendering, not in an effect).
  if (held && loading) setHeld(false);
  useEffect(() => {
    if (!held) return;
    const release = setTimeout(() => setHeld(false), CLICK_HOLD_MS);
    return () => clearTimeout(release);
  }, [held]);
  return [held, () => setHeld(true)];
}

export function Button({
  variant = 'primary',
  size = 'md',
  loading = false,
  blocksDoubleClick = false,
  icon,
  fullWidth = false,
  className,
  disabled,
  type = 'button',
  children,
  onClick,
  ...rest
}: ButtonProps) {
  const [held, hold] = useClickHold(loading);
  const busy = loading || held;
  const click = (event: MouseEvent<HTMLButtonElement>) => {
    // Cancelling the click also cancels the form submission it would start (Enter in a field included).
    if (busy) return event.preventDefault();
    if (blocksDoubleClick) hold();
    onClick?.(event);
  };
  return (
    <button
      type={type}
      disabled={disabled}
      aria-disabled={busy || undefined}
      aria-busy={loading || undefined}
      onClick={click}
      className={cn(
        'inline-flex select-none items-center justify-center font-semibold transition-colors',
        'disabled:cursor-not-allowed disabled:opacity-60 aria-disabled:cursor-not-allowed aria-disabled:opacity-60',
        variants[variant],
        sizes[size],
        fullWidth && 'w-full',
        className,
      )}
      {...rest}
    >
      {loading ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : icon}
      {children}
    </button>
  );
}
