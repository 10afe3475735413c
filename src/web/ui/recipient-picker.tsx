import { useId } from 'react';
import { Check, SearchX, Users } from 'lucide-react';
import type { Recipient } from '../../shared/students.ts';
import { RANKING_PRIVACY_TEXTS } from '../../shared/ranking-privacy.ts';
import { countOf, formatNumber } from '../../shared/format.ts';
import { useDirectorySearch } from '../lib/student-search.ts';
import { useSchoolSettings } from '../lib/school-settings.ts';
import { cn } from '../lib/cn.ts';
import { Button } from './button.tsx';
import { EmptyState } from './empty-state.tsx';
import { LoadError } from './load-error.tsx';
import { SearchInput } from './search-input.tsx';
import { Skeleton } from './skeleton.tsx';
import { StudentIdentity } from './student-identity.tsx';

export type RecipientPickerProps = {
  selectedId: string | null;
  onSelect: (student: Recipient) => void;
  search: string;
  onSearchChange: (value: string) => void;
  /** Legend of the radio group, e.g. 'Destinatário'. */
  legend: string;
  className?: string;
  listClassName?: string;
};

/**
 * A searchable list of the classmates a student can send to (GET /api/students/directory,
 * which leaves the student out): radio buttons, so arrow keys move through them, with
 * name, matrícula and grade. The server searches (the app's one student search) once the
 * typing pauses and answers a page; 'Mostrar mais' adds the next.
 */
export function RecipientPicker({ selectedId, onSelect, search, onSearchChange, legend, className, listClassName }: RecipientPickerProps) {
  const name = useId();
  const directory = useDirectorySearch(search);
  // In 'Anônimo' nobody is browsed: a classmate is found by their exact matrícula (decision 029).
  const byMatriculaOnly = useSchoolSettings().data?.rules.rankingNames === 'anonymous';
  const { students: filtered, total = 0 } = directory;

  if (directory.isError && !directory.data) {
    return (
      <LoadError
        message="Não foi possível carregar os estudantes"
        onRetry={() => void directory.refetch()}
        retrying={directory.isFetching}
      />
    );
  }

  return (
    <fieldset className={cn('flex min-h-0 flex-col gap-3', className)}>
      <legend className="sr-only">{legend}</legend>
      <SearchInput
        value={search}
        onChange={onSearchChange}
        label="Buscar estudante"
        placeholder={byMatriculaOnly ? 'Matrícula do colega' : 'Nome, matrícula ou turma'}
      />
      {directory.isPending ? (
        <div className="flex flex-col gap-2" aria-hidden="true">
          {Array.from({ length: 5 }, (_, index) => (
            <Skeleton key={index} className="h-16 w-full rounded-xl" />
          ))}
        </div>
      ) : total === 0 && !directory.searched && !directory.isPlaceholderData ? (
        byMatriculaOnly ? (
          <EmptyState
            icon={<Users className="size-6" />}
            title="Busque pela matrícula"
            description={RANKING_PRIVACY_TEXTS.anonymousSearchHint}
          />
        ) : (
          <EmptyState icon={<Users className="size-6" />} title="Nenhum estudante disponível" />
        )
      ) : !filtered || filtered.length === 0 ? (
        <EmptyState
          icon={<SearchX className="size-6" />}
          title="Nenhum estudante encontrado"
          description={byMatriculaOnly ? RANKING_PRIVACY_TEXTS.anonymousSearchHint : 'Tente outro nome, matrícula ou turma.'}
        />
      ) : (
        <div className={cn('-mx-1 overflow-y-auto px-1 py-1', listClassName)}>
          <p className="sr-only" aria-live="polite">
            {countOf(total, 'estudante', 'estudantes')}
          </p>
          <ul className="flex flex-col gap-1.5">
            {filtered.map((student) => {
              const selected = student.id === selectedId;
              return (
                <li key={student.id} className="[content-visibility:auto] [contain-intrinsic-size:auto_4rem]">
                  <label
                    className={cn(
                      'relative flex min-h-16 cursor-pointer items-center gap-3 rounded-xl border px-3 py-2',
                      'transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500',
                      selected ? 'border-indigo-500 bg-indigo-50' : 'border-slate-200 bg-white hover:border-indigo-300 hover:bg-slate-50',
                    )}
                  >
                    <input
                      type="radio"
                      name={name}
                      value={student.id}
                      checked={selected}
                      onChange={() => onSelect(student)}
                      className="absolute inset-0 size-full cursor-pointer appearance-none rounded-xl opacity-0"
                    />
                    <StudentIdentity student={student} />
                    <span
                      aria-hidden="true"
                      className={cn(
                        'flex size-6 shrink-0 items-center justify-center rounded-full border-2',
                        selected ? 'border-indigo-600 bg-indigo-600 text-white' : 'border-slate-300',
                      )}
                    >
                      {selected && <Check className="size-3.5" strokeWidth={3} />}
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
          {directory.hasNextPage && (
            <div className="flex flex-col items-center gap-2 pt-3 text-xs text-slate-600">
              <p>
                Mostrando {formatNumber(filtered.length)} de {formatNumber(total)} estudantes
              </p>
              <Button variant="secondary" size="sm" loading={directory.isFetchingNextPage} onClick={() => void directory.fetchNextPage()}>
                Mostrar mais
              </Button>
            </div>
          )}
        </div>
      )}
    </fieldset>
  );
}
