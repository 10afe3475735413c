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

/**
 * ledger_type_spending() (ledger.sql) in a query: 1 for a row the Loja spends (a purchase, a contribution), -1 for one
 * it gives back (a refund), 0 for every other type (decision 026). `sign * spending * amount` is what a row adds to
 * what was spent.
 */
export function spendingSign(type: SQLWrapper): SQL {
  return sql`ledger_type_spending(${type})`;
}

/**
 * Whether a ledger type is an award (`raises`) or a removal (`lowers`) of the staff's: the Loja's rows raise or lower a
 * balance too, but count as spending, never here.
 */
export function awardIs(type: SQLWrapper, direction: 'raises' | 'lowers'): SQL {
  return sql`ledger_type_is_award(${type}, ${sql.raw(String(DIRECTION_SIGNS[direction]))})`;
}
