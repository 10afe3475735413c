import { useDeferredValue, useId, useMemo, useState } from 'react';
import { studentMatcher } from '../../shared/student-match.ts';
import { cn } from '../lib/cn.ts';
import { SearchInput } from './search-input.tsx';
import { StudentIdentity } from './student-identity.tsx';

export type PickerStudent = {
  id: string;
  studentId: string;
  name: string;
  grade: string;
  photo: string | null;
  /** Shown on the right, e.g. "120 M$". */
  balanceLabel: string;
};

export type StudentPickerProps = {
  students: readonly PickerStudent[];
  selected: ReadonlySet<string>;
  onChange: (selected: Set<string>) => void;
  /** One student (radio buttons) or several (check boxes). */
  mode: 'single' | 'multiple';
  /** Accessible name of the list, e.g. 'Estudantes'. */
  label: string;
  /** A small unit under each balance, e.g. 'Estelecas' (leave out when the label carries it, as in "120 M$"). */
  balanceUnit?: string;
  /** Rows drawn at once; the search narrows the rest (keeps 2,000 students fast). */
  limit?: number;
  listClassName?: string;
};

/**
 * Search by name, matrícula or série, then pick one or several students. Only the first
 * `limit` matches are drawn; a line says how many more the search could show.
 */
export function StudentPicker({ students, selected, onChange, mode, label, balanceUnit, limit = 50, listClassName }: StudentPickerProps) {
  const [query, setQuery] = useState('');
  const deferredQuery = useDeferredValue(query);
  const name = useId();
  const match = useMemo(() => studentMatcher(students), [students]);
  const matches = useMemo(() => match(deferredQuery), [match, deferredQuery]);
  const shown = matches.slice(0, limit);

  const toggle = (id: string) => {
    if (mode === 'single') return onChange(new Set([id]));
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onChange(next);
  };

  return (
    <div className="flex min-h-0 flex-col gap-2">
      <SearchInput value={query} onChange={setQuery} label="Buscar estudante" placeholder="Nome, matrícula ou série" />
      <fieldset className="min-h-0 min-w-0">
        <legend className="sr-only">{label}</legend>
        {shown.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 px-4 py-8 text-center text-sm text-slate-600">
            {students.length === 0 ? 'Nenhum estudante disponível' : 'Nenhum estudante encontrado'}
          </p>
        ) : (
          <ul
            className={cn('max-h-80 divide-y divide-slate-100 overflow-y-auto rounded-xl border border-slate-200 bg-white', listClassName)}
          >
            {shown.map((student) => {
              const checked = selected.has(student.id);
              return (
                <li key={student.id}>
                  <label
                    className={cn(
                      'relative flex min-h-14 cursor-pointer items-center gap-3 px-3 py-2 transition-colors',
                      checked ? 'bg-indigo-50' : 'hover:bg-slate-50',
                    )}
                  >
                    <input
                      type={mode === 'single' ? 'radio' : 'checkbox'}
                      name={name}
                      checked={checked}
                      onChange={() => toggle(student.id)}
                      className="size-5 shrink-0 cursor-pointer accent-indigo-600"
                    />
                    <StudentIdentity student={student} />
                    <span className="flex shrink-0 flex-col items-end text-sm font-semibold text-slate-700 tabular-nums">
                      {student.balanceLabel}
                      {balanceUnit && <span className="text-xs font-normal text-slate-600">{balanceUnit}</span>}
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        )}
      </fieldset>
      {matches.length > shown.length && (
        <p className="text-xs text-slate-600">
          Mostrando {shown.length} de {matches.length} estudantes. Refine a busca para ver os demais.
        </p>
      )}
    </div>
  );
}
