import { useId, type Ref } from 'react';
import { Search, X } from 'lucide-react';
import { cn } from '../lib/cn.ts';
import { fieldClass } from './text-field.tsx';

export type SearchInputProps = {
  value: string;
  onChange: (value: string) => void;
  /** Accessible name, e.g. 'Buscar estudante'. */
  label: string;
  placeholder?: string;
  className?: string;
  autoFocus?: boolean;
  /** The input itself, for a screen that moves focus to it. */
  ref?: Ref<HTMLInputElement>;
};

/** A search box with a magnifier and a clear button. */
export function SearchInput({ value, onChange, label, placeholder, className, autoFocus, ref }: SearchInputProps) {
  const id = useId();
  return (
    <div className={cn('relative', className)}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3.5 size-4 -translate-y-1/2 text-slate-500" />
      <input
        ref={ref}
        id={id}
        type="search"
        value={value}
        autoFocus={autoFocus}
        placeholder={placeholder ?? label}
        onChange={(event) => onChange(event.target.value)}
        className={cn(fieldClass, 'h-11 border-slate-300 pr-10 pl-10 [&::-webkit-search-cancel-button]:hidden')}
      />
      {value && (
        <button
          type="button"
          onClick={() => onChange('')}
          aria-label="Limpar busca"
          className={cn(
            'absolute top-1/2 right-1.5 flex size-8 -translate-y-1/2 items-center justify-center',
            'rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-800',
          )}
        >
          <X aria-hidden="true" className="size-4" />
        </button>
      )}
    </div>
  );
}
