import { LayoutGrid, List } from 'lucide-react';
import { cn } from '../../lib/cn.ts';
import { SelectField } from '../../ui/select-field.tsx';

export type ViewMode = 'grid' | 'list';
export type CardSize = 'small' | 'medium' | 'large';

/** The narrowest a card may get in each size; the grid fits as many columns as these allow. */
export const CARD_MIN_WIDTH: Record<CardSize, number> = { small: 150, medium: 210, large: 290 };

const SIZE_OPTIONS = [
  { value: 'small', label: 'Pequeno' },
  { value: 'medium', label: 'Médio' },
  { value: 'large', label: 'Grande' },
] as const;

function isCardSize(value: string): value is CardSize {
  return SIZE_OPTIONS.some((option) => option.value === value);
}

const MODES = [
  { id: 'grid', label: 'Grade', Icon: LayoutGrid },
  { id: 'list', label: 'Lista', Icon: List },
] as const;

/** The header's grid/list toggle and, for the grid only, the card size. */
export function ViewControls({
  mode,
  onModeChange,
  size,
  onSizeChange,
}: {
  mode: ViewMode;
  onModeChange: (mode: ViewMode) => void;
  size: CardSize;
  onSizeChange: (size: CardSize) => void;
}) {
  return (
    <div className="flex items-center gap-2">
      <div role="group" aria-label="Modo de exibição" className="flex rounded-xl bg-slate-100 p-1">
        {MODES.map(({ id, label, Icon }) => (
          <button
            key={id}
            type="button"
            aria-pressed={mode === id}
            onClick={() => onModeChange(id)}
            className={cn(
              'flex h-9 items-center gap-1.5 rounded-lg px-3 text-sm font-semibold transition-colors',
              mode === id ? 'bg-white text-indigo-700 shadow-sm' : 'text-slate-600 hover:text-slate-900',
            )}
          >
            <Icon aria-hidden="true" className="size-4" />
            {label}
          </button>
        ))}
      </div>
      {mode === 'grid' && (
        <SelectField
          label="Tamanho dos cards"
          hideLabel
          options={SIZE_OPTIONS}
          value={size}
          onChange={(event) => {
            if (isCardSize(event.target.value)) onSizeChange(event.target.value);
          }}
          className="h-11 w-32"
        />
      )}
    </div>
  );
}
