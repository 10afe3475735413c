import type { ReactNode } from 'react';
import { Minus, TrendingDown, TrendingUp } from 'lucide-react';
import { CHANGE_WINDOW_DAYS } from '../../shared/constants.ts';
import type { Currency } from '../../shared/ledger.ts';
import { cn } from '../lib/cn.ts';
import { formatSignedAmount } from '../lib/format.ts';

export type ChangeDirection = 'up' | 'down' | 'flat';

export function directionOf(value: number): ChangeDirection {
  return value > 0 ? 'up' : value < 0 ? 'down' : 'flat';
}

export type ChangeText = { direction: ChangeDirection; text: string };

/** The window every change line speaks of: "em 7 dias". */
export const IN_CHANGE_WINDOW = `em ${CHANGE_WINDOW_DAYS} dias`;

/**
 * A balance's change over the window. Zero is 'Sem variação', not 'no movement': a transfer out and an award of the
 * same amount leave the balance where it was.
 */
export function netChangeText(currency: Currency, net: number): ChangeText {
  if (net === 0) return { direction: 'flat', text: `Sem variação ${IN_CHANGE_WINDOW}` };
  return { direction: directionOf(net), text: `${formatSignedAmount(currency, net)} ${IN_CHANGE_WINDOW}` };
}

/**
 * The line under a figure saying what changed, e.g. "+120 M$ nos últimos 7 dias": green when
 * it moved the way that is good for this figure (`better`: up by default, down for what is
 * lost, e.g. Méritus removed), red the other way, grey when no direction is better.
 */
export function ChangeLine({ direction, better = 'up', children }: { direction: ChangeDirection; better?: 'up' | 'down' | null; children: ReactNode }) {
  const Icon = direction === 'up' ? TrendingUp : direction === 'down' ? TrendingDown : Minus;
  const tone = direction === 'flat' || better === null ? 'text-slate-600' : direction === better ? 'text-emerald-700' : 'text-rose-700';
  return (
    <span className={cn('inline-flex items-center gap-1 font-medium', tone)}>
      <Icon aria-hidden="true" className="size-3.5 shrink-0" />
      <span>{children}</span>
    </span>
  );
}
