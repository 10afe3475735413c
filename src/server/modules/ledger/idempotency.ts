import { createHash } from 'node:crypto';
import { and, eq, lt, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { idempotencyKeys } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';

export type IdempotencyScope = { actorKey: string; key: string | undefined; request: unknown };

/**
 * Lets the work store its response in its own last statement (one round trip fewer on
 * the hot path). Returns undefined when the request has no key; if the work never calls
 * it, the response is stored after the work.
 */
export type ResponseStore = (body: unknown) => SQL | undefined;
export type Stored<T> = { status: number; body: T; replayed: boolean };

const KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;

export function requestHash(request: unknown): string {
  return createHash('sha256').update(JSON.stringify(request)).digest('hex');
}

export function assertValidKey(key: string | undefined): void {
  if (key !== undefined && !KEY_PATTERN.test(key)) throw new AppError('validation');
}

/**
 * Runs `work` in one transaction together with the record of its Idempotency-Key.
 * The key row is inserted first: a concurrent request with the same key blocks on
 * the unique index until the first commits, then finds its stored response. If the
 * work fails, the transaction (and so the key) is rolled back and a retry runs anew.
 */
export async function withIdempotency<T>(
  db: Db,
  scope: IdempotencyScope,
  status: number,
  work: (tx: Tx, storeResponse: ResponseStore) => Promise<T>,
): Promise<Stored<T>> {
  assertValidKey(scope.key);
  const hash = requestHash(scope.request);
  return db.transaction(async (tx) => {
    if (scope.key === undefined) return { status, body: await work(tx, () => undefined), replayed: false };
    const key = scope.key;
    const inserted = await tx
      .insert(idempotencyKeys)
      .values({ actorKey: scope.actorKey, key: scope.key, requestHash: hash, statusCode: 0, response: {} })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length === 0) {
      const [existing] = await tx
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.actorKey, scope.actorKey), eq(idempotencyKeys.key, scope.key)));
      if (!existing) throw new AppError('idempotency_in_progress');
      if (existing.requestHash !== hash) throw new AppError('idempotency_conflict');
      return { status: existing.statusCode, body: existing.response as T, replayed: true };
    }
    let stored = false;
    const body = await work(tx, (response) => {
      stored = true;
      return sql`UPDATE ${idempotencyKeys} SET status_code = ${status}, response = ${JSON.stringify(response)}::jsonb
        WHERE actor_key = ${scope.actorKey} AND key = ${key}`;
    });
    if (!stored) {
      await tx
        .update(idempotencyKeys)
        .set({ statusCode: status, response: body as object })
        .where(and(eq(idempotencyKeys.actorKey, scope.actorKey), eq(idempotencyKeys.key, key)));
    }
    return { status, body, replayed: false };
  });
}

/** Keys older than a day are no longer needed for retries. */
export async function sweepIdempotencyKeys(db: Db): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, new Date(Date.now() - 24 * 60 * 60 * 1000)));
}
