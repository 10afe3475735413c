import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';
import { ChevronDown } from 'lucide-react';
import { cn } from '../lib/cn.ts';
import { FieldFrame, fieldClass } from './text-field.tsx';

export type SelectOption = { value: string; label: string; disabled?: boolean };

export type SelectFieldProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> & {
  label: string;
  options: readonly SelectOption[];
  /** A first, empty choice such as 'Selecione...'. */
  placeholder?: string;
  error?: string | undefined;
  hint?: ReactNode;
  hideLabel?: boolean;
  containerClassName?: string;
};

export function SelectField({
  label,
  options,
  placeholder,
  error,
  hint,
  hideLabel,
  containerClassName,
  className,
  ...rest
}: SelectFieldProps) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} hideLabel={hideLabel} className={containerClassName}>
      <div className="relative">
        <select
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={error || hint ? `${id}-message` : undefined}
          className={cn(fieldClass, 'h-12 appearance-none pr-10', error ? 'border-rose-400' : 'border-slate-300', className)}
          {...rest}
        >
          {placeholder !== undefined && <option value="">{placeholder}</option>}
          {options.map((option) => (
            <option key={option.value} value={option.value} disabled={option.disabled}>
              {option.label}
            </option>
          ))}
        </select>
        <ChevronDown aria-hidden="true" className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-slate-500" />
      </div>
    </FieldFrame>
  );
}
