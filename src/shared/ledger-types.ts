/**
 * Every type of ledger row, once: which way it moves a balance, what it is called in pt-BR,
 * and whether an administrator performs it. Everything else reads it from here: the schemas,
 * the drizzle enum, the screens' labels, signs and colours, the queries' filters. SQL holds the
 * same directions in ledger_type_sign() (a migration), which every SQL query, function and the
 * ledger's CHECK use, and ledger-direction.test.ts holds the two equal.
 * Adding a type: an entry here (it does not compile without its direction and label) and a
 * migration that redefines ledger_type_sign() (no test passes without it).
 */

/** The two balances a student holds, each with its own ledger rows. */
export const CURRENCIES = ['meritus', 'estelecas'] as const;
export type Currency = (typeof CURRENCIES)[number];

/**
 * Which way a row moves a balance: `raises` the recipient's (a row with only to_student_id),
 * `lowers` the sender's (only from_student_id), `moves` from the sender to the recipient (both),
 * `reverses` the row it references (reverses_entry_id): the same amount back, its parties swapped,
 * so its own parties say which way it goes (decision 025).
 */
export type LedgerDirection = 'raises' | 'lowers' | 'moves' | 'reverses';

type LedgerTypeDefinition =
  | { direction: 'raises' | 'lowers' | 'reverses'; label: string; admin: boolean }
  /** A row seen by each of its two students: `received` by the recipient, `sent` by the sender. */
  | { direction: 'moves'; label: string; received: string; sent: string; admin: false };

const DEFINITIONS = {
  transfer: { direction: 'moves', label: 'Transferência', received: 'Transferência recebida', sent: 'Transferência enviada', admin: false },
  admin_add: { direction: 'raises', label: 'Adição', admin: true },
  admin_remove: { direction: 'lowers', label: 'Remoção', admin: true },
  reward: { direction: 'raises', label: 'Recompensa', admin: true },
  penalty: { direction: 'lowers', label: 'Penalidade', admin: true },
  reversal: { direction: 'reverses', label: 'Estorno', admin: false },
  // The Loja's (issue 35, decision 026): a purchase lowers the buyer's balance, a refund (a refused or cancelled order,
  // a turma goal that expired) raises it back, a contribution lowers the contributor's toward a turma goal.
  purchase: { direction: 'lowers', label: 'Compra', admin: false },
  refund: { direction: 'raises', label: 'Devolução', admin: false },
  contribution: { direction: 'lowers', label: 'Contribuição', admin: false },
  // A year's rollover brings a balance to zero (issue 38, decision 031): no removal of the staff's, so the closed year's
  // figures stay what they were.
  year_closing: { direction: 'lowers', label: 'Encerramento do ano letivo', admin: false },
} as const satisfies Record<string, LedgerTypeDefinition>;

type Definitions = typeof DEFINITIONS;
export type LedgerType = keyof Definitions;
/** The types whose definition has `shape`. */
type TypesWith<Shape> = { [T in LedgerType]: Definitions[T] extends Shape ? T : never }[LedgerType];
/** The four operations of POST /api/admin/students/:id/meritus and /estelecas. */
export type AdminOperationType = TypesWith<{ admin: true }>;
type MovingType = TypesWith<{ direction: 'moves' }>;

/** Every type, in the definitions' order (a tuple, as drizzle's and zod's enums take it). */
export const LEDGER_TYPES: readonly [LedgerType, ...LedgerType[]] = Object.keys(DEFINITIONS) as [LedgerType, ...LedgerType[]];
export const ADMIN_OPERATION_TYPES = LEDGER_TYPES.filter((type): type is AdminOperationType => DEFINITIONS[type].admin);
/** The Loja's types: spending (purchases, contributions) and what comes back (refunds); never counted as earned or awarded. */
export const STORE_LEDGER_TYPES = ['purchase', 'refund', 'contribution'] as const satisfies readonly LedgerType[];

/** Whether a row of the type is the Loja's: spent or given back, never an award or a deduction of the staff's. */
export function isStoreType(type: LedgerType): type is (typeof STORE_LEDGER_TYPES)[number] {
  return (STORE_LEDGER_TYPES as readonly LedgerType[]).includes(type);
}

/**
 * Whether a row of the type is an award or a removal of the staff's when it raises or lowers a balance: not the Loja's
 * (spending) nor a year's closing (decision 031). ledger_type_is_award() (ledger.sql) holds the same.
 */
export function isStaffOperationType(type: LedgerType): boolean {
  return !isStoreType(type) && type !== 'year_closing';
}

export function directionOf(type: LedgerType): LedgerDirection {
  return DEFINITIONS[type].direction;
}

/**
 * Which way a row moves a balance: its type's, or for a reversal the one its parties say (a
 * sender alone: it lowers; a recipient alone: it raises; both: it moves).
 */
export function rowDirection(type: LedgerType, parties: { from: unknown; to: unknown }): Exclude<LedgerDirection, 'reverses'> {
  const direction = directionOf(type);
  if (direction !== 'reverses') return direction;
  return parties.from && parties.to ? 'moves' : parties.from ? 'lowers' : 'raises';
}

/** Whether the type raises a balance; the Méritus it raises also count in the student's total earned. */
export function isCredit(type: LedgerType): boolean {
  return directionOf(type) === 'raises';
}

/** Those of `types` that move a balance `direction`, in their order. */
export function typesThat<T extends LedgerType>(types: readonly T[], direction: LedgerDirection): T[] {
  return types.filter((type) => directionOf(type) === direction);
}

export const OPERATION_TYPE_LABELS = Object.fromEntries(LEDGER_TYPES.map((type) => [type, DEFINITIONS[type].label])) as Record<
  LedgerType,
  string
>;

/**
 * A row as one of its students sees it: the type itself, or for a moving type which side the
 * student is on (`transfer_in`, `transfer_out`).
 */
export type OperationKind = `${MovingType}_in` | `${MovingType}_out` | Exclude<LedgerType, MovingType>;

export const OPERATION_KINDS = LEDGER_TYPES.flatMap((type): OperationKind[] =>
  DEFINITIONS[type].direction === 'moves'
    ? [`${type as MovingType}_in`, `${type as MovingType}_out`]
    : [type as Exclude<LedgerType, MovingType>],
);

/** The kind of a row of `type` for the student on its receiving side (`incoming`) or its giving side. */
export function operationKind(type: LedgerType, incoming: boolean): OperationKind {
  if (DEFINITIONS[type].direction !== 'moves') return type as Exclude<LedgerType, MovingType>;
  return incoming ? `${type as MovingType}_in` : `${type as MovingType}_out`;
}

export const OPERATION_KIND_LABELS = Object.fromEntries(
  LEDGER_TYPES.flatMap((type) => {
    const definition: LedgerTypeDefinition = DEFINITIONS[type];
    return definition.direction === 'moves'
      ? [
          [`${type}_in`, definition.received],
          [`${type}_out`, definition.sent],
        ]
      : [[type, definition.label]];
  }),
) as Record<OperationKind, string>;
