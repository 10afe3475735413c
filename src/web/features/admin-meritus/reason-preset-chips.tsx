import { useState } from 'react';
import { BookmarkPlus, Pencil, X } from 'lucide-react';
import { REASON_PRESET_MAX_LENGTH, REASON_PRESETS_LIMIT } from '../../../shared/reason-presets.ts';
import { cn } from '../../lib/cn.ts';
import { useStaffPermission } from '../../lib/staff.ts';
import { useCreateReasonPreset, useDeleteReasonPreset, useReasonPresets } from './meritus-queries.ts';

/** Saved reasons: a click fills the description; the current description can be saved; edit mode removes. */
export function ReasonPresetChips({ description, onPick }: { description: string; onPick: (label: string) => void }) {
  const presets = useReasonPresets();
  const create = useCreateReasonPreset();
  const remove = useDeleteReasonPreset();
  const [editing, setEditing] = useState(false);
  const list = presets.data ?? [];
  const text = description.replace(/\s+/g, ' ').trim();
  const alreadySaved = list.some((preset) => preset.label.toLowerCase() === text.toLowerCase());
  const canSave = text.length > 0 && text.length <= REASON_PRESET_MAX_LENGTH && !alreadySaved && list.length < REASON_PRESETS_LIMIT;
  // The school's list of reasons is kept by the coordination; teachers pick from it.
  const manage = useStaffPermission('manageSchool');
  if (!manage && list.length === 0) return null;

  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center justify-between gap-2">
        <p id="reason-presets-label" className="text-xs font-semibold tracking-wide text-slate-600 uppercase">
          Motivos salvos
        </p>
        {manage && (
          <div className="flex items-center gap-1">
            <button
              type="button"
              onClick={() => create.mutate(text)}
              disabled={!canSave || create.isPending}
              className={cn(
                'inline-flex h-8 items-center gap-1 rounded-lg px-2 text-xs font-semibold text-indigo-700',
                'hover:bg-indigo-50 disabled:cursor-not-allowed disabled:text-slate-400 disabled:hover:bg-transparent',
              )}
              title={alreadySaved ? 'Este motivo já está salvo' : 'Salvar a descrição atual como motivo'}
            >
              <BookmarkPlus aria-hidden="true" className="size-4" />
              Salvar motivo
            </button>
            {list.length > 0 && (
              <button
                type="button"
                onClick={() => setEditing((value) => !value)}
                aria-pressed={editing}
                className={cn(
                  'inline-flex h-8 items-center gap-1 rounded-lg px-2 text-xs font-semibold hover:bg-slate-100',
                  editing ? 'bg-slate-100 text-slate-900' : 'text-slate-700',
                )}
              >
                <Pencil aria-hidden="true" className="size-3.5" />
                {editing ? 'Concluir' : 'Editar'}
              </button>
            )}
          </div>
        )}
      </div>
      {list.length === 0 ? (
        <p className="text-xs text-slate-600">Escreva uma descrição e clique em “Salvar motivo” para reutilizá-la depois.</p>
      ) : (
        <ul aria-labelledby="reason-presets-label" className="flex flex-wrap gap-1.5">
          {list.map((preset) => (
            <li key={preset.id}>
              {editing ? (
                <span className="inline-flex items-center gap-1 rounded-full bg-slate-100 py-1 pr-1 pl-3 text-xs font-medium text-slate-800">
                  {preset.label}
                  <button
                    type="button"
                    onClick={() => remove.mutate(preset)}
                    disabled={remove.isPending}
                    aria-label={`Remover motivo ${preset.label}`}
                    className="flex size-6 items-center justify-center rounded-full text-slate-600 hover:bg-rose-100 hover:text-rose-700"
                  >
                    <X aria-hidden="true" className="size-3.5" />
                  </button>
                </span>
              ) : (
                <button
                  type="button"
                  onClick={() => onPick(preset.label)}
                  className={cn(
                    'inline-flex min-h-8 items-center rounded-full px-3 py-1 text-xs font-medium ring-1 transition-colors ring-inset',
                    preset.label === text
                      ? 'bg-indigo-600 text-white ring-indigo-600'
                      : 'bg-white text-slate-800 ring-slate-300 hover:bg-indigo-50 hover:ring-indigo-300',
                  )}
                >
                  {preset.label}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
