import type { StudentSummary } from '../../../shared/student-area.ts';
import { CHANGE_WINDOW_DAYS } from '../../../shared/constants.ts';
import { countOf, formatAmount, formatMeritus, plural } from '../../../shared/format.ts';
import { formatSignedAmount } from '../../lib/format.ts';
import { goalPercent, IN_CHANGE_WINDOW, netChangeText, type ChangeText } from '../../../shared/student-figures.ts';

/** The four stat cards' change lines, every one computed from the summary. */
export function summaryChanges(summary: StudentSummary): { meritus: ChangeText; earned: ChangeText; rank: ChangeText; goal: ChangeText } {
  const { meritusNet, earned } = summary.recent;
  const moved = summary.rank.positionBefore - summary.rank.position;
  return {
    meritus: netChangeText('meritus', meritusNet),
    earned:
      earned === 0
        ? { direction: 'flat', text: `Nenhum ganho ${IN_CHANGE_WINDOW}` }
        : { direction: 'up', text: `${formatSignedAmount('meritus', earned)} ganhos ${IN_CHANGE_WINDOW}` },
    rank:
      moved === 0
        ? { direction: 'flat', text: `Mesma posição há ${CHANGE_WINDOW_DAYS} dias` }
        : moved > 0
          ? { direction: 'up', text: `Subiu ${countOf(moved, 'posição', 'posições')} ${IN_CHANGE_WINDOW}` }
          : { direction: 'down', text: `Caiu ${countOf(-moved, 'posição', 'posições')} ${IN_CHANGE_WINDOW}` },
    goal: goalCard(summary).change,
  };
}

/**
 * The goal card: the item of the Loja the student chose ('Meta: Fone de ouvido', '62%' of its price in its currency), or
 * the school's Méritus goal when none is chosen.
 */
export function goalCard(summary: StudentSummary): { label: string; percent: number; change: ChangeText } {
  const item = summary.storeGoal;
  if (item) {
    const balance = summary[item.currency];
    const remaining = Math.max(0, item.price - balance);
    return {
      label: `Meta: ${item.name}`,
      percent: goalPercent(balance, item.price),
      change:
        remaining === 0
          ? { direction: 'up', text: 'Você já pode comprar!' }
          : {
              direction: 'flat',
              text: `${plural(remaining, 'Falta', 'Faltam')} ${formatAmount(item.currency, remaining)} de ${formatAmount(item.currency, item.price)}`,
            },
    };
  }
  return {
    label: 'Meta de Méritus',
    percent: summary.goal.percent,
    change:
      summary.goal.remaining === 0
        ? { direction: 'up', text: `Meta de ${formatMeritus(summary.goal.target)} alcançada!` }
        : {
            direction: 'flat',
            text: `${plural(summary.goal.remaining, 'Falta', 'Faltam')} ${formatMeritus(summary.goal.remaining)} de ${formatMeritus(summary.goal.target)}`,
          },
  };
}
