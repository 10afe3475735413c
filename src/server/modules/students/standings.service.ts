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
