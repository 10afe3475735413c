import { useId } from 'react';
import { CircleAlert, Clock, ShoppingCart, Target } from 'lucide-react';
import { STORE_CATEGORY_LABELS, type StudentStoreItem } from '../../../shared/store.ts';
import { cn } from '../../lib/cn.ts';
import { formatAmount } from '../../lib/format.ts';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { ProgressBar } from '../../ui/progress-bar.tsx';
import { ItemImage } from './item-image.tsx';
import { itemState, type Balances } from './store-figures.ts';

export type ItemCardProps = {
  item: StudentStoreItem;
  imageUrl: string | null;
  balances: Balances;
  /** The item is the student's chosen goal (the dashboard's goal card points at it). */
  chosen: boolean;
  onBuy: (item: StudentStoreItem) => void;
  onChoose: (item: StudentStoreItem, chosen: boolean) => void;
  choosing: boolean;
};

/**
 * One item of the catalogue: picture, category, name, description, price, the stock and limit left, and, when the balance
 * is short, the card dimmed with what is missing and how far the balance has come. 'Comprar' asks for confirmation first.
 */
export function ItemCard({ item, imageUrl, balances, chosen, onBuy, onChoose, choosing }: ItemCardProps) {
  const nameId = useId();
  const linesId = useId();
  const missingId = useId();
  const state = itemState(item, balances);
  const dimmed = state.blocked !== null;
  const hasLines = state.stockText !== null || state.limitText !== null;
  const describedBy = [hasLines && linesId, state.missing && missingId].filter(Boolean).join(' ') || undefined;
  return (
    <article
      aria-labelledby={nameId}
      data-testid="store-item"
      className={cn(
        'flex min-w-0 flex-col overflow-hidden rounded-2xl border shadow-sm',
        dimmed ? 'border-slate-200 bg-slate-50' : 'border-slate-200 bg-white',
      )}
    >
      {/* A wide picture above on larger screens; on a phone a small one beside the name, so a screen holds more than one item. */}
      <div className="relative hidden sm:block">
        <ItemImage src={imageUrl} category={item.category} dimmed={dimmed} className="aspect-[16/9] w-full" />
        <Badge tone="indigo" className="absolute top-2.5 left-2.5 bg-white/95">
          {STORE_CATEGORY_LABELS[item.category]}
        </Badge>
      </div>
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="flex min-w-0 gap-3">
          <ItemImage src={imageUrl} category={item.category} dimmed={dimmed} className="size-20 shrink-0 rounded-xl sm:hidden" />
          <div className="min-w-0">
            <Badge tone="indigo" className="mb-1.5 sm:hidden">
              {STORE_CATEGORY_LABELS[item.category]}
            </Badge>
            <h3 id={nameId} className="text-base leading-snug font-semibold wrap-anywhere text-slate-900">
              {item.name}
            </h3>
            {item.description && <p className="mt-1 text-sm wrap-anywhere text-slate-600">{item.description}</p>}
          </div>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-xl font-extrabold tracking-tight text-slate-900 tabular-nums">
            {formatAmount(item.currency, item.price ?? 0)}
          </p>
          {chosen && (
            <Badge tone="emerald" icon={<Target aria-hidden="true" className="size-3.5" />}>
              Minha meta
            </Badge>
          )}
        </div>
        {hasLines && (
          <ul id={linesId} className="flex flex-col gap-1 text-sm font-medium">
            {state.stockText && (
              <li className={cn('flex items-center gap-1.5', state.blocked === 'soldOut' ? 'text-rose-700' : 'text-amber-800')}>
                <CircleAlert aria-hidden="true" className="size-4 shrink-0" />
                {state.stockText}
              </li>
            )}
            {state.limitText && (
              <li className={cn('flex items-center gap-1.5', state.blocked === 'limit' ? 'text-rose-700' : 'text-slate-700')}>
                <Clock aria-hidden="true" className="size-4 shrink-0" />
                {state.limitText}
              </li>
            )}
          </ul>
        )}
        {state.missing && (
          <div>
            <p id={missingId} className="text-sm font-semibold text-slate-800">
              {state.missing.text}
            </p>
            <ProgressBar
              value={state.missing.percent}
              max={100}
              label={`Seu saldo para ${item.name}: ${state.missing.percent}%`}
              tone="amber"
              className="mt-1.5"
            />
          </div>
        )}
        <div className="mt-auto flex items-stretch gap-2 pt-1">
          <Button
            className="flex-1"
            onClick={() => onBuy(item)}
            disabled={state.blocked !== null}
            aria-describedby={describedBy}
            icon={<ShoppingCart aria-hidden="true" className="size-4" />}
          >
            Comprar
          </Button>
          <Button
            variant="secondary"
            loading={choosing}
            onClick={() => onChoose(item, !chosen)}
            icon={<Target aria-hidden="true" className="size-4" />}
            className="shrink-0"
          >
            {chosen ? 'Remover meta' : 'Definir meta'}
          </Button>
        </div>
      </div>
    </article>
  );
}
