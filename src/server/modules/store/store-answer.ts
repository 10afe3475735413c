import { z } from 'zod';
import type { PreparedStatement } from '../../db/client.ts';
import { storeOrder } from '../../../shared/store.ts';
import { LIMIT_PERIODS } from '../../../shared/store.ts';

/** store.sql's functions, each called with its one jsonb argument. */
export const STORE_PURCHASE: PreparedStatement = { name: 'store_purchase', text: 'SELECT store_purchase($1::jsonb) AS answer' };
export const STORE_REFUND: PreparedStatement = { name: 'store_refund', text: 'SELECT store_refund($1::jsonb) AS answer' };

/** Why store.sql refused a purchase or a refund (its header says when each comes). */
export const storeRefusal = z.enum([
  'student_missing',
  'item_missing',
  'is_goal',
  'unavailable',
  'sold_out',
  'limit_reached',
  'insufficient',
  'order_missing',
  'not_pending',
]);
export type StoreRefusal = z.infer<typeof storeRefusal>;

/** What a completed purchase or refund answers: the order, its ledger row, the student's turma and balances after it. */
const storeWrite = z.object({
  order: storeOrder,
  entryId: z.uuid(),
  turmaId: z.uuid(),
  balances: z.object({ meritus: z.number().int(), totalEarned: z.number().int(), estelecas: z.number().int() }),
});
export type StoreWrite = z.infer<typeof storeWrite>;

/** store_purchase()'s and store_refund()'s answer, read with the shared schemas: the service never takes the database's word for a shape. */
export const storeAnswer = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.enum(['completed', 'replayed']), status: z.number().int(), body: storeWrite }),
  z.object({
    outcome: z.literal('refused'),
    reason: storeRefusal,
    details: z.object({ limit: z.number().int(), period: z.enum(LIMIT_PERIODS) }).nullable(),
  }),
  z.object({ outcome: z.literal('conflict') }),
]);
export type StoreAnswer = z.infer<typeof storeAnswer>;
