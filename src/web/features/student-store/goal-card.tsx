import { useId } from 'react';
import { CalendarClock, HandCoins, PartyPopper } from 'lucide-react';
import { STORE_TEXTS, type StudentStoreItem } from '../../../shared/store.ts';
import { formatAmount } from '../../lib/format.ts';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { ProgressBar } from '../../ui/progress-bar.tsx';
import { ItemImage } from './item-image.tsx';
import { calendarDayText, goalProgress } from './store-figures.ts';

/** A turma goal: what the turma raised of it, the student's own contribution, the deadline, and 'Contribuir'. */
export function GoalCard({
  item,
  imageUrl,
  onContribute,
}: {
  item: StudentStoreItem;
  imageUrl: string | null;
  onContribute: (item: StudentStoreItem) => void;
}) {
  const nameId = useId();
  const progress = goalProgress(item);
  return (
    <article
      aria-labelledby={nameId}
      data-testid="store-goal"
      className="flex min-w-0 flex-col overflow-hidden rounded-2xl border border-violet-200 bg-white shadow-sm sm:flex-row"
    >
      <ItemImage src={imageUrl} category={item.category} className="hidden w-48 shrink-0 sm:flex" />
      <div className="flex min-w-0 flex-1 flex-col gap-3 p-4">
        <div className="flex min-w-0 gap-3">
          <ItemImage src={imageUrl} category={item.category} className="size-20 shrink-0 rounded-xl sm:hidden" />
          <div className="min-w-0">
            <div className="mb-1.5 flex flex-wrap items-center gap-2">
              <Badge tone="violet">Meta da turma</Badge>
              {progress.reached && (
                <Badge tone="emerald" icon={<PartyPopper aria-hidden="true" className="size-3.5" />}>
                  {STORE_TEXTS.goalReached}
                </Badge>
              )}
            </div>
            <h3 id={nameId} className="text-base leading-snug font-semibold wrap-anywhere text-slate-900">
              {item.name}
            </h3>
            {item.description && <p className="mt-1 text-sm wrap-anywhere text-slate-600">{item.description}</p>}
          </div>
        </div>
        <div>
          <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 text-sm">
            <span className="font-semibold text-slate-900 tabular-nums">
              {formatAmount(item.currency, item.raised ?? 0)} de {formatAmount(item.currency, item.goal ?? 0)}
            </span>
            <span className="font-bold text-violet-700 tabular-nums">{progress.percent}%</span>
          </div>
          <ProgressBar
            value={progress.percent}
            max={100}
            label={`Progresso da meta ${item.name}: ${progress.percent}%`}
            tone="violet"
            className="mt-1.5"
          />
        </div>
        <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-2">
          <div className="flex gap-1.5">
            <dt className="text-slate-600">Sua contribuição:</dt>
            <dd className="font-semibold text-slate-900 tabular-nums">{formatAmount(item.currency, item.myContribution ?? 0)}</dd>
          </div>
          {item.deadline && (
            <div className="flex items-center gap-1.5">
              <dt className="flex items-center gap-1.5 text-slate-600">
                <CalendarClock aria-hidden="true" className="size-4 shrink-0" />
                Prazo:
              </dt>
              <dd className="font-semibold text-slate-900">até {calendarDayText(item.deadline)}</dd>
            </div>
          )}
        </dl>
        {!progress.reached && (
          <div className="mt-auto pt-1">
            <Button
              onClick={() => onContribute(item)}
              icon={<HandCoins aria-hidden="true" className="size-4" />}
              className="w-full sm:w-auto"
            >
              Contribuir
            </Button>
          </div>
        )}
      </div>
    </article>
  );
}
