import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { guardianStudents } from '../db/schema.ts';

/**
 * The ids of the guardian's children among those named (decision 037): no row, no link. Below the modules, since the
 * photo guard (lgpd) asks it and the families module uses lgpd's image consent.
 */
export async function linkedChildren(db: DbOrTx, guardianId: string, studentUuids: readonly string[]): Promise<string[]> {
  if (studentUuids.length === 0) return [];
  const rows = await db
    .select({ id: guardianStudents.studentUuid })
    .from(guardianStudents)
    .where(and(eq(guardianStudents.guardianId, guardianId), inArray(guardianStudents.studentUuid, [...studentUuids])));
  return rows.map((row) => row.id);
}
