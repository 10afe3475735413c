import { CHANGE_WINDOW_DAYS, ESTELECAS_ACHIEVEMENTS, MERITUS_GOAL, type TagKind } from './constants.ts';
import { formatSignedAmount } from './format.ts';
import type { Currency } from './ledger-types.ts';

/**
 * Competition ranking ("1, 2, 2, 4") for a list already sorted by value, highest first: a position is one more than the
 * number of values strictly higher, so ties share a position.
 */
export function competitionPositions(sortedDescending: readonly number[]): number[] {
  const positions: number[] = [];
  sortedDescending.forEach((value, index) => {
    const previous = sortedDescending[index - 1];
    positions.push(index > 0 && previous === value ? positions[index - 1]! : index + 1);
  });
  return positions;
}

/**
 * Share of the Méritus goal reached, as a whole percentage 0–100. Rounded down, so
 * 100% appears only once the goal is really reached.
 */
export function goalPercent(value: number, goal: number = MERITUS_GOAL): number {
  if (goal <= 0) return 0;
  return Math.min(100, Math.max(0, Math.floor((value * 100) / goal)));
}

/** M$ still missing to reach the goal; 0 once reached. */
export function goalRemaining(value: number, goal: number = MERITUS_GOAL): number {
  return Math.max(0, goal - value);
}

/**
 * The spec's de-duplication of the active tags list: tags newest first, and only
 * the newest holder of each tag kind is kept.
 */
export function latestTagPerKind<T extends { kind: TagKind; assignedAt: string }>(tags: readonly T[]): T[] {
  const newestFirst = [...tags].sort((a, b) => b.assignedAt.localeCompare(a.assignedAt));
  const seen = new Set<TagKind>();
  return newestFirst.filter((tag) => {
    if (seen.has(tag.kind)) return false;
    seen.add(tag.kind);
    return true;
  });
}

export type Achievement = { threshold: number; name: string; earned: boolean; missing: number };

/**
 * Achievements are earned once the Estelecas balance has reached the threshold at
 * some point (the peak), so spending Estelecas never takes a badge away. `missing`
 * is what the current balance still lacks for an achievement not yet earned.
 */
export function estelecasAchievements(
  peak: number,
  balance: number,
  achievements: readonly { threshold: number; name: string }[] = ESTELECAS_ACHIEVEMENTS,
): Achievement[] {
  return achievements.map(({ threshold, name }) => {
    const earned = peak >= threshold;
    return { threshold, name, earned, missing: earned ? 0 : Math.max(0, threshold - balance) };
  });
}

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
