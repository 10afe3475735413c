import type { StudentOperation } from '../../../shared/ledger.ts';
import { formatDate } from '../../../shared/format.ts';

export type DayGroup = { key: string; label: string; operations: StudentOperation[] };

/** Operations (newest first) grouped by calendar day in Brasília time: "Hoje", "Ontem", then the date. */
export function groupByDay(operations: readonly StudentOperation[], now: Date = new Date()): DayGroup[] {
  const today = formatDate(now);
  const yesterday = formatDate(new Date(now.getTime() - 86_400_000));
  const groups: DayGroup[] = [];
  for (const operation of operations) {
    const key = formatDate(operation.createdAt);
    let group = groups.at(-1);
    if (group?.key !== key) {
      group = { key, label: key === today ? 'Hoje' : key === yesterday ? 'Ontem' : key, operations: [] };
      groups.push(group);
    }
    group.operations.push(operation);
  }
  return groups;
}
