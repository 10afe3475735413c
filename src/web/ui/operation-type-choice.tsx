import { ADMIN_OPERATION_HINTS } from '../../shared/ledger-texts.ts';
import { isCredit, OPERATION_TYPE_LABELS, type AdminOperationType } from '../../shared/ledger-types.ts';
import { cn } from '../lib/cn.ts';

/**
 * The staff's operation types as radio cards, each with its one-line meaning (Adição versus Recompensa, Remoção versus
 * Penalidade): green for those that add, red for those that remove. The award forms of Méritus and of Estelecas.
 */
export function OperationTypeChoice({
  types,
  value,
  onChange,
  name,
}: {
  types: readonly AdminOperationType[];
  value: AdminOperationType;
  onChange: (type: AdminOperationType) => void;
  /** The radio group's name, one per form. */
  name: string;
}) {
  return (
    <fieldset className="min-w-0">
      <legend className="mb-2 text-sm font-medium text-slate-800">Tipo de operação</legend>
      <div className="grid grid-cols-1 gap-2 min-[480px]:grid-cols-2">
        {types.map((type) => {
          const active = type === value;
          const add = isCredit(type);
          return (
            <label
              key={type}
              className={cn(
                'relative flex min-w-0 cursor-pointer items-start gap-2 rounded-xl border-2 px-3 py-2 transition-colors',
                active
                  ? add
                    ? 'border-emerald-500 bg-emerald-50 text-emerald-900'
                    : 'border-rose-500 bg-rose-50 text-rose-900'
                  : 'border-slate-200 bg-white text-slate-700 hover:border-slate-300',
              )}
            >
              <input
                type="radio"
                name={name}
                value={type}
                checked={active}
                onChange={() => onChange(type)}
                className={cn('mt-0.5 size-4 shrink-0 cursor-pointer', add ? 'accent-emerald-600' : 'accent-rose-600')}
              />
              <span className="min-w-0">
                <span className="block text-sm font-semibold">{OPERATION_TYPE_LABELS[type]}</span>
                <span className="block text-xs leading-snug opacity-90">{ADMIN_OPERATION_HINTS[type]}</span>
              </span>
            </label>
          );
        })}
      </div>
      <p className="mt-1.5 text-xs text-slate-600">O estudante vê o tipo no histórico dele.</p>
    </fieldset>
  );
}
