import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import type { Currency } from '../../../shared/ledger-types.ts';
import { contributionInput, STORE_LOW_STOCK, STORE_TEXTS, type StudentStoreItem } from '../../../shared/store.ts';
import { goalPercent } from '../../../shared/student-figures.ts';
import { issueMessage, parseAmountText } from '../../../shared/validation.ts';

export type Balances = Record<Currency, number>;

/**
 * What an item's card says and allows, from the item as the server listed it and the student's balances: the stock and
 * limit lines, and why it cannot be bought now (sold out, limit reached, balance short: then what is missing and how far
 * the balance has come, for the dimmed card's bar).
 */
export type ItemState = {
  stockText: string | null;
  limitText: string | null;
  blocked: 'soldOut' | 'limit' | 'short' | null;
  /** Short of the price: what is missing, and the balance's share of the price (0–100, rounded down). */
  missing: { amount: number; text: string; percent: number } | null;
};

export function itemState(item: StudentStoreItem, balances: Balances): ItemState {
  const price = item.price ?? 0;
  const balance = balances[item.currency];
  const soldOut = item.stockLeft !== null && item.stockLeft <= 0;
  const limitReached = item.limit !== null && item.limitLeft !== null && item.limitLeft <= 0;
  const stockText = soldOut
    ? STORE_TEXTS.soldOut
    : item.stockLeft !== null && item.stockLeft <= STORE_LOW_STOCK
      ? STORE_TEXTS.lowStock(item.stockLeft)
      : null;
  const limitText =
    item.limit === null || item.limitLeft === null
      ? null
      : limitReached
        ? STORE_TEXTS.limitReached(item.limit.count, item.limit.period)
        : STORE_TEXTS.limitLeft(item.limitLeft, item.limit.period);
  const short = balance < price;
  return {
    stockText,
    limitText,
    blocked: soldOut ? 'soldOut' : limitReached ? 'limit' : short ? 'short' : null,
    missing: short
      ? { amount: price - balance, text: STORE_TEXTS.missing(price - balance, item.currency), percent: goalPercent(balance, price) }
      : null,
  };
}

/** A turma goal's progress: what was raised of it (0–100, rounded down, 100 only once reached) and what is left. */
export function goalProgress(item: Pick<StudentStoreItem, 'goal' | 'raised'>): { percent: number; left: number; reached: boolean } {
  const goal = item.goal ?? 0;
  const raised = item.raised ?? 0;
  return { percent: goalPercent(raised, goal), left: Math.max(0, goal - raised), reached: goal > 0 && raised >= goal };
}

/**
 * Checks a contribution's amount with the server's schema, then as the transfer form checks its own: missing, not a whole
 * number above zero, more than the balance, then more than the goal still needs. Returns the amount, or the message to show.
 */
export function checkContribution(
  text: string,
  balance: number,
  left: number,
): { ok: true; amount: number } | { ok: false; message: string } {
  const parsed = contributionInput.safeParse({ amount: parseAmountText(text) });
  if (!parsed.success) return { ok: false, message: issueMessage(parsed.error.issues[0] ?? {}) };
  const { amount } = parsed.data;
  if (amount > balance) return { ok: false, message: ERROR_MESSAGES.insufficient_balance };
  if (amount > left) return { ok: false, message: ERROR_MESSAGES.store_goal_exceeds };
  return { ok: true, amount };
}

/** What the amount field says as soon as the typed amount passes the balance, or what the goal still needs. */
export function overLimit(text: string, balance: number, left: number): string | undefined {
  const amount = parseAmountText(text);
  if (amount === undefined || !Number.isFinite(amount)) return undefined;
  if (amount > balance) return ERROR_MESSAGES.insufficient_balance;
  return amount > left ? ERROR_MESSAGES.store_goal_exceeds : undefined;
}

/** A calendar day of the school ('2026-12-15') as pt-BR writes it ('15/12/2026'), with no time zone to shift it. */
export function calendarDayText(day: string): string {
  const [year, month, date] = day.split('-');
  return `${date}/${month}/${year}`;
}
