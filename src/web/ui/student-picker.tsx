import { useId, useState } from 'react';
import type { AdminStudent } from '../../shared/admin-students.ts';
import { formatNumber } from '../../shared/format.ts';
import { useStaffStudentSearch, type StaffSearchFilter } from '../lib/student-search.ts';
import { cn } from '../lib/cn.ts';
import { Button } from './button.tsx';
import { SearchInput } from './search-input.tsx';
import { Skeleton } from './skeleton.tsx';
import { StudentIdentity } from './student-identity.tsx';

/** The students picked, by id, as the search found them (a pick stays when the search changes). */
export type PickedStudents = ReadonlyMap<string, AdminStudent>;

export type StudentPickerProps = {
  selected: PickedStudents;
  onChange: (selected: Map<string, AdminStudent>) => void;
  /** One student (radio buttons) or several (check boxes). */
  mode: 'single' | 'multiple';
  /** Accessible name of the list, e.g. 'Estudantes'. */
  label: string;
  /** Shown on the right of each student, e.g. "120 M$"; nothing without it. */
  balanceOf?: (student: AdminStudent) => string;
  /** A small unit under each balance, e.g. 'Estelecas' (leave out when the label carries it, as in "120 M$"). */
  balanceUnit?: string;
  /** Only some students (those holding Estelecas, for a removal). */
  filter?: StaffSearchFilter;
  /** Rows per page; 'Mostrar mais' adds the next page. */
  limit?: number;
  listClassName?: string;
};

/**
 * Search by name, matrícula or turma, then pick one or several students. The server searches once the typing pauses
 * and answers a page; a line says how many the search found, and 'Mostrar mais' adds the next page.
 */
export function StudentPicker({
  selected,
  onChange,
  mode,
  label,
  balanceOf,
  balanceUnit,
  filter,
  limit,
  listClassName,
}: StudentPickerProps) {
  const [query, setQuery] = useState('');
  const name = useId();
  const search = useStaffStudentSearch(query, filter, limit);
  const shown = search.students ?? [];
  const total = search.total ?? 0;

  const toggle = (student: AdminStudent) => {
    if (mode === 'single') return onChange(new Map([[student.id, student]]));
    const next = new Map(selected);
    if (next.has(student.id)) next.delete(student.id);
    else next.set(student.id, student);
    onChange(next);
  };

  return (
    <div className="flex min-h-0 flex-col gap-2">
      <SearchInput value={query} onChange={setQuery} label="Buscar estudante" placeholder="Nome, matrícula ou turma" />
      <fieldset className="min-h-0 min-w-0">
        <legend className="sr-only">{label}</legend>
        {search.isPending ? (
          <Skeleton className="h-40" />
        ) : search.isError && !search.data ? (
          <p role="alert" className="rounded-xl border border-dashed border-rose-300 px-4 py-8 text-center text-sm text-rose-800">
            Não foi possível carregar os estudantes
          </p>
        ) : shown.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 px-4 py-8 text-center text-sm text-slate-600">
            {search.searched || search.isPlaceholderData ? 'Nenhum estudante encontrado' : 'Nenhum estudante disponível'}
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
                      onChange={() => toggle(student)}
                      className="size-5 shrink-0 cursor-pointer accent-indigo-600"
                    />
                    <StudentIdentity student={{ ...student, photo: student.photoThumb ?? student.photo }} />
                    {balanceOf && (
                      <span className="flex shrink-0 flex-col items-end text-sm font-semibold text-slate-700 tabular-nums">
                        {balanceOf(student)}
                        {balanceUnit && <span className="text-xs font-normal text-slate-600">{balanceUnit}</span>}
                      </span>
                    )}
                  </label>
                </li>
              );
            })}
          </ul>
        )}
      </fieldset>
      {search.hasNextPage && (
        <div className="flex flex-wrap items-center gap-3 text-xs text-slate-600">
          <p>
            Mostrando {formatNumber(shown.length)} de {formatNumber(total)} estudantes.
          </p>
          <Button variant="secondary" size="sm" loading={search.isFetchingNextPage} onClick={() => void search.fetchNextPage()}>
            Mostrar mais
          </Button>
        </div>
      )}
    </div>
  );
}
