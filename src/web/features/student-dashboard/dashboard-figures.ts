import type { StudentSummary } from '../../../shared/student-area.ts';
import { CHANGE_WINDOW_DAYS } from '../../../shared/constants.ts';
import { countOf, formatMeritus, plural } from '../../../shared/format.ts';
import { formatSignedAmount } from '../../lib/format.ts';
import { IN_CHANGE_WINDOW, netChangeText, type ChangeText } from '../../../shared/student-figures.ts';

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
    goal:
      summary.goal.remaining === 0
        ? { direction: 'up', text: `Meta de ${formatMeritus(summary.goal.target)} alcançada!` }
        : {
            direction: 'flat',
            text: `${plural(summary.goal.remaining, 'Falta', 'Faltam')} ${formatMeritus(summary.goal.remaining)} de ${formatMeritus(summary.goal.target)}`,
          },
  };
}
