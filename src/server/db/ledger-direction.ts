import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { LedgerDirection } from '../../shared/ledger-types.ts';

/**
 * ledger_type_sign() (migrations 0015, 0017) answers each type's direction (src/shared/ledger-types.ts)
 * as a number: 1 raises the recipient's balance, -1 lowers the sender's, 0 moves an amount from
 * the sender to the recipient, 2 reverses the row it references; NULL for a text that is no ledger
 * type. Sums read a reversal through the view ledger_counted (decision 025), never by its sign.
 */
export const DIRECTION_SIGNS = { raises: 1, lowers: -1, moves: 0, reverses: 2 } as const satisfies Record<LedgerDirection, number>;

/** The type's sign (DIRECTION_SIGNS) in a query: `sign * amount` is what a row adds to the balances' sum. */
export function typeSign(type: SQLWrapper): SQL {
  return sql`ledger_type_sign(${type})`;
}

/** Whether a ledger type (a column or an expression) moves a balance `direction`. */
export function directionIs(type: SQLWrapper, direction: LedgerDirection): SQL {
  return sql`(${typeSign(type)} = ${sql.raw(String(DIRECTION_SIGNS[direction]))})`;
}
