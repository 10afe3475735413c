import { ArrowDownLeft, ArrowUpRight, HandCoins, Minus, Plus, ReceiptText, ShoppingBag, Undo2, type LucideIcon } from 'lucide-react';
import type { StudentOperation } from '../../shared/ledger.ts';
import { directionOf, OPERATION_KIND_LABELS, type LedgerType } from '../../shared/ledger-types.ts';
import { formatDateTime } from '../../shared/format.ts';
import { formatSignedAmount } from '../lib/format.ts';
import { cn } from '../lib/cn.ts';
import { ReversedNote } from './reversed-note.tsx';
import { Link } from 'react-router';
import { receiptPath } from '../lib/paths.ts';
import { receiptCode } from '../../shared/receipt-code.ts';

/** The Loja's rows (issue 35): their own mark and who was on the other side. */
const STORE_KINDS: Partial<Record<LedgerType, { icon: LucideIcon; counterpart: string; tone: string }>> = {
  purchase: { icon: ShoppingBag, counterpart: 'na Loja', tone: 'bg-violet-100 text-violet-700' },
  refund: { icon: Undo2, counterpart: 'da Loja', tone: 'bg-emerald-100 text-emerald-700' },
  contribution: { icon: HandCoins, counterpart: 'para a meta da turma', tone: 'bg-violet-100 text-violet-700' },
};

/**
 * The spec's marks: arrows for transfers (in or out), a plus for what raised the student's
 * balance (additions, rewards, a reversed deduction), a minus for what lowered it (removals, penalties, a reversed award);
 * the Loja's rows their own (a bag for a purchase, a return arrow for a refund, coins in a hand for a contribution).
 */
function KindIcon({ operation }: { operation: StudentOperation }) {
  const credit = operation.signedAmount > 0;
  const store = STORE_KINDS[operation.type];
  const Icon = store?.icon ?? (directionOf(operation.type) === 'moves' ? (credit ? ArrowDownLeft : ArrowUpRight) : credit ? Plus : Minus);
  return (
    <span
      aria-hidden="true"
      className={cn(
        'flex size-10 shrink-0 items-center justify-center rounded-xl',
        store?.tone ?? (credit ? 'bg-emerald-100 text-emerald-700' : 'bg-rose-100 text-rose-700'),
      )}
    >
      <Icon className="size-5" strokeWidth={2.5} />
    </span>
  );
}

/** Who was on the other side: the classmate of a transfer, the Loja, or the teacher of an operation. */
export function counterpartText(operation: StudentOperation): string {
  const store = STORE_KINDS[operation.type];
  if (store) return store.counterpart;
  if (directionOf(operation.type) === 'moves') {
    const who = operation.counterpart
      ? `${operation.counterpart.name}${operation.counterpart.removed ? ' (removido)' : ''}`
      : 'estudante removido';
    return `${operation.signedAmount > 0 ? 'de' : 'para'} ${who}`;
  }
  return `por ${operation.actorName}`;
}

/** A transfer's Comprovante, reopened from any list of the student's operations. */
function ReceiptLink({ entryId }: { entryId: string }) {
  const code = receiptCode(entryId);
  return (
    <Link
      to={receiptPath(code)}
      aria-label={`Comprovante ${code}`}
      className="-my-1 inline-flex min-h-8 items-center gap-1 rounded-lg px-1.5 text-xs font-semibold text-indigo-700 hover:bg-indigo-50 hover:underline"
    >
      <ReceiptText aria-hidden="true" className="size-3.5" />
      Comprovante
    </Link>
  );
}

export function OperationRow({ operation, showCurrency = false }: { operation: StudentOperation; showCurrency?: boolean }) {
  const positive = operation.signedAmount > 0;
  return (
    <li className="flex items-center gap-3 py-3">
      <KindIcon operation={operation} />
      <div className="min-w-0 flex-1">
        <p className="text-sm font-semibold wrap-anywhere text-slate-900">{operation.description}</p>
        <p className="mt-0.5 text-xs wrap-anywhere text-slate-600">
          <span className="font-medium text-slate-700">{OPERATION_KIND_LABELS[operation.kind]}</span> · {counterpartText(operation)}
          <span className="hidden sm:inline">
            {' · '}
            <time dateTime={operation.createdAt}>{formatDateTime(operation.createdAt)}</time>
          </span>
        </p>
        <p className="text-xs text-slate-600 sm:hidden">
          <time dateTime={operation.createdAt}>{formatDateTime(operation.createdAt)}</time>
        </p>
        <ReversedNote reversal={operation.reversedBy} />
      </div>
      <div className="flex shrink-0 flex-col items-end gap-1">
        <span className={cn('text-sm font-bold tabular-nums sm:text-base', positive ? 'text-emerald-700' : 'text-rose-700')}>
          {formatSignedAmount(operation.currency, operation.signedAmount)}
        </span>
        {showCurrency && (
          <span
            className={cn(
              'rounded-full px-2 py-0.5 text-[0.7rem] font-semibold',
              operation.currency === 'meritus' ? 'bg-amber-50 text-amber-900' : 'bg-emerald-50 text-emerald-900',
            )}
          >
            {operation.currency === 'meritus' ? 'Méritus' : 'Estelecas'}
          </span>
        )}
        {directionOf(operation.type) === 'moves' && <ReceiptLink entryId={operation.id} />}
      </div>
    </li>
  );
}

/** A student's operations, newest first, as the dashboard, Estelecas and history screens list them. */
export function OperationList({
  operations,
  showCurrency = false,
  label,
}: {
  operations: readonly StudentOperation[];
  showCurrency?: boolean;
  /** Accessible name of the list. */
  label: string;
}) {
  return (
    <ul aria-label={label} className="divide-y divide-slate-100">
      {operations.map((operation) => (
        <OperationRow key={operation.id} operation={operation} showCurrency={showCurrency} />
      ))}
    </ul>
  );
}
