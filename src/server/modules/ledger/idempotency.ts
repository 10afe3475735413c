import { createHash } from 'node:crypto';
import { lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { idempotencyKeys } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import { IDEMPOTENCY_HEADER, idempotencyHeaders } from '../../../shared/ledger.ts';
import { issueCode } from '../../../shared/validation.ts';

/** Whose key it is, the Idempotency-Key header as sent (anything), and the request it came with. */
export type IdempotencyScope = { actorKey: string; key: unknown; request: unknown };
/** A key's row: whose it is, the key, and a fingerprint of the request it was first sent with. */
export type IdempotencyRecord = { actorKey: string; key: string; requestHash: string };
export type Stored<T> = { status: number; body: T; replayed: boolean };

/**
 * The row a request's key is kept in (by ledger.sql, with the response), or undefined when
 * the request has no key; a malformed key (or several) is a 400.
 */
export function idempotencyRecord(scope: IdempotencyScope): IdempotencyRecord | undefined {
  if (scope.key === undefined) return undefined;
  const key = idempotencyHeaders.shape[IDEMPOTENCY_HEADER].safeParse(scope.key);
  if (!key.success || key.data === undefined)
    throw new AppError(key.error ? issueCode(key.error.issues[0]!) : 'validation', { status: 400 });
  return {
    actorKey: scope.actorKey,
    key: key.data,
    requestHash: createHash('sha256').update(JSON.stringify(scope.request)).digest('hex'),
  };
}

/** Keys older than a day are no longer needed for retries. */
export async function sweepIdempotencyKeys(db: Db): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, new Date(Date.now() - 24 * 60 * 60 * 1000)));
}
