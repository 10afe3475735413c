import { useState, type FormEvent } from 'react';
import { Award, ChevronDown, KeyRound, Medal, ShoppingBag, Sparkles, Trophy, Users } from 'lucide-react';
import type { FamilyChild } from '../../../shared/families.ts';
import { TAG_NAMES } from '../../../shared/constants.ts';
import { formatEstelecas, formatMeritus, formatNumber } from '../../../shared/format.ts';
import { ORDER_STATUS_LABELS } from '../../../shared/store-texts.ts';
import { formatDateTime } from '../../lib/format.ts';
import { isRefusal } from '../../lib/api.ts';
import { Avatar } from '../../ui/avatar.tsx';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { OperationList } from '../../ui/operation-list.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { LetterCodeField } from './letter-code-field.tsx';
import { useAddChild, useChildSummary, useFamilyChildren, useImageConsent } from './family-queries.ts';
import { toast, toastError } from '../../lib/toast.ts';
import { WeeklySummarySwitch } from './weekly-summary-switch.tsx';

/** One figure of a child: a label over a value. */
function Figure({ label, value, icon: Icon }: { label: string; value: string; icon: typeof Medal }) {
  return (
    <div className="flex min-w-0 items-center gap-3 rounded-2xl bg-slate-50 p-3 ring-1 ring-slate-200">
      <span className="flex size-9 shrink-0 items-center justify-center rounded-xl bg-indigo-100 text-indigo-700">
        <Icon aria-hidden="true" className="size-5" />
      </span>
      <div className="min-w-0">
        <p className="text-xs text-slate-600">{label}</p>
        <p className="text-base font-bold wrap-anywhere text-slate-900 tabular-nums">{value}</p>
      </div>
    </div>
  );
}

/** The child's image consent, given (or withdrawn) by the guardian (decision 030, 037). */
function ImageConsent({ child, given }: { child: FamilyChild; given: boolean }) {
  const consent = useImageConsent(child.id);
  return (
    <label className="flex min-h-11 cursor-pointer items-start gap-3 rounded-xl bg-slate-50 p-3 text-sm ring-1 ring-slate-200">
      <input
        type="checkbox"
        className="mt-0.5 size-5 shrink-0 accent-indigo-600"
        checked={consent.isPending ? consent.variables : given}
        disabled={consent.isPending}
        onChange={(event) =>
          consent.mutate(event.target.checked, {
            onSuccess: (result) => toast.success(result.message),
            onError: (error) => toastError(error),
          })
        }
      />
      <span>
        <span className="font-medium text-slate-900">Autorizo mostrar a foto de {child.name} aos colegas</span>
        <span className="mt-0.5 block text-slate-600">
          Sem a autorização, os colegas veem as iniciais. Você e a escola sempre veem a foto.
        </span>
      </span>
    </label>
  );
}

/** What the family area shows of one child: figures, tags, achievements, recent operations and store orders. */
function ChildDetails({ child }: { child: FamilyChild }) {
  const summary = useChildSummary(child.id);
  if (summary.isPending) return <Skeleton className="h-40 rounded-2xl" />;
  if (summary.isError)
    return <LoadError message="Erro ao carregar os dados" onRetry={() => void summary.refetch()} retrying={summary.isFetching} />;
  const { tags, operations, orders, ranking, achievements } = summary.data;
  const earned = achievements.filter((achievement) => achievement.earned);
  return (
    <div className="flex flex-col gap-5">
      {/* One figure a row on a phone: two columns there wrapped the values and left the third alone on its row. */}
      <div className={`grid grid-cols-1 gap-2 ${ranking ? 'sm:grid-cols-3' : 'sm:grid-cols-2'}`}>
        <Figure label="Méritus" value={formatMeritus(summary.data.child.meritus)} icon={Medal} />
        <Figure label="Estelecas" value={formatEstelecas(summary.data.child.estelecas)} icon={Sparkles} />
        {ranking && <Figure label="Posição no ranking" value={`${ranking.position}º de ${formatNumber(ranking.of)}`} icon={Trophy} />}
      </div>
      {(tags.length > 0 || earned.length > 0) && (
        <section aria-label="Tags e conquistas" className="flex flex-wrap gap-2">
          {tags.map((tag) => (
            <Badge key={tag.kind} tone="indigo">
              {TAG_NAMES[tag.kind]}
            </Badge>
          ))}
          {earned.map((achievement) => (
            <Badge key={achievement.name} tone="amber">
              <Award aria-hidden="true" className="mr-1 inline size-3.5" />
              {achievement.name}
            </Badge>
          ))}
        </section>
      )}
      <section aria-labelledby={`ops-${child.id}`} className="flex flex-col gap-2">
        <h3 id={`ops-${child.id}`} className="text-sm font-semibold text-slate-900">
          Operações recentes
        </h3>
        {operations.length === 0 ? (
          <p className="text-sm text-slate-600">Nenhuma operação ainda.</p>
        ) : (
          <OperationList operations={operations} showCurrency label={`Operações recentes de ${child.name}`} />
        )}
      </section>
      {orders.length > 0 && (
        <section aria-labelledby={`orders-${child.id}`} className="flex flex-col gap-2">
          <h3 id={`orders-${child.id}`} className="flex items-center gap-2 text-sm font-semibold text-slate-900">
            <ShoppingBag aria-hidden="true" className="size-4" />
            Pedidos na Loja
          </h3>
          <ul className="divide-y divide-slate-100">
            {orders.map((order) => (
              <li key={order.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                <span className="min-w-0 font-medium wrap-anywhere text-slate-800">{order.itemName}</span>
                <span className="flex items-center gap-2 text-xs text-slate-600">
                  <time dateTime={order.createdAt}>{formatDateTime(order.createdAt)}</time>
                  <Badge tone="slate">{ORDER_STATUS_LABELS[order.status]}</Badge>
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <ImageConsent child={child} given={summary.data.imageConsent} />
    </div>
  );
}

/** A child's card: who they are, and their details (open on a single child; a family of several opens one at a time). */
function ChildCard({ child, open, onToggle }: { child: FamilyChild; open: boolean; onToggle: () => void }) {
  return (
    <Card padded={false} data-testid="family-child">
      <h2>
        <button
          type="button"
          onClick={onToggle}
          aria-expanded={open}
          className="flex min-h-16 w-full items-center gap-3 rounded-2xl p-4 text-left hover:bg-slate-50"
        >
          <Avatar name={child.name} src={child.photo} size="md" />
          <span className="min-w-0 flex-1">
            <span className="block text-base font-semibold wrap-anywhere text-slate-900">{child.name}</span>
            <span className="block text-sm text-slate-600">{child.grade}</span>
          </span>
          <ChevronDown aria-hidden="true" className={`size-5 shrink-0 text-slate-500 transition-transform ${open ? 'rotate-180' : ''}`} />
        </button>
      </h2>
      {open && (
        <div className="border-t border-slate-100 p-4">
          <ChildDetails child={child} />
        </div>
      )}
    </Card>
  );
}

/** 'Adicionar filho': another child's code, from that child's letter. */
function AddChildForm() {
  const add = useAddChild();
  const [code, setCode] = useState('');
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!code.trim()) return;
    add.mutate({ code }, { onSuccess: () => setCode('') });
  };
  const refusal = isRefusal(add.error) ? add.error.message : add.error ? 'Não foi possível adicionar agora. Tente de novo.' : undefined;
  return (
    <Card title="Adicionar outro filho">
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1">
          <LetterCodeField value={code} onChange={(event) => setCode(event.target.value)} error={refusal} />
        </div>
        <Button type="submit" loading={add.isPending} icon={<KeyRound aria-hidden="true" className="size-4" />}>
          Adicionar
        </Button>
      </form>
      {add.isSuccess && (
        <p role="status" className="mt-3 text-sm font-medium text-emerald-800">
          {add.data.name} foi adicionado(a) à sua conta.
        </p>
      )}
    </Card>
  );
}

/** /familia: the guardian's children, phone-first; each child's figures, tags, operations and orders (decision 037). */
export default function FamilyPage() {
  const children = useFamilyChildren();
  const [opened, setOpened] = useState<string | null>(null);
  const list = children.data?.children ?? [];
  const openId = opened ?? (list.length === 1 ? list[0]!.id : null);
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title="Meus filhos" description="Acompanhe os Méritus, as Estelecas e as conquistas de cada um." icon={Users} />
      {children.isPending ? (
        <Skeleton className="h-24 rounded-2xl" />
      ) : children.isError ? (
        <LoadError message="Erro ao carregar seus filhos" onRetry={() => void children.refetch()} retrying={children.isFetching} />
      ) : list.length === 0 ? (
        <EmptyState title="Nenhum estudante na sua conta" description="Use o código da carta da escola para adicionar seu filho." />
      ) : (
        <ul className="flex flex-col gap-3">
          {list.map((child) => (
            <li key={child.id}>
              <ChildCard child={child} open={openId === child.id} onToggle={() => setOpened(openId === child.id ? '' : child.id)} />
            </li>
          ))}
        </ul>
      )}
      <AddChildForm />
      <WeeklySummarySwitch />
    </div>
  );
}
