import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useSearchParams } from 'react-router';
import { CircleCheck, History, ReceiptText, Share2 } from 'lucide-react';
import { toast } from 'react-hot-toast';
import { routes } from '../../../shared/contract/routes.ts';
import type { ReceiptParty, TransferReceipt } from '../../../shared/ledger.ts';
import { formatAmount } from '../../lib/format.ts';
import { isRefusal } from '../../lib/api.ts';
import { paths } from '../../lib/paths.ts';
import { readOf } from '../../lib/query-keys.ts';
import { receiptRows, shareReceipt } from '../../lib/receipt-image.ts';
import { useSchoolSettings } from '../../lib/school-settings.ts';
import { Avatar } from '../../ui/avatar.tsx';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { ReversedNote } from '../../ui/reversed-note.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';

const LINK_CLASS = [
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-xl border border-slate-300 bg-white px-4',
  'text-sm font-semibold text-slate-800 shadow-sm hover:bg-slate-50',
].join(' ');

function Party({ label, party }: { label: string; party: ReceiptParty | null }) {
  return (
    <div className="flex items-center gap-3 py-3">
      {party ? <Avatar name={party.name} src={party.photo} size="md" /> : null}
      <div className="min-w-0 flex-1">
        <p className="text-xs font-medium text-slate-600">{label}</p>
        {party ? (
          <>
            <p className="font-semibold wrap-anywhere text-slate-900">{party.name}</p>
            <p className="text-xs text-slate-600">
              {party.grade} · Matrícula {party.studentId}
            </p>
          </>
        ) : (
          <p className="text-slate-600">Estudante removido</p>
        )}
      </div>
    </div>
  );
}

function Receipt({ receipt, justSent }: { receipt: TransferReceipt; justSent: boolean }) {
  const schoolName = useSchoolSettings().data?.school.name ?? 'Méritus';
  const [sharing, setSharing] = useState(false);
  // Date, time, note and code as the image writes them; the parties are shown above with their photos.
  const facts = receiptRows(receipt).filter(([label]) => label !== 'De' && label !== 'Para');
  const share = async () => {
    setSharing(true);
    try {
      const outcome = await shareReceipt(receipt, schoolName);
      if (outcome === 'downloaded') toast.success('Comprovante baixado como imagem');
    } catch {
      toast.error('Não foi possível gerar a imagem do comprovante');
    } finally {
      setSharing(false);
    }
  };
  return (
    <Card className="mx-auto w-full max-w-lg" aria-label="Comprovante" data-testid="receipt">
      {justSent && (
        <p className="mb-4 flex items-center gap-2 rounded-xl bg-emerald-50 p-3 text-sm font-semibold text-emerald-800 ring-1 ring-emerald-200">
          <CircleCheck aria-hidden="true" className="size-5 shrink-0" />
          Transferência realizada
        </p>
      )}
      <p className="text-sm text-slate-600">
        {receipt.sent ? 'Você enviou' : 'Você recebeu'} {receipt.currency === 'meritus' ? 'Méritus' : 'Estelecas'}
      </p>
      <p className="mt-1 text-4xl font-bold tracking-tight text-indigo-900 tabular-nums">
        {formatAmount(receipt.currency, receipt.amount)}
      </p>
      <ReversedNote reversal={receipt.reversedBy} />
      <div className="mt-3 divide-y divide-slate-100 border-y border-slate-100">
        <Party label="De" party={receipt.from} />
        <Party label="Para" party={receipt.to} />
      </div>
      <dl className="divide-y divide-slate-100">
        {facts.map(([label, value]) => (
          <div key={label} className="flex items-baseline justify-between gap-4 py-2.5">
            <dt className="text-sm text-slate-600">{label}</dt>
            <dd
              className="text-right text-sm font-semibold wrap-anywhere text-slate-900"
              data-testid={label === 'Código' ? 'receipt-code' : undefined}
            >
              {label === 'Código' ? <span className="font-mono tracking-wider">{value}</span> : value}
            </dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-xs text-slate-600">A coordenação encontra esta transferência pelo código.</p>
      <div className="mt-5 flex flex-col gap-2">
        <Button
          onClick={() => void share()}
          loading={sharing}
          icon={<Share2 aria-hidden="true" className="size-4" />}
          className="sm:flex-1"
        >
          Compartilhar comprovante
        </Button>
        <Link to={paths.student.recentOperations} className={LINK_CLASS}>
          <History aria-hidden="true" className="size-4" />
          Ver histórico
        </Link>
      </div>
    </Card>
  );
}

/** /student/comprovante?codigo=…: a transfer's Comprovante, right after it is sent or reopened from the history. */
export default function StudentReceiptPage() {
  const [params] = useSearchParams();
  const code = params.get('codigo') ?? '';
  const justSent = (useLocation().state as { justSent?: boolean } | null)?.justSent === true;
  const receipt = useQuery({ ...readOf(routes.ledger.myReceipt, { params: { code } }), enabled: code !== '', staleTime: Infinity });

  return (
    <div>
      <PageHeader title="Comprovante" description="Os dados da transferência" icon={ReceiptText} />
      {code === '' || isRefusal(receipt.error) ? (
        <Card className="mx-auto w-full max-w-lg">
          <EmptyState
            icon={<ReceiptText className="size-6" />}
            title="Comprovante não encontrado"
            description="Abra o comprovante pelo seu histórico de operações."
          />
        </Card>
      ) : receipt.isError ? (
        <Card className="mx-auto w-full max-w-lg">
          <LoadError
            message="Não foi possível carregar o comprovante"
            onRetry={() => void receipt.refetch()}
            retrying={receipt.isFetching}
          />
        </Card>
      ) : receipt.data ? (
        <Receipt receipt={receipt.data} justSent={justSent} />
      ) : (
        <Skeleton className="mx-auto h-[30rem] w-full max-w-lg rounded-2xl" />
      )}
    </div>
  );
}
