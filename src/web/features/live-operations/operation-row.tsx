import type { LiveOperation, OperationCategory, PartyView } from '../../../shared/ledger.ts';
import { formatAmount, formatDateTime, formatRelativeTime } from '../../lib/format.ts';
import { cn } from '../../lib/cn.ts';
import { Badge } from '../../ui/badge.tsx';
import type { Tone } from '../../ui/tone.ts';
import { ReversalAction } from '../../ui/reversal-action.tsx';
import { ReversedNote } from '../../ui/reversed-note.tsx';
import { OPERATION_TYPE_LABELS, rowDirection } from '../../../shared/ledger-types.ts';
import { receiptCode } from '../../../shared/receipt-code.ts';

/** The Tipo filter's words: the award form's types (Adição, Recompensa; Remoção, Penalidade), grouped as they move a balance. */
export const CATEGORY_LABELS: Record<OperationCategory, string> = {
  award: 'Adição e Recompensa',
  deduction: 'Remoção e Penalidade',
  student_transfer: 'Transferência',
  reversal: 'Estorno',
  store: 'Loja',
};

export const OPERATOR_LABELS: Record<LiveOperation['operator'], string> = {
  admin: 'Admin',
  student: 'Aluno',
  system: 'Sistema',
};

const STATUS: Record<LiveOperation['status'], { label: string; dot: string }> = {
  completed: { label: 'Concluída', dot: 'bg-emerald-500' },
  pending: { label: 'Pendente', dot: 'bg-amber-400' },
  failed: { label: 'Falhou', dot: 'bg-rose-500' },
};

const CATEGORY_TONES: Record<OperationCategory, Tone> = {
  award: 'emerald',
  deduction: 'rose',
  student_transfer: 'sky',
  reversal: 'amber',
  store: 'violet',
};

/** "+50 M$", "-10 M$", "30 M$" for transfers (a reversal by its parties), in Estelecas for Estelecas operations; "—" when no valid amount was sent. */
export function formatOperationAmount(operation: Pick<LiveOperation, 'amount' | 'currency' | 'type' | 'from' | 'to'>): string {
  if (operation.amount === null) return '—';
  const direction = rowDirection(operation.type, operation);
  const sign = direction === 'raises' ? '+' : direction === 'lowers' ? '-' : '';
  return `${sign}${formatAmount(operation.currency, operation.amount)}`;
}

/** A row's badge: a staff operation by the word of the form that made it (Adição, Recompensa, Remoção, Penalidade), others by category. */
export function categoryBadge(operation: Pick<LiveOperation, 'category' | 'type'>): string {
  return operation.category === 'award' || operation.category === 'deduction'
    ? OPERATION_TYPE_LABELS[operation.type]
    : CATEGORY_LABELS[operation.category];
}

function Party({ label, party }: { label: 'De' | 'Para'; party: PartyView | null }) {
  return (
    <span className="min-w-0">
      <span className="text-slate-600">{label}: </span>
      {party ? (
        <span className="font-semibold text-slate-900">
          {party.name} <span className="font-normal text-slate-600">({party.studentId})</span>
          {party.removed && <span className="font-normal text-slate-600"> — removido</span>}
        </span>
      ) : (
        <span className="text-slate-600">—</span>
      )}
    </span>
  );
}

export function OperationRow({ operation, now, fresh }: { operation: LiveOperation; now: Date; fresh: boolean }) {
  const status = STATUS[operation.status];
  return (
    <li
      data-testid="live-operation"
      className={cn('flex gap-3 px-4 py-3 transition-colors duration-1000 sm:px-5', fresh ? 'bg-indigo-50' : 'bg-white')}
    >
      <span className="mt-1.5 flex shrink-0" title={status.label}>
        <span aria-hidden="true" className={cn('size-2.5 rounded-full', status.dot, operation.status === 'pending' && 'animate-pulse')} />
        <span className="sr-only">{status.label}</span>
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-1.5">
          <Badge tone={CATEGORY_TONES[operation.category]}>{categoryBadge(operation)}</Badge>
          <Badge tone="slate">{OPERATOR_LABELS[operation.operator]}</Badge>
          {operation.currency === 'estelecas' && <Badge tone="violet">Estelecas</Badge>}
          <span className="min-w-0 basis-full text-sm wrap-anywhere text-slate-800 sm:basis-auto sm:flex-1">
            {operation.description || <span className="text-slate-600">Sem descrição</span>}
          </span>
        </div>
        <p className="mt-1 flex flex-col gap-x-4 gap-y-0.5 text-sm sm:flex-row sm:flex-wrap">
          {(operation.from || operation.category === 'deduction' || operation.category === 'student_transfer') && (
            <Party label="De" party={operation.from} />
          )}
          {(operation.to || operation.category === 'award' || operation.category === 'student_transfer') && (
            <Party label="Para" party={operation.to} />
          )}
          <span className="text-xs text-slate-600 sm:self-center">
            {operation.operator === 'admin' ? `por ${operation.actorName}` : operation.actorName}
          </span>
          {operation.category === 'student_transfer' && operation.status === 'completed' && (
            // The code on the student's Comprovante, so the staff find the transfer a student shows them.
            <span className="text-xs text-slate-600 sm:self-center" data-testid="operation-code">
              Código <span className="font-mono font-semibold tracking-wide text-slate-800">{receiptCode(operation.id)}</span>
            </span>
          )}
        </p>
        {operation.status === 'failed' && operation.reason && (
          <p className="mt-0.5 text-sm font-medium text-rose-700">Recusada: {operation.reason}</p>
        )}
        <ReversedNote reversal={operation.reversedBy} />
      </div>
      <div className="flex shrink-0 flex-col items-end gap-0.5 text-right">
        <span
          className={cn(
            'text-sm font-bold whitespace-nowrap tabular-nums sm:text-base',
            operation.status === 'failed' || operation.reversedBy
              ? 'text-slate-500 line-through'
              : operation.category === 'award'
                ? 'text-emerald-700'
                : operation.category === 'deduction'
                  ? 'text-rose-700'
                  : operation.category === 'store'
                    ? 'text-violet-700'
                    : 'text-sky-700',
          )}
        >
          {formatOperationAmount(operation)}
        </span>
        <time
          dateTime={operation.createdAt}
          title={formatDateTime(operation.createdAt)}
          className="text-xs whitespace-nowrap text-slate-600"
        >
          {formatRelativeTime(operation.createdAt, now)}
        </time>
        {operation.status === 'completed' && (
          <ReversalAction
            row={operation}
            now={now}
            summary={`${operation.description || categoryBadge(operation)} (${formatOperationAmount(operation)})`}
          />
        )}
      </div>
    </li>
  );
}
