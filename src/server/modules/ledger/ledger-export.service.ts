import type { Db } from '../../db/client.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { toCsv } from '../../csv.ts';
import { LEDGER_CSV_HEADERS } from '../../../shared/admin-students.ts';
import { OPERATION_TYPE_LABELS } from '../../../shared/ledger-types.ts';
import { CURRENCY_LABELS, reversedNote } from '../../../shared/ledger-texts.ts';
import { dayIn, formatDateTime } from '../../../shared/format.ts';
import { everyEntryNewestFirst, reversalNoteOf, type EntryWithParties } from './ledger-queries.service.ts';
import { auditActor, turmaScopeOf, type AdminActor } from '../auth/actor.ts';

/** Rows of the ledger export read at a time (exported for the test that crosses a page). */
export const EXPORT_PAGE = 5000;

function partyName(party: EntryWithParties['from']): string | null {
  if (!party?.name) return null;
  return party.deletedAt ? `${party.name} (removido)` : party.name;
}

/**
 * The whole ledger (a teacher's: the rows of their turmas' students), newest first, as CSV chunks read a page at a time. Removed students
 * appear as "Nome (removido)". Times are written in the school's time zone. The export itself is audited.
 */
export async function exportLedgerCsv(
  db: Db,
  admin: AdminActor,
  context: { ip?: string | undefined; timeZone: string },
): Promise<{ fileName: string; chunks: AsyncIterable<string> }> {
  await recordAudit(db, { actor: auditActor(admin), action: 'ledger.export', ip: context.ip });
  async function* chunks(): AsyncIterable<string> {
    yield toCsv(LEDGER_CSV_HEADERS, []);
    for await (const page of everyEntryNewestFirst(db, EXPORT_PAGE, turmaScopeOf(admin))) {
      yield toCsv(
        [],
        page.map(({ entry, from, to, reversal }) => {
          const note = reversalNoteOf(reversal);
          return [
            formatDateTime(entry.createdAt, context.timeZone),
            CURRENCY_LABELS[entry.currency],
            OPERATION_TYPE_LABELS[entry.type],
            entry.amount,
            entry.description,
            from?.studentId ?? null,
            partyName(from),
            to?.studentId ?? null,
            partyName(to),
            entry.actorName,
            note ? reversedNote(note, context.timeZone) : entry.reversalReason && `Motivo: ${entry.reversalReason}`,
          ];
        }),
        { bom: false },
      );
    }
  }
  return { fileName: `operacoes-${dayIn(context.timeZone, new Date())}.csv`, chunks: chunks() };
}
