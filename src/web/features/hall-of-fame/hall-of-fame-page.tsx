import { useState } from 'react';
import { Award, Crown, FileDown, Landmark, Medal, Sparkles, Tag, Target, Trophy, Users, type LucideIcon } from 'lucide-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { routes } from '../../../shared/contract/routes.ts';
import { urlOf, type AnswerOf } from '../../../shared/contract/route.ts';
import {
  HALL_OF_FAME_TEXTS as TEXTS,
  HONOUR_CATEGORY_TITLES,
  honourFigure,
  type HonourCategory,
} from '../../../shared/hall-of-fame-texts.ts';
import { readOf } from '../../lib/query-keys.ts';
import { cn } from '../../lib/cn.ts';
import { formatDate } from '../../lib/format.ts';
import { Avatar } from '../../ui/avatar.tsx';
import { Card } from '../../ui/card.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';

type HallOfFame = AnswerOf<typeof routes.hallOfFame.read>;
type Honour = HallOfFame['categories'][number]['honours'][number];

const CATEGORY_ICONS: Record<HonourCategory, LucideIcon> = { meritus: Trophy, estelecas: Sparkles, tags: Tag, turma: Users, goals: Target };

/** Gold, silver and bronze for the first three places (shared by ties); a plain number after. */
const PLACE_STYLES: Record<number, { icon: LucideIcon; className: string }> = {
  1: { icon: Crown, className: 'bg-amber-400 text-amber-950' },
  2: { icon: Medal, className: 'bg-slate-300 text-slate-900' },
  3: { icon: Award, className: 'bg-orange-300 text-orange-950' },
};

function PlaceBadge({ place }: { place: number }) {
  const style = PLACE_STYLES[place];
  return (
    <span
      className={cn(
        'inline-flex size-9 shrink-0 items-center justify-center rounded-full text-sm font-bold tabular-nums',
        style?.className ?? 'bg-slate-100 text-slate-700',
      )}
    >
      {style ? <style.icon aria-hidden="true" className="size-4" /> : `${place}º`}
      {style && <span className="sr-only">{`${place}º lugar`}</span>}
      {!style && <span className="sr-only"> lugar</span>}
    </span>
  );
}

/** A row without identity ('Estudante 3') gets the initial of 'Estudante', not of its number. */
function avatarName(name: string, anonymous: boolean): string {
  return anonymous ? name.replace(/\s\d+$/, '') : name;
}

function HonourRow({ honour, category }: { honour: Honour; category: HonourCategory }) {
  const student = honour.student;
  const name = student?.name ?? honour.turma ?? '';
  // The turma honoured (a turma's top, the goals) is the row's subject; otherwise the student's turma at the close.
  const detail = category === 'turma' ? honour.turma : category === 'goals' ? null : student?.grade;
  const figure = honourFigure(category, honour.amount);
  return (
    <li
      data-testid="honour"
      className={cn('flex items-center gap-3 px-1 py-2.5', honour.self && '-mx-2 rounded-xl bg-indigo-50 px-3 ring-1 ring-indigo-200')}
    >
      <PlaceBadge place={honour.place} />
      {student ? (
        <Avatar name={avatarName(student.name, student.id === null)} src={student.photo} size="sm" />
      ) : (
        <span aria-hidden="true" className="flex size-10 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-indigo-700">
          <Users className="size-5" />
        </span>
      )}
      <div className="min-w-0 flex-1">
        <p className="text-sm leading-tight font-semibold wrap-anywhere text-slate-900">
          {name}
          {honour.self && (
            <span className="ml-2 rounded-full bg-indigo-600 px-2 py-0.5 text-[0.7rem] font-bold text-white">{TEXTS.you}</span>
          )}
        </p>
        {detail && <p className="text-xs text-slate-600">{detail}</p>}
        {honour.erased && <p className="text-xs text-slate-500">{TEXTS.erased}</p>}
      </div>
      <span className="shrink-0 text-right text-sm font-bold text-slate-900 tabular-nums">{figure}</span>
      {honour.certificate && student && (
        <a
          href={urlOf(routes.hallOfFame.certificate, { params: { id: honour.id } })}
          download
          aria-label={TEXTS.certificateOf(student.name, `${honour.place}º lugar, ${HONOUR_CATEGORY_TITLES[category]}`)}
          title={TEXTS.certificate}
          className={cn(
            'inline-flex size-10 shrink-0 items-center justify-center gap-1.5 rounded-lg border border-slate-300 bg-white text-sm',
            'font-medium text-slate-800 shadow-sm hover:bg-slate-50 sm:w-auto sm:px-3',
          )}
        >
          <FileDown aria-hidden="true" className="size-4" />
          <span className="hidden sm:inline">{TEXTS.certificate}</span>
        </a>
      )}
    </li>
  );
}

function CategoryCard({ category, honours }: { category: HonourCategory; honours: readonly Honour[] }) {
  const Icon = CATEGORY_ICONS[category];
  return (
    <Card
      title={HONOUR_CATEGORY_TITLES[category]}
      action={<Icon aria-hidden="true" className="size-5 text-indigo-600" />}
      aria-label={HONOUR_CATEGORY_TITLES[category]}
      className={category === 'turma' ? 'lg:col-span-2' : undefined}
    >
      {honours.length === 0 ? (
        <p className="py-4 text-center text-sm text-slate-600">{TEXTS.noneInCategory}</p>
      ) : (
        <ol className={cn('divide-y divide-slate-100', category === 'turma' && 'lg:grid lg:grid-cols-2 lg:gap-x-8 lg:divide-y-0')}>
          {honours.map((honour) => (
            <HonourRow key={honour.id} honour={honour} category={category} />
          ))}
        </ol>
      )}
    </Card>
  );
}

function Loading() {
  return (
    <div className="grid gap-4 lg:grid-cols-2" aria-busy="true">
      {[0, 1, 2, 3].map((key) => (
        <Skeleton key={key} className="h-56" />
      ))}
    </div>
  );
}

/** /student/hall-da-fama and /admin/hall-da-fama: the honours of each closed year (decision 035), as the privacy rules show them. */
export default function HallOfFamePage() {
  const [year, setYear] = useState<string | undefined>(undefined);
  // The year shown stays while another one is read.
  const hall = useQuery({ ...readOf(routes.hallOfFame.read, { query: { year } }), placeholderData: keepPreviousData });
  const data = hall.data;
  const shown = data?.year ?? null;
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title={TEXTS.title}
        icon={Landmark}
        description={shown ? `${shown.name} · ${TEXTS.closedOn(formatDate(shown.closedAt))}` : TEXTS.subtitle}
        actions={
          data && data.years.length > 0 ? (
            <SelectField
              label={TEXTS.yearLabel}
              value={shown?.id ?? ''}
              onChange={(event) => setYear(event.target.value)}
              options={data.years.map((option) => ({ value: option.id, label: option.name }))}
              containerClassName="w-full sm:w-60"
            />
          ) : undefined
        }
      />
      {hall.isPending ? (
        <Loading />
      ) : hall.isError ? (
        <Card>
          <LoadError message="Não foi possível carregar o Hall da Fama" onRetry={() => void hall.refetch()} retrying={hall.isFetching} />
        </Card>
      ) : shown === null ? (
        <Card>
          <EmptyState icon={<Landmark className="size-6" />} title={TEXTS.empty} description={TEXTS.emptyHint} />
        </Card>
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          {(data?.categories ?? []).map((entry) => (
            <CategoryCard key={entry.category} category={entry.category} honours={entry.honours} />
          ))}
        </div>
      )}
    </div>
  );
}
