import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';
import { cn } from '../lib/cn.ts';

export const fieldClass =
  'block w-full rounded-xl border bg-white px-3.5 text-base text-slate-900 shadow-sm ' +
  'placeholder:text-slate-500 transition-colors focus:outline-none focus-visible:border-indigo-500 ' +
  'focus-visible:ring-2 focus-visible:ring-indigo-500/40 disabled:bg-slate-100 disabled:text-slate-500 sm:text-sm';

type FieldFrameProps = {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  hideLabel?: boolean;
  children: ReactNode;
  className?: string | undefined;
};

/** Label above, control, then the hint or the inline error (announced to screen readers). */
export function FieldFrame({ id, label, error, hint, hideLabel, children, className }: FieldFrameProps) {
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className={cn('text-sm font-medium text-slate-800', hideLabel && 'sr-only')}>
        {label}
      </label>
      {children}
      {error ? (
        <p id={`${id}-message`} role="alert" className="text-sm font-medium text-rose-700">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-message`} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  hideLabel?: boolean;
  /** Something inside the field on the right, e.g. a show-password button. */
  trailing?: ReactNode;
  containerClassName?: string;
};

export function TextField({ label, error, hint, hideLabel, trailing, containerClassName, className, ...rest }: TextFieldProps) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} hideLabel={hideLabel} className={containerClassName}>
      <div className="relative">
        <input
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={error || hint ? `${id}-message` : undefined}
          className={cn(fieldClass, 'h-12', error ? 'border-rose-400' : 'border-slate-300', trailing ? 'pr-12' : undefined, className)}
          {...rest}
        />
        {trailing && <div className="absolute inset-y-0 right-1 flex items-center">{trailing}</div>}
      </div>
    </FieldFrame>
  );
}

export type TextAreaFieldProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> & {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  containerClassName?: string;
};

export function TextAreaField({ label, error, hint, containerClassName, className, rows = 3, ...rest }: TextAreaFieldProps) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} className={containerClassName}>
      <textarea
        id={id}
        rows={rows}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? `${id}-message` : undefined}
        className={cn(fieldClass, 'py-2.5', error ? 'border-rose-400' : 'border-slate-300', className)}
        {...rest}
      />
    </FieldFrame>
  );
}

export type AmountFieldProps = Omit<TextFieldProps, 'type' | 'inputMode' | 'min' | 'step' | 'value' | 'onChange'> & {
  value: string;
  onValueChange: (text: string) => void;
};

/**
 * A whole amount from 1 up: numeric keyboard on phones; the text stays as typed for the form's rules to judge
 * (parseAmountText). A text field, not type="number": Chromium's number field drops a typed comma, so '1,5' became
 * '15' and was sent as 15 M$, and '12abc' as 12.
 */
export function AmountField({ value, onValueChange, ...rest }: AmountFieldProps) {
  return (
    <TextField
      type="text"
      inputMode="numeric"
      autoComplete="off"
      value={value}
      onChange={(event) => onValueChange(event.target.value)}
      {...rest}
    />
  );
}

export type DescriptionFieldProps = Omit<TextAreaFieldProps, 'label' | 'value' | 'onChange' | 'maxLength'> & {
  label?: string;
  value: string;
  onValueChange: (text: string) => void;
};

/** An operation's description, up to the 200 characters the server keeps; by default the reason an administrator gives. */
export function DescriptionField({
  label = 'Descrição',
  rows = 2,
  placeholder = 'Motivo da operação',
  onValueChange,
  ...rest
}: DescriptionFieldProps) {
  return (
    <TextAreaField
      label={label}
      rows={rows}
      maxLength={200}
      placeholder={placeholder}
      onChange={(event) => onValueChange(event.target.value)}
      {...rest}
    />
  );
}
