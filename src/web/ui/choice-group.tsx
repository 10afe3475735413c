import { useId } from 'react';
import { cn } from '../lib/cn.ts';

/**
 * One choice among a few, as native radios (arrow keys move between them, a screen reader counts them), drawn as a
 * segmented control (`segmented`, the options sharing a row) or as separate chips that wrap (`chips`).
 */
export function ChoiceGroup<Value extends string>({
  legend,
  legendHidden = false,
  options,
  value,
  onChange,
  variant,
}: {
  legend: string;
  legendHidden?: boolean;
  options: readonly { value: Value; label: string }[];
  value: Value;
  onChange: (value: Value) => void;
  variant: 'segmented' | 'chips';
}) {
  const name = useId();
  const segmented = variant === 'segmented';
  return (
    <fieldset>
      <legend className={legendHidden ? 'sr-only' : 'mb-1.5 text-sm font-medium text-slate-800'}>{legend}</legend>
      <div className={segmented ? 'flex gap-1 rounded-xl bg-slate-100 p-1' : 'flex flex-wrap gap-2'}>
        {options.map((option) => {
          const chosen = value === option.value;
          return (
            <label
              key={option.value}
              className={cn(
                'relative flex cursor-pointer items-center text-sm font-semibold transition-colors',
                'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500',
                segmented ? 'min-h-10 flex-1 justify-center rounded-lg px-3' : 'min-h-11 rounded-full px-4 ring-1',
                segmented && (chosen ? 'bg-white text-indigo-700 shadow-sm' : 'text-slate-600 hover:text-slate-900'),
                !segmented &&
                  (chosen
                    ? 'bg-indigo-600 text-white ring-indigo-600'
                    : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50 hover:text-slate-900'),
              )}
            >
              <input
                type="radio"
                name={name}
                value={option.value}
                checked={chosen}
                onChange={() => onChange(option.value)}
                className={cn(
                  'absolute inset-0 size-full cursor-pointer appearance-none opacity-0',
                  segmented ? 'rounded-lg' : 'rounded-full',
                )}
              />
              {option.label}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
