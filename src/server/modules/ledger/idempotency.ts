import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { idempotencyKeys } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import { IDEMPOTENCY_KEY_PATTERN } from '../../../shared/ledger.ts';

export type IdempotencyScope = { actorKey: string; key: string | undefined; request: unknown };
/** A key's row: whose it is, the key, and a fingerprint of the request it was first sent with. */
export type IdempotencyRecord = { actorKey: string; key: string; requestHash: string };
export type Stored<T> = { status: number; body: T; replayed: boolean };

/** The row a request's key is kept in, or undefined when the request has no key; a malformed key is a 400 (routes refuse it first, by their header schema). */
export function idempotencyRecord(scope: IdempotencyScope): IdempotencyRecord | undefined {
  if (scope.key === undefined) return undefined;
  if (!IDEMPOTENCY_KEY_PATTERN.test(scope.key)) throw new AppError('validation');
  return {
    actorKey: scope.actorKey,
    key: scope.key,
    requestHash: createHash('sha256').update(JSON.stringify(scope.request)).digest('hex'),
  };
}

/**
 * Runs `work` in one transaction together with the record of its Idempotency-Key.
 * The key row is inserted first: a concurrent request with the same key blocks on
 * the unique index until the first commits, then finds its stored response. If the
 * work fails, the transaction (and so the key) is rolled back and a retry runs anew.
 * (Student transfers keep their keys inside the database's ledger_transfer(), decision 006.)
 */
export async function withIdempotency<T>(
  db: Db,
  scope: IdempotencyScope,
  status: number,
  work: (tx: Tx) => Promise<T>,
): Promise<Stored<T>> {
  const record = idempotencyRecord(scope);
  return db.transaction(async (tx) => {
    if (!record) return { status, body: await work(tx), replayed: false };
    const ownRow = and(eq(idempotencyKeys.actorKey, record.actorKey), eq(idempotencyKeys.key, record.key));
    const inserted = await tx
      .insert(idempotencyKeys)
      .values({ ...record, statusCode: 0, response: {} })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length === 0) {
      const [existing] = await tx.select().from(idempotencyKeys).where(ownRow);
      if (!existing) throw new AppError('idempotency_in_progress');
      if (existing.requestHash !== record.requestHash) throw new AppError('idempotency_conflict');
      return { status: existing.statusCode, body: existing.response as T, replayed: true };
    }
    const body = await work(tx);
    await tx
      .update(idempotencyKeys)
      .set({ statusCode: status, response: body as object })
      .where(ownRow);
    return { status, body, replayed: false };
  });
}

/** Keys older than a day are no longer needed for retries. */
export async function sweepIdempotencyKeys(db: Db): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, new Date(Date.now() - 24 * 60 * 60 * 1000)));
}
