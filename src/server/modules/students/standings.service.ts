import { and, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { students } from '../../db/schema.ts';
import type { StudentBalances } from '../../../shared/live-events.ts';

/** Some current students' balances now, as a 'balance' event carries them to their screens. */
export function currentBalances(db: Db, studentUuids: string[]): Promise<(StudentBalances & { id: string })[]> {
  return db
    .select({ id: students.id, meritus: students.meritus, totalEarned: students.totalEarned, estelecas: students.estelecas })
    .from(students)
    .where(and(inArray(students.id, studentUuids), isNull(students.deletedAt)));
}

/** The turma of each of these students (removed ones too: the live feed still names them). */
export async function turmasOf(db: Db, studentUuids: string[]): Promise<Map<string, string>> {
  if (studentUuids.length === 0) return new Map();
  const rows = await db.select({ id: students.id, turmaId: students.turmaId }).from(students).where(inArray(students.id, studentUuids));
  return new Map(rows.map((row) => [row.id, row.turmaId]));
}
