import { useEffect, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ChevronLeft, ChevronRight, Download, FileUp, HeartHandshake, IdCard, UserPlus, Users } from 'lucide-react';
import { ADMIN_STUDENT_TEXTS, type AdminStudent } from '../../../shared/admin-students.ts';
import { offeredTurmas, useSchoolSettings } from '../../lib/school-settings.ts';
import { useSession } from '../../lib/session.ts';
import { countOf, formatNumber } from '../../lib/format.ts';
import { urlOf } from '../../../shared/contract/route.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { invalidateReads } from '../../lib/query-keys.ts';
import { toast, toastFailure } from '../../lib/toast.ts';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { SearchInput } from '../../ui/search-input.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { ImportWizard } from './import-wizard.tsx';
import { PersonalDataModal } from './personal-data-modal.tsx';
import { AccessCardsDialog } from './access-cards-dialog.tsx';
import { PasswordResetDialog } from './password-reset-dialog.tsx';
import { StudentCards, StudentsTable, type StudentActions } from './student-list.tsx';
import { StudentFormModal } from './student-form-modal.tsx';
import { nextExpiry, PAGE_SIZE } from './students-filter.ts';
import { STUDENT_SEARCH_DELAY_MS } from '../../lib/student-search.ts';
import { useDebounced } from '../../lib/use-debounced.ts';
import { useAdminStudents, useDeleteStudent } from './students-queries.ts';
import { TagManagerModal } from './tag-manager-modal.tsx';
import { SCREEN, useMediaQuery } from '../../ui/use-media-query.ts';
import { isStaffUser } from '../../../shared/areas.ts';
import { hasStaffPermission } from '../../lib/staff.ts';

const TOOL_BUTTON =
  'inline-flex h-11 items-center justify-center gap-2 rounded-xl border border-slate-300 bg-white ' +
  'px-3 text-sm font-semibold whitespace-nowrap text-slate-800 shadow-sm hover:bg-slate-50 ' +
  'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500';
/** setTimeout cannot wait longer than this (about 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

type Dialog =
  | { kind: 'form'; studentUuid: string | null }
  | { kind: 'tags'; studentUuid: string }
  | { kind: 'password'; student: AdminStudent }
  | { kind: 'delete'; student: AdminStudent }
  | { kind: 'personalData'; student: AdminStudent }
  | { kind: 'import' }
  | { kind: 'cards' }
  | { kind: 'letters' };

/**
 * Re-renders when the next shown tag expires, so it disappears at once, then refetches
 * (the server already leaves expired tags out) and says how many expired.
 */
function useTagExpiryClock(list: AdminStudent[] | undefined): number {
  const client = useQueryClient();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!list) return;
    // From the last check, not from now: a tag that ended before the list arrived (a list read late, a clock ahead of
    // the server's) is dropped and told at once instead of staying on screen.
    const next = nextExpiry(list, now);
    if (next === null) return;
    const wait = next - Date.now() + 250;
    if (wait > MAX_TIMER_MS) return;
    const timer = setTimeout(
      () => {
        const at = Date.now();
        const expired = list.reduce(
          (sum, student) =>
            sum + student.tags.filter((tag) => new Date(tag.expiresAt).getTime() <= at && new Date(tag.expiresAt).getTime() > now).length,
          0,
        );
        setNow(at);
        if (expired > 0) toast.success(ADMIN_STUDENT_TEXTS.tagsExpired(expired));
        invalidateReads(client, [routes.adminStudents.list, routes.tags.active]);
      },
      Math.max(0, wait),
    );
    return () => clearTimeout(timer);
  }, [list, now, client]);
  return now;
}

function ListSkeleton() {
  return (
    <div className="flex flex-col gap-3 p-4 sm:p-5" aria-hidden="true">
      {Array.from({ length: 6 }, (_, i) => (
        <div key={i} className="flex items-center gap-3">
          <Skeleton className="size-10 rounded-full" />
          <Skeleton className="h-4 flex-1" />
          <Skeleton className="hidden h-4 w-24 md:block" />
          <Skeleton className="hidden h-4 w-32 md:block" />
          <Skeleton className="h-4 w-16" />
        </div>
      ))}
    </div>
  );
}

/** /admin/students: search, add, edit, remove students; photos, tags, passwords, CSV import and export. */
export function AdminStudentsPage() {
  const { user } = useSession();
  const [query, setQuery] = useState('');
  const [grade, setGrade] = useState('');
  const [page, setPage] = useState(1);
  // The box shows each key at once; the server is asked when the typing pauses.
  const q = useDebounced(query.trim(), STUDENT_SEARCH_DELAY_MS);
  const students = useAdminStudents({ q, turma: grade, page });
  const remove = useDeleteStudent();
  const searchRef = useRef<HTMLInputElement>(null);
  const schoolTurmas = useSchoolSettings().data?.turmas ?? [];
  // A teacher filters among their own turmas, the students they see.
  const turmas = user?.role === 'teacher' ? user.admin.turmas : offeredTurmas(schoolTurmas, (turma) => turma.name === grade);
  const gradeFilter = [{ value: '', label: 'Todas as turmas' }, ...turmas.map((turma) => ({ value: turma.name, label: turma.name }))];
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const shown = students.data?.items;
  // After a deletion the row whose Excluir opened the dialog goes: the keyboard resumes at the search, not at the
  // page's start. Once the dialog has closed (and handed focus back to that row) and the list no longer holds the row,
  // whichever comes last.
  // Counted as well: the dialog may have closed already (a double click's second click lands outside it) and the list
  // may hold its new rows already when the deletion's answer comes, and then only the count renders the page again.
  const deletedRow = useRef<string | null>(null);
  const [deletions, setDeletions] = useState(0);
  useEffect(() => {
    if (dialog !== null || deletedRow.current === null || shown?.some((student) => student.id === deletedRow.current)) return;
    deletedRow.current = null;
    searchRef.current?.focus();
  }, [dialog, shown, deletions]);
  const now = useTagExpiryClock(shown);
  const listTop = useRef<HTMLDivElement>(null);

  // From `xl` the content beside the sidebar is wide enough for the table's six columns; below, the students show as cards.
  const wide = useMediaQuery(SCREEN.xl);
  const matching = students.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(matching / PAGE_SIZE));
  const currentPage = students.data?.page ?? page;
  // A page emptied by removals (here or elsewhere) gives way to the last page that still has students (state adjusted
  // while rendering, not in an effect).
  if (students.data && !students.isPlaceholderData && students.data.items.length === 0 && page > pages) setPage(pages);

  // Creating, editing, removing students and their passwords: the coordination, and teachers where the school allows it.
  const manage = hasStaffPermission(user, 'manageStudents');
  const coordination = hasStaffPermission(user, 'manageSchool');
  // Stable, so rows that stay on screen while the search changes are not rendered again.
  const actions = useMemo<StudentActions>(
    () => ({
      onTags: (student) => setDialog({ kind: 'tags', studentUuid: student.id }),
      ...(manage && {
        onEdit: (student: AdminStudent) => setDialog({ kind: 'form', studentUuid: student.id }),
        onResetPassword: (student: AdminStudent) => setDialog({ kind: 'password', student }),
        onDelete: (student: AdminStudent) => setDialog({ kind: 'delete', student }),
      }),
      ...(coordination && { onPersonalData: (student: AdminStudent) => setDialog({ kind: 'personalData', student }) }),
    }),
    [manage, coordination],
  );

  const loadFailed = students.isError;
  useEffect(() => {
    if (loadFailed) toast.error(ADMIN_STUDENT_TEXTS.loadError);
  }, [loadFailed]);

  if (!isStaffUser(user)) return null;

  const byId = (id: string | null) => (id ? (shown?.find((student) => student.id === id) ?? null) : null);
  const goTo = (target: number) => {
    setPage(target);
    listTop.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  };
  const total = students.data?.schoolTotal ?? 0;
  const first = matching === 0 ? 0 : (currentPage - 1) * PAGE_SIZE + 1;
  const last = Math.min(currentPage * PAGE_SIZE, matching);
  const formStudent = dialog?.kind === 'form' ? byId(dialog.studentUuid) : null;
  const tagStudent = dialog?.kind === 'tags' ? byId(dialog.studentUuid) : null;

  const addStudent = manage && (
    <Button icon={<UserPlus aria-hidden="true" className="size-4" />} onClick={() => setDialog({ kind: 'form', studentUuid: null })}>
      Adicionar Aluno
    </Button>
  );

  return (
    <div>
      <PageHeader
        title="Gerenciar Alunos"
        description={
          students.data ? countOf(total, 'estudante cadastrado', 'estudantes cadastrados') : 'Cadastro, fotos, tags e senhas dos estudantes'
        }
        icon={Users}
        actions={addStudent}
      />

      <Card padded={false}>
        <div
          ref={listTop}
          className="flex scroll-mt-24 flex-col gap-3 border-b border-slate-200 p-4 sm:p-5 xl:flex-row xl:flex-wrap xl:items-center"
        >
          <SearchInput
            ref={searchRef}
            className="xl:flex-1"
            label="Buscar por nome, matrícula, email ou turma"
            placeholder="Buscar aluno"
            value={query}
            onChange={(value) => {
              setQuery(value);
              setPage(1);
            }}
          />
          <SelectField
            label="Filtrar por turma"
            hideLabel
            options={gradeFilter}
            value={grade}
            onChange={(event) => {
              setGrade(event.target.value);
              setPage(1);
            }}
            containerClassName="xl:w-56"
            className="h-11"
          />
          {/*
            Whole labels on every screen: the buttons wrap to a new row rather than shrink to a word. On a wide screen
            they have a row of their own: beside the search, five of them squeezed it to its icon.
          */}
          <div className="flex flex-wrap gap-2 xl:basis-full [&>*]:flex-auto xl:[&>*]:flex-none">
            {manage && (
              <button type="button" className={TOOL_BUTTON} onClick={() => setDialog({ kind: 'import' })}>
                <FileUp aria-hidden="true" className="size-4 shrink-0" />
                Importar planilha
              </button>
            )}
            {manage && (
              <button type="button" className={TOOL_BUTTON} onClick={() => setDialog({ kind: 'cards' })}>
                <IdCard aria-hidden="true" className="size-4 shrink-0" />
                Cartões de acesso
              </button>
            )}
            {manage && (
              <button type="button" className={TOOL_BUTTON} onClick={() => setDialog({ kind: 'letters' })}>
                <HeartHandshake aria-hidden="true" className="size-4 shrink-0" />
                Cartas para responsáveis
              </button>
            )}
            <a href={urlOf(routes.adminStudents.export)} download aria-label="Exportar alunos (CSV)" className={TOOL_BUTTON}>
              <Download aria-hidden="true" className="size-4 shrink-0" />
              Exportar alunos
            </a>
            <a href={urlOf(routes.ledger.export)} download aria-label="Exportar operações (CSV)" className={TOOL_BUTTON}>
              <Download aria-hidden="true" className="size-4 shrink-0" />
              Exportar operações
            </a>
          </div>
        </div>

        {students.isPending ? (
          <ListSkeleton />
        ) : loadFailed && !students.data ? (
          <LoadError message={ADMIN_STUDENT_TEXTS.loadError} onRetry={() => void students.refetch()} retrying={students.isFetching} />
        ) : total === 0 ? (
          <EmptyState
            title="Nenhum estudante cadastrado"
            description={
              manage
                ? 'Adicione o primeiro aluno ou importe a lista da secretaria em CSV.'
                : 'Suas turmas ainda não têm estudantes cadastrados.'
            }
            action={addStudent}
          />
        ) : !shown || shown.length === 0 ? (
          <EmptyState title="Nenhum estudante encontrado" description="Tente outro nome, matrícula, email ou turma." />
        ) : (
          <>
            {wide ? (
              <StudentsTable students={shown} now={now} actions={actions} />
            ) : (
              <div className="bg-slate-50 p-3 sm:p-4">
                <StudentCards students={shown} now={now} actions={actions} />
              </div>
            )}
            <nav
              aria-label="Paginação"
              className="flex flex-col items-center gap-3 border-t border-slate-200 px-4 py-3 text-sm text-slate-600 sm:flex-row sm:justify-between sm:px-5"
            >
              <p aria-live="polite">
                Mostrando {formatNumber(first)}–{formatNumber(last)} de {formatNumber(matching)}
                {matching !== total && ` (de ${formatNumber(total)})`}
              </p>
              {pages > 1 && (
                <div className="flex items-center gap-2">
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={currentPage <= 1}
                    onClick={() => goTo(currentPage - 1)}
                    icon={<ChevronLeft aria-hidden="true" className="size-4" />}
                  >
                    Anterior
                  </Button>
                  <span className="px-1 whitespace-nowrap tabular-nums">
                    Página {currentPage} de {pages}
                  </span>
                  <Button variant="secondary" size="sm" disabled={currentPage >= pages} onClick={() => goTo(currentPage + 1)}>
                    Próxima
                    <ChevronRight aria-hidden="true" className="size-4" />
                  </Button>
                </div>
              )}
            </nav>
          </>
        )}
      </Card>

      {dialog?.kind === 'form' && (dialog.studentUuid === null || formStudent) && (
        <StudentFormModal
          key={dialog.studentUuid ?? 'new'}
          student={formStudent}
          onClose={() => setDialog(null)}
          onResetPassword={(student) => setDialog({ kind: 'password', student })}
        />
      )}
      {tagStudent && <TagManagerModal student={tagStudent} now={now} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'password' && <PasswordResetDialog student={dialog.student} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'import' && <ImportWizard onClose={() => setDialog(null)} />}
      {dialog?.kind === 'personalData' && <PersonalDataModal student={dialog.student} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'cards' && <AccessCardsDialog onClose={() => setDialog(null)} />}
      {dialog?.kind === 'letters' && <AccessCardsDialog printout="letters" onClose={() => setDialog(null)} />}
      <ConfirmDialog
        open={dialog?.kind === 'delete'}
        title="Excluir estudante"
        message={
          dialog?.kind === 'delete' && (
            <div className="flex flex-col gap-2">
              <p>
                Tem certeza que deseja excluir <strong>{dialog.student.name}</strong> (matrícula {dialog.student.studentId})?
              </p>
              <p>O aluno não poderá mais entrar e sai das listas e rankings. O histórico de operações é mantido.</p>
            </div>
          )
        }
        confirmLabel="Excluir"
        pending={remove.isPending}
        onCancel={() => setDialog(null)}
        onConfirm={() => {
          if (dialog?.kind !== 'delete') return;
          remove.mutate(dialog.student, {
            onSuccess: (result) => {
              toast.success(result.message);
              deletedRow.current = dialog.student.id;
              setDeletions((count) => count + 1);
              setDialog(null);
            },
            onError: (error) => toastFailure(ADMIN_STUDENT_TEXTS.deleteError, error),
          });
        }}
      />
    </div>
  );
}

export default AdminStudentsPage;
