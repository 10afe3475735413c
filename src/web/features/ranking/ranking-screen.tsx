import { useCallback, useEffect, useRef, useState, type Ref, type RefObject } from 'react';
import { Award, Crown, EyeOff, LocateFixed, Medal, Trophy, Users, type LucideIcon } from 'lucide-react';
import { RANKING_PRIVACY_TEXTS } from '../../../shared/ranking-privacy.ts';
import { useSchoolSettings } from '../../lib/school-settings.ts';
import { ChoiceGroup } from '../../ui/choice-group.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { cn } from '../../lib/cn.ts';
import { countOf, formatMeritus } from '../../lib/format.ts';
import { useSession } from '../../lib/session.ts';
import { ApiError } from '../../lib/api.ts';
import { Avatar, BadgedAvatar } from '../../ui/avatar.tsx';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { SCREEN, useMediaQuery } from '../../ui/use-media-query.ts';
import { shareOfTop } from './ranking-figures.ts';
import { useRankingHead, useRankingRows, type RankingAnswer, type RankingFilter, type RankingRow } from './ranking-queries.ts';
import { useWindowRows } from './use-window-rows.ts';

/**
 * Rows are as tall as their longest content: on a phone a long name in three lines over the
 * turma, with room around it; from md up the turma has its own column. Names wrap, never cut.
 */
const ROW_HEIGHT = { phone: 88, wide: 72 } as const;

type Place = { icon: LucideIcon; label: string; medal: string; pedestal: string; ring: string; height: string };

/** Gold, silver and bronze: distinct colours and icons for 1st, 2nd and 3rd. */
const PLACES: Record<1 | 2 | 3, Place> = {
  1: {
    icon: Crown,
    label: '1º lugar',
    medal: 'bg-amber-400 text-amber-950',
    pedestal: 'from-amber-300 to-amber-500',
    ring: 'ring-amber-400',
    height: 'h-24 sm:h-32',
  },
  2: {
    icon: Medal,
    label: '2º lugar',
    medal: 'bg-slate-300 text-slate-900',
    pedestal: 'from-slate-200 to-slate-400',
    ring: 'ring-slate-300',
    height: 'h-16 sm:h-24',
  },
  3: {
    icon: Award,
    label: '3º lugar',
    medal: 'bg-orange-300 text-orange-950',
    pedestal: 'from-orange-200 to-orange-400',
    ring: 'ring-orange-300',
    height: 'h-12 sm:h-16',
  },
};

function placeOf(position: number): Place | null {
  return position === 1 || position === 2 || position === 3 ? PLACES[position] : null;
}

/** A row without identity ('Estudante 12') gets the initial of 'Estudante', not of its number. */
function avatarNameOf(student: RankingRow): string {
  return student.id === null ? student.name.replace(/\s\d+$/, '') : student.name;
}

function Podium({ top, selfId }: { top: readonly RankingRow[]; selfId: string | null }) {
  // 2nd, 1st, 3rd from left to right, like a real podium.
  const order = [top[1], top[0], top[2]].filter((student): student is RankingRow => student !== undefined);
  return (
    <section aria-label="Pódio" className="rounded-3xl bg-gradient-to-b from-indigo-50 to-white p-4 ring-1 ring-indigo-100 sm:p-6">
      <ol className="flex items-end justify-center gap-2 sm:gap-6">
        {order.map((student) => {
          const place = placeOf(student.position) ?? PLACES[3];
          const mine = student.id !== null && student.id === selfId;
          return (
            <li
              key={student.id ?? `podium-${student.position}-${student.name}`}
              className="flex w-1/3 max-w-52 min-w-0 flex-col items-center"
              data-testid="podium-place"
            >
              <span className="sr-only">{`${student.position}º lugar: `}</span>
              <BadgedAvatar
                avatar={
                  <Avatar
                    name={avatarNameOf(student)}
                    src={student.photo}
                    size={student.position === 1 ? 'xl' : 'lg'}
                    className={cn('ring-4', place.ring)}
                  />
                }
                badgeClassName={cn('-top-2 -right-2 size-8 shadow', place.medal)}
                badge={<place.icon className="size-4" />}
              />
              <p className="mt-2 w-full text-center text-xs font-bold wrap-anywhere text-slate-900 sm:text-base">
                {student.name}
                {mine && <span className="ml-1 text-indigo-700">(você)</span>}
              </p>
              {student.grade !== null && <p className="w-full text-center text-xs text-slate-600">{student.grade}</p>}
              <p className="mt-1 text-sm font-extrabold text-slate-900 tabular-nums sm:text-base">{formatMeritus(student.meritus)}</p>
              <div
                aria-hidden="true"
                className={cn(
                  'mt-2 flex w-full items-start justify-center rounded-t-2xl bg-gradient-to-b pt-2 text-2xl font-black text-white/90',
                  place.pedestal,
                  place.height,
                )}
              >
                {student.position}
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

function PositionCell({ position }: { position: number }) {
  const place = placeOf(position);
  if (!place) return <span className="text-sm font-bold text-slate-700 tabular-nums">#{position}</span>;
  return (
    <span className={cn('inline-flex size-9 items-center justify-center rounded-full', place.medal)} title={place.label}>
      <place.icon aria-hidden="true" className="size-4" />
      <span className="sr-only">#{position}</span>
    </span>
  );
}

function Row({
  student,
  share,
  index,
  mine,
  height,
  focusRef,
}: {
  student: RankingRow;
  /** The balance as a share of the highest, 0–100, for the bar. */
  share: number;
  index: number;
  mine: boolean;
  height: number;
  focusRef?: Ref<HTMLTableRowElement> | undefined;
}) {
  return (
    <tr
      ref={focusRef}
      aria-rowindex={index + 2}
      tabIndex={mine ? -1 : undefined}
      data-testid={mine ? 'my-ranking-row' : 'ranking-row'}
      className={cn(
        'border-b border-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-inset',
        mine ? 'bg-indigo-50' : index % 2 ? 'bg-slate-50/50' : 'bg-white',
      )}
      style={{ height }}
    >
      <td className={cn('w-14 pl-3 sm:w-24 sm:pl-5', mine && 'border-l-4 border-indigo-600')}>
        <PositionCell position={student.position} />
      </td>
      <td className="min-w-0 pr-2">
        <div className="flex min-w-0 items-center gap-3">
          <Avatar name={avatarNameOf(student)} src={student.photo} size="sm" />
          <div className="min-w-0">
            <p className="text-sm leading-tight font-semibold wrap-anywhere text-slate-900">
              {student.name}
              {mine && <span className="ml-2 rounded-full bg-indigo-600 px-2 py-0.5 text-[0.7rem] font-bold text-white">Você</span>}
              {student.hidden && (
                <span
                  className={cn(
                    'ml-2 inline-flex items-center gap-1 rounded-full bg-slate-100 px-2 py-0.5',
                    'text-[0.7rem] font-semibold text-slate-700 ring-1 ring-slate-300',
                  )}
                >
                  <EyeOff aria-hidden="true" className="size-3" />
                  {RANKING_PRIVACY_TEXTS.hiddenBadge}
                </span>
              )}
            </p>
            {student.grade !== null && <p className="text-xs leading-tight text-slate-600 md:hidden">{student.grade}</p>}
          </div>
        </div>
      </td>
      <td className="hidden pr-2 text-sm text-slate-700 md:table-cell">{student.grade ?? '—'}</td>
      <td className="w-24 pr-3 text-right sm:w-60 sm:pr-5">
        <div className="flex flex-col items-end gap-1 sm:flex-row sm:items-center sm:justify-end sm:gap-3">
          <span className="text-sm font-bold text-slate-900 tabular-nums">{formatMeritus(student.meritus)}</span>
          <div aria-hidden="true" className="h-1.5 w-20 overflow-hidden rounded-full bg-slate-200 sm:h-2 sm:w-24">
            <div className={cn('h-full rounded-full', mine ? 'bg-indigo-600' : 'bg-amber-500')} style={{ width: `${share}%` }} />
          </div>
        </div>
      </td>
    </tr>
  );
}

/** A row whose page is still being read: as tall as the row it stands for, so nothing moves when it arrives (columns as SpacerRow's). */
function LoadingRow({ index, height }: { index: number; height: number }) {
  return (
    <tr
      aria-rowindex={index + 2}
      aria-busy="true"
      data-testid="ranking-row-loading"
      className="border-b border-slate-100"
      style={{ height }}
    >
      <td colSpan={3} className="px-3 md:hidden">
        <Skeleton className="h-8 w-full" />
      </td>
      <td colSpan={4} className="hidden px-5 md:table-cell">
        <Skeleton className="h-8 w-full" />
      </td>
    </tr>
  );
}

/**
 * A row standing for `rows` rows out of view. Its parent gives it a key per size: Chromium kept the old height of a
 * spacer resized in place after an instant jump, so the page ended early and the last students could not be reached.
 * The grade column shows only from md up, so the spacer spans 3 or 4 columns to match.
 */
function SpacerRow({ rows, rowHeight }: { rows: number; rowHeight: number }) {
  return (
    <tr aria-hidden="true" style={{ height: rows * rowHeight }}>
      <td colSpan={3} className="md:hidden" />
      <td colSpan={4} className="hidden md:table-cell" />
    </tr>
  );
}

function RankingTable({ head, filter, jumpRef }: { head: RankingAnswer; filter: RankingFilter; jumpRef: RefObject<(() => void) | null> }) {
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const myRowRef = useRef<HTMLTableRowElement>(null);
  const rowHeight = useMediaQuery(SCREEN.md) ? ROW_HEIGHT.wide : ROW_HEIGHT.phone;
  const { total, me } = head;
  const { start, end, firstVisible, lastVisible, scrollToRow } = useWindowRows(bodyRef, total, rowHeight);
  const rowAt = useRankingRows(head, filter, start, end);
  const top = head.podium[0]?.meritus ?? 0;
  const selfIndex = me?.index ?? -1;
  // After a jump, focus moves to the student's row as soon as it is rendered.
  const pendingFocus = useRef(false);

  const jump = useCallback(() => {
    if (selfIndex < 0) return;
    scrollToRow(selfIndex);
    if (myRowRef.current) myRowRef.current.focus({ preventScroll: true });
    else pendingFocus.current = true;
  }, [selfIndex, scrollToRow]);

  useEffect(() => {
    jumpRef.current = jump;
    return () => {
      jumpRef.current = null;
    };
  }, [jump, jumpRef]);

  useEffect(() => {
    if (pendingFocus.current && myRowRef.current) {
      pendingFocus.current = false;
      myRowRef.current.focus({ preventScroll: true });
    }
  });

  const selfInView = selfIndex >= firstVisible && selfIndex < lastVisible;
  const indexes = Array.from({ length: end - start }, (_, offset) => start + offset);

  return (
    <>
      <Card padded={false} className="overflow-hidden">
        <table aria-label="Ranking completo" aria-rowcount={total + 1} className="w-full table-fixed border-collapse">
          <RankingHead rowIndex={1} figure={figureHeading(head)} />
          <tbody ref={bodyRef}>
            {start > 0 && <SpacerRow key={`before-${start}-${rowHeight}`} rows={start} rowHeight={rowHeight} />}
            {indexes.map((index) => {
              const student = rowAt(index);
              if (!student) return <LoadingRow key={`loading-${index}`} index={index} height={rowHeight} />;
              const mine = index === selfIndex;
              return (
                <Row
                  key={student.id ?? `row-${index}`}
                  student={student}
                  share={shareOfTop(student.meritus, top)}
                  index={index}
                  mine={mine}
                  height={rowHeight}
                  focusRef={mine ? myRowRef : undefined}
                />
              );
            })}
            {end < total && <SpacerRow key={`after-${end}-${rowHeight}`} rows={total - end} rowHeight={rowHeight} />}
          </tbody>
        </table>
      </Card>
      {me && !selfInView && (
        <div className="pointer-events-none sticky bottom-4 z-10 mt-4 flex justify-center">
          <button
            type="button"
            onClick={jump}
            className={cn(
              'pointer-events-auto flex min-h-11 items-center gap-2 rounded-full bg-indigo-600 px-4 py-2',
              'text-sm font-semibold text-white shadow-lg ring-4 ring-white hover:bg-indigo-700',
            )}
          >
            <LocateFixed aria-hidden="true" className="size-4" />
            Você está em #{me.position} · {formatMeritus(me.meritus)}
            {head.span ? ' ganhos' : ''} — ver
          </button>
        </div>
      )}
    </>
  );
}

/**
 * 'Só vizinhos' (decision 029): the few rows the student sees (the podium, then their own with three above and three
 * below), every one read at once, with a mark where rows were left out.
 */
function NeighboursTable({ head }: { head: RankingAnswer }) {
  const rowHeight = useMediaQuery(SCREEN.md) ? ROW_HEIGHT.wide : ROW_HEIGHT.phone;
  const top = head.podium[0]?.meritus ?? 0;
  const gapAt = head.neighbours?.gapAt ?? null;
  // The turma column shows only from md up: the mark spans 3 or 4 columns to match (as SpacerRow).
  const omitted = (key: string) => (
    <tr key={key} data-testid="ranking-gap" className="border-b border-slate-100 bg-slate-50/70">
      {[
        { span: 3, className: 'md:hidden' },
        { span: 4, className: 'hidden md:table-cell' },
      ].map(({ span, className }) => (
        <td key={span} colSpan={span} className={cn('px-5 py-2 text-center text-sm font-semibold text-slate-600', className)}>
          <span aria-hidden="true">⋯ </span>
          outras posições
        </td>
      ))}
    </tr>
  );
  return (
    <Card padded={false} className="overflow-hidden">
      <table aria-label="Ranking: pódio e sua vizinhança" className="w-full table-fixed border-collapse">
        <RankingHead figure={figureHeading(head)} />
        <tbody>
          {head.entries.flatMap((student, index) => {
            const row = (
              <Row
                key={student.id ?? `row-${index}`}
                student={student}
                share={shareOfTop(student.meritus, top)}
                index={index}
                mine={index === head.me?.index}
                height={rowHeight}
              />
            );
            return index === gapAt ? [omitted('gap'), row] : [row];
          })}
          {head.neighbours?.moreBelow && omitted('below')}
        </tbody>
      </table>
    </Card>
  );
}

/** The figure the rows are placed by: the balance, or what was earned in the span chosen. */
const figureHeading = (head: RankingAnswer) => (head.span ? 'Ganhos' : 'Méritus');
const orderedBy = (head: RankingAnswer) => (head.span ? `pelos Méritus ganhos no ${head.span.label}` : 'por Méritus');

/**
 * The boards a ranking offers (decision 036): today's balance, or the Méritus earned this bimestre or this school year.
 * The balance is the server's default: its board asks without `by`, the one address every screen already reads.
 */
const BOARDS = {
  balance: { label: 'Saldo', filter: {} },
  period: { label: 'Ganhos no bimestre', filter: { by: 'earned', period: 'atual' } },
  year: { label: 'Ganhos no ano letivo', filter: { by: 'earned', year: 'atual' } },
} as const satisfies Record<string, { label: string; filter: Omit<RankingFilter, 'turma'> }>;
type Board = keyof typeof BOARDS;

function BoardChoice({ value, onChange }: { value: Board; onChange: (board: Board) => void }) {
  return (
    <div className="max-w-md">
      <ChoiceGroup
        legend="Ordenar por"
        legendHidden
        variant="segmented"
        options={Object.entries(BOARDS).map(([key, board]) => ({ value: key, label: board.label }))}
        value={value}
        onChange={(chosen) => onChange(chosen as Board)}
      />
    </div>
  );
}

/** Whole school or one turma: a student, their own turma; staff, the turmas they see. */
function TurmaFilter({ value, onChange }: { value: string | undefined; onChange: (turma: string | undefined) => void }) {
  const { user } = useSession();
  const settings = useSchoolSettings().data;
  if (!user || !settings) return null;
  if (user.role === 'student') {
    const own = settings.turmas.find((turma) => turma.name === user.student.grade);
    if (!own) return null;
    return (
      <div className="max-w-sm">
        <ChoiceGroup
          legend="Mostrar"
          legendHidden
          variant="segmented"
          options={[
            { value: 'school', label: 'Escola toda' },
            { value: own.id, label: 'Minha turma' },
          ]}
          value={value ?? 'school'}
          onChange={(chosen) => onChange(chosen === 'school' ? undefined : chosen)}
        />
      </div>
    );
  }
  const turmas = user.role === 'teacher' ? user.admin.turmas : settings.turmas;
  return (
    <SelectField
      label="Turma"
      containerClassName="max-w-xs"
      value={value ?? ''}
      onChange={(event) => onChange(event.target.value || undefined)}
      options={[
        { value: '', label: user.role === 'teacher' ? 'Todas as minhas turmas' : 'Todas as turmas' },
        ...turmas.map((turma) => ({ value: turma.id, label: turma.name })),
      ]}
    />
  );
}

/** Why a board of Méritus earned did not load: the school's calendar may lack this year or bimestre, which the server says. */
function earnedFailure(error: Error | null): string {
  return error instanceof ApiError && error.status === 404 ? error.message : 'Não foi possível carregar o ranking';
}

/**
 * The ranking shared by both areas: podium for the top 3 and the full table by Méritus.
 * With `highlightSelf` (the student area) the signed-in student's row stands out and a
 * control jumps to it.
 */
export function RankingScreen({ highlightSelf }: { highlightSelf: boolean }) {
  const { user } = useSession();
  const selfId = highlightSelf && user?.role === 'student' ? user.student.id : null;
  const [turma, setTurma] = useState<string | undefined>(undefined);
  const [board, setBoard] = useState<Board>('balance');
  const filter: RankingFilter = { turma, ...BOARDS[board].filter };
  const ranking = useRankingHead(selfId !== null, filter);
  const head = ranking.data;
  const jumpRef = useRef<(() => void) | null>(null);
  const me = head?.me ?? undefined;

  return (
    <div>
      <PageHeader
        title="Top Ranking"
        description={
          head
            ? `${countOf(head.ranked, 'estudante ordenado', 'estudantes ordenados')} ${orderedBy(head)}`
            : 'Estudantes ordenados por Méritus'
        }
        icon={Trophy}
        actions={
          me &&
          head?.mode !== 'neighbours' && (
            <Button variant="secondary" onClick={() => jumpRef.current?.()} icon={<LocateFixed aria-hidden="true" className="size-4" />}>
              Ir para minha posição (#{me.position})
            </Button>
          )
        }
      />
      <div className="mb-4 flex flex-col gap-3 lg:flex-row lg:items-end">
        <BoardChoice value={board} onChange={setBoard} />
        <TurmaFilter value={turma} onChange={setTurma} />
      </div>
      {ranking.isPending ? (
        <div className="flex flex-col gap-6" aria-hidden="true" data-testid="ranking-loading">
          <Skeleton className="h-64 w-full rounded-3xl" />
          <Skeleton className="h-96 w-full rounded-2xl" />
        </div>
      ) : ranking.isError ? (
        <Card>
          <LoadError
            message={board === 'balance' ? 'Não foi possível carregar o ranking' : earnedFailure(ranking.error)}
            onRetry={() => void ranking.refetch()}
            retrying={ranking.isFetching}
          />
        </Card>
      ) : !head || head.total === 0 ? (
        <Card>
          <EmptyState icon={<Users className="size-6" />} title="Nenhum estudante no ranking ainda" />
        </Card>
      ) : (
        <div className="flex flex-col gap-6">
          <Podium top={head.podium} selfId={selfId} />
          {head.mode === 'neighbours' ? <NeighboursTable head={head} /> : <RankingTable head={head} filter={filter} jumpRef={jumpRef} />}
        </div>
      )}
    </div>
  );
}

/** The ranking table's head, the same in the whole ranking and in 'Só vizinhos'. */
function RankingHead({ rowIndex, figure }: { rowIndex?: number; figure: string }) {
  return (
    <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
      <tr aria-rowindex={rowIndex} className="h-11 border-b border-slate-200">
        <th scope="col" className="w-14 pl-3 sm:w-24 sm:pl-5">
          <span aria-hidden="true" className="sm:hidden">
            #
          </span>
          <span className="sr-only sm:not-sr-only">Posição</span>
        </th>
        <th scope="col">Estudante</th>
        <th scope="col" className="hidden md:table-cell">
          Turma
        </th>
        <th scope="col" className="w-28 pr-3 text-right sm:w-60 sm:pr-5">
          {figure}
        </th>
      </tr>
    </thead>
  );
}
