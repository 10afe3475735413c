import { and, eq, exists, isNotNull, ne, not, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { storeItems, storeItemTurmas, students, studentStoreGoals } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import type { StudentStoreGoal } from '../../../shared/student-area.ts';

/** An item a student may take as their goal: active, with a price (not a turma goal). */
const goalWorthy = and(eq(storeItems.active, true), ne(storeItems.category, 'turma'), isNotNull(storeItems.price));

const goalColumns = { itemId: storeItems.id, name: storeItems.name, price: storeItems.price, currency: storeItems.currency };

function toGoal(
  row: { itemId: string; name: string; price: number | null; currency: 'meritus' | 'estelecas' } | undefined,
): StudentStoreGoal {
  return row && row.price !== null ? { itemId: row.itemId, name: row.name, price: row.price, currency: row.currency } : null;
}

/** The item the student chose as their goal, while it is still one (active, with a price); else null. */
export async function storeGoalOf(db: Db, studentUuid: string): Promise<StudentStoreGoal> {
  const [row] = await db
    .select(goalColumns)
    .from(studentStoreGoals)
    .innerJoin(storeItems, eq(storeItems.id, studentStoreGoals.itemId))
    .where(and(eq(studentStoreGoals.studentUuid, studentUuid), goalWorthy));
  return toGoal(row);
}

/**
 * Chooses an item of the Loja as the student's goal (null: none, back to the school's Méritus goal). Only an item the
 * student may buy: active, with a price, and open to every turma or to theirs; any other id is 'Item não encontrado na
 * loja', so an id tells nothing of items the student cannot see.
 */
export async function setStoreGoal(db: Db, studentUuid: string, itemId: string | null): Promise<StudentStoreGoal> {
  if (itemId === null) {
    await db.delete(studentStoreGoals).where(eq(studentStoreGoals.studentUuid, studentUuid));
    return null;
  }
  const turmaOpen = or(
    not(exists(db.select({ one: storeItemTurmas.itemId }).from(storeItemTurmas).where(eq(storeItemTurmas.itemId, storeItems.id)))),
    exists(
      db
        .select({ one: storeItemTurmas.itemId })
        .from(storeItemTurmas)
        .innerJoin(students, eq(students.turmaId, storeItemTurmas.turmaId))
        .where(and(eq(storeItemTurmas.itemId, storeItems.id), eq(students.id, studentUuid))),
    ),
  );
  const [item] = await db
    .select(goalColumns)
    .from(storeItems)
    .where(and(eq(storeItems.id, itemId), goalWorthy, turmaOpen));
  const goal = toGoal(item);
  if (!goal) throw new AppError('store_item_not_found');
  await db
    .insert(studentStoreGoals)
    .values({ studentUuid, itemId })
    .onConflictDoUpdate({ target: studentStoreGoals.studentUuid, set: { itemId, createdAt: new Date() } });
  return goal;
}
