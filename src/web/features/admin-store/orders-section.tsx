import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { CheckCheck, ChevronLeft, ChevronRight, FileDown, PackageCheck, X } from 'lucide-react';
import { ORDER_STATUS_LABELS, ORDER_STATUSES, STORE_ENTRY_TEXTS, type AdminOrder, type OrderStatus } from '../../../shared/store.ts';
import { countOf, formatAmount, formatDateTime, formatNumber } from '../../lib/format.ts';
import { offeredTurmas, useSchoolSettings } from '../../lib/school-settings.ts';
import { useSession } from '../../lib/session.ts';
import { STUDENT_SEARCH_DELAY_MS } from '../../lib/student-search.ts';
import { toast, toastError } from '../../lib/toast.ts';
import { useDebounced } from '../../lib/use-debounced.ts';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { SearchInput } from '../../ui/search-input.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { TextField } from '../../ui/text-field.tsx';
import type { Tone } from '../../ui/tone.ts';
import { buyerText, PickListDialog, RefuseDialog } from './order-dialogs.tsx';
import { ORDERS_PAGE_SIZE, ordersFilterOf, ordersQueryOf, writeOrdersFilter, type OrdersFilter } from './orders-filter.ts';
import { useAdminOrders, useAdminStoreItems, useDeliverMany, useDeliverOrder } from './store-queries.ts';

const STATUS_TONES: Record<OrderStatus, Tone> = { pending: 'amber', delivered: 'emerald', refused: 'rose', cancelled: 'slate' };

type Dialog = { kind: 'refuse'; order: AdminOrder } | { kind: 'deliverAll'; count: number } | { kind: 'pickList' };

/** The filters in the address: a change shows at once and resets the page (and the selection, which belongs to a page). */
function useOrdersFilter() {
  const [params, setParams] = useSearchParams();
  const filter = ordersFilterOf(params);
  const update = (change: Partial<OrdersFilter>) =>
    setParams((current) => writeOrdersFilter(current, { ...ordersFilterOf(current), page: 1, ...change }), { replace: true });
  return { filter, update };
}

function OrderRow({
  order,
  selected,
  onSelect,
  onDeliver,
  onRefuse,
  delivering,
}: {
  order: AdminOrder;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  onDeliver: () => void;
  onRefuse: () => void;
  delivering: boolean;
}) {
  const pending = order.status === 'pending';
  const who = order.student ? order.student.name : buyerText(order);
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:gap-4 sm:px-5">
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <span className="flex size-6 shrink-0 items-center justify-center pt-0.5">
          {pending && (
            <input
              type="checkbox"
              aria-label={`Selecionar pedido de ${who}: ${order.itemName}`}
              checked={selected}
              onChange={(event) => onSelect(event.target.checked)}
              className="size-4 accent-indigo-600"
            />
          )}
        </span>
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <p className="font-semibold wrap-anywhere text-slate-900">{order.itemName}</p>
            <Badge tone={STATUS_TONES[order.status]}>{ORDER_STATUS_LABELS[order.status]}</Badge>
          </div>
          <p className="text-sm wrap-anywhere text-slate-700">
            {order.student ? (
              <>
                {order.student.name} · <span className="whitespace-nowrap">Matrícula {order.student.studentId}</span> ·{' '}
                <span className="whitespace-nowrap">{order.student.turma}</span>
              </>
            ) : (
              buyerText(order)
            )}
          </p>
          <p className="text-sm text-slate-600">
            <span className="font-semibold text-slate-800 tabular-nums">{formatAmount(order.currency, order.price)}</span> · Pedido em{' '}
            {formatDateTime(order.createdAt)}
            {order.decidedAt && (
              <>
                {' '}
                · {ORDER_STATUS_LABELS[order.status]} em {formatDateTime(order.decidedAt)}
                {order.decidedBy && ` por ${order.decidedBy}`}
              </>
            )}
          </p>
          {order.reason && <p className="text-sm wrap-anywhere text-rose-800">Motivo: {order.reason}</p>}
        </div>
      </div>
      {pending && (
        <div className="flex gap-2 pl-9 sm:pl-0 [&>*]:flex-1 sm:[&>*]:flex-none">
          <Button
            variant="success"
            size="sm"
            icon={<PackageCheck aria-hidden="true" className="size-4" />}
            loading={delivering}
            blocksDoubleClick
            aria-label={`Entregar pedido de ${who}: ${order.itemName}`}
            onClick={onDeliver}
          >
            Entregar
          </Button>
          <Button
            variant="secondary"
            size="sm"
            icon={<X aria-hidden="true" className="size-4" />}
            aria-label={`Recusar pedido de ${who}: ${order.itemName}`}
            onClick={onRefuse}
          >
            Recusar
          </Button>
        </div>
      )}
    </li>
  );
}

/** Pedidos: the queue, filtered in the address; deliver one, the selected or every pending order of the filter; refuse with a reason. */
export function OrdersSection() {
  const { user } = useSession();
  const { filter, update } = useOrdersFilter();
  const [search, setSearch] = useState(filter.q);
  const q = useDebounced(search.trim(), STUDENT_SEARCH_DELAY_MS);
  // The search goes into the address when the typing pauses (and back to the first page).
  useEffect(() => {
    if (q !== filter.q) update({ q });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new search writes the address
  }, [q]);
  const query = ordersQueryOf(filter, filter.q);
  const orders = useAdminOrders({ ...query, page: filter.page, pageSize: ORDERS_PAGE_SIZE });
  const items = useAdminStoreItems();
  const schoolTurmas = useSchoolSettings().data?.turmas ?? [];
  // A teacher filters among their own turmas, the students whose orders they see.
  const turmas = user?.role === 'teacher' ? user.admin.turmas : offeredTurmas(schoolTurmas, (turma) => turma.id === filter.turma);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const deliver = useDeliverOrder();
  const deliverMany = useDeliverMany();

  const shown = orders.data?.items ?? [];
  const pendingShown = shown.filter((order) => order.status === 'pending');
  // Only what is on screen and still pending stays selected.
  const chosen = pendingShown.filter((order) => selected.has(order.id)).map((order) => order.id);
  const total = orders.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / ORDERS_PAGE_SIZE));
  const first = total === 0 ? 0 : (filter.page - 1) * ORDERS_PAGE_SIZE + 1;
  const last = Math.min(filter.page * ORDERS_PAGE_SIZE, total);
  const filterShowsPending = filter.status === 'pending' || filter.status === 'all';
  const filtered = Boolean(filter.turma || filter.item || filter.from || filter.to || filter.q);

  const change = (patch: Partial<OrdersFilter>) => {
    setSelected(new Set());
    update(patch);
  };
  const deliverSelected = (ids: string[]) =>
    deliverMany.mutate(
      { ids },
      {
        onSuccess: (result) => {
          toast.success(result.message || STORE_ENTRY_TEXTS.deliveredMany(result.delivered, result.skipped));
          setSelected(new Set());
        },
        onError: (error) => toastError(error, 'Erro ao entregar pedidos'),
      },
    );

  return (
    <Card padded={false}>
      <div className="flex flex-col gap-3 border-b border-slate-200 p-4 sm:p-5">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <div>
            <h2 className="text-base font-semibold text-slate-900">Pedidos</h2>
            <p className="text-sm text-slate-600">Novos pedidos aparecem aqui na hora.</p>
          </div>
          <Button
            variant="secondary"
            icon={<FileDown aria-hidden="true" className="size-4" />}
            onClick={() => setDialog({ kind: 'pickList' })}
          >
            Lista de entrega
          </Button>
        </div>
        <SearchInput
          label="Buscar aluno por nome ou matrícula"
          placeholder="Nome ou matrícula do aluno"
          value={search}
          onChange={setSearch}
        />
        {/* On a phone the two days share a row: their fields are narrow, the others' choices are not. */}
        <div className="grid grid-cols-2 gap-3 xl:grid-cols-5 [&>*:nth-child(-n+3)]:col-span-2 sm:[&>*:nth-child(-n+2)]:col-span-1 xl:[&>*]:col-span-1">
          <SelectField
            label="Status"
            options={[
              ...ORDER_STATUSES.map((status) => ({ value: status, label: ORDER_STATUS_LABELS[status] })),
              { value: 'all', label: 'Todos os status' },
            ]}
            value={filter.status}
            onChange={(event) => change({ status: event.target.value as OrdersFilter['status'] })}
          />
          <SelectField
            label="Turma"
            options={[{ value: '', label: 'Todas as turmas' }, ...turmas.map((turma) => ({ value: turma.id, label: turma.name }))]}
            value={filter.turma}
            onChange={(event) => change({ turma: event.target.value })}
          />
          <SelectField
            label="Item"
            options={[{ value: '', label: 'Todos os itens' }, ...(items.data ?? []).map((item) => ({ value: item.id, label: item.name }))]}
            value={filter.item}
            onChange={(event) => change({ item: event.target.value })}
          />
          <TextField label="De" type="date" value={filter.from} onChange={(event) => change({ from: event.target.value })} />
          <TextField label="Até" type="date" value={filter.to} onChange={(event) => change({ to: event.target.value })} />
        </div>
        {filterShowsPending && (
          <div className="flex flex-wrap gap-2 [&>*]:flex-auto sm:[&>*]:flex-none">
            <Button
              variant="success"
              icon={<PackageCheck aria-hidden="true" className="size-4" />}
              disabled={chosen.length === 0}
              loading={deliverMany.isPending && chosen.length > 0}
              onClick={() => deliverSelected(chosen)}
            >
              Entregar selecionados ({formatNumber(chosen.length)})
            </Button>
            <Button
              variant="secondary"
              icon={<CheckCheck aria-hidden="true" className="size-4" />}
              // The previous filter's orders stay on screen until the new ones arrive: their count is not this filter's.
              disabled={!orders.data || orders.isPlaceholderData || (filter.status === 'pending' && total === 0)}
              onClick={() => setDialog({ kind: 'deliverAll', count: filter.status === 'pending' ? total : -1 })}
            >
              {filtered ? 'Entregar todos do filtro' : 'Entregar todos os pendentes'}
            </Button>
          </div>
        )}
      </div>

      {orders.isPending ? (
        <div aria-hidden="true" className="flex flex-col gap-4 p-5">
          {Array.from({ length: 5 }, (_, i) => (
            <div key={i} className="flex flex-col gap-2">
              <Skeleton className="h-4 w-1/3" />
              <Skeleton className="h-4 w-1/2" />
            </div>
          ))}
        </div>
      ) : orders.isError && !orders.data ? (
        <LoadError message="Erro ao carregar pedidos" onRetry={() => void orders.refetch()} retrying={orders.isFetching} />
      ) : shown.length === 0 ? (
        <EmptyState
          title="Nenhum pedido encontrado"
          description={filtered || filter.status !== 'pending' ? 'Tente outros filtros.' : 'Nenhum pedido pendente: tudo entregue.'}
        />
      ) : (
        <>
          {pendingShown.length > 0 && (
            <label className="flex items-center gap-3 border-b border-slate-100 bg-slate-50 px-4 py-2.5 text-sm font-medium text-slate-700 sm:px-5">
              <span className="flex size-6 items-center justify-center">
                <input
                  type="checkbox"
                  checked={chosen.length === pendingShown.length}
                  ref={(element) => {
                    if (element) element.indeterminate = chosen.length > 0 && chosen.length < pendingShown.length;
                  }}
                  onChange={(event) => setSelected(new Set(event.target.checked ? pendingShown.map((order) => order.id) : []))}
                  className="size-4 accent-indigo-600"
                />
              </span>
              Selecionar os pendentes desta página
            </label>
          )}
          <ul aria-label="Pedidos" className="divide-y divide-slate-200">
            {shown.map((order) => (
              <OrderRow
                key={order.id}
                order={order}
                selected={selected.has(order.id)}
                onSelect={(on) =>
                  setSelected((current) => {
                    const next = new Set(current);
                    if (on) next.add(order.id);
                    else next.delete(order.id);
                    return next;
                  })
                }
                delivering={deliver.isPending && deliver.variables === order.id}
                onDeliver={() =>
                  deliver.mutate(order.id, {
                    onSuccess: (result) => toast.success(result.message),
                    onError: (error) => toastError(error, 'Erro ao entregar pedido'),
                  })
                }
                onRefuse={() => setDialog({ kind: 'refuse', order })}
              />
            ))}
          </ul>
          <nav
            aria-label="Paginação dos pedidos"
            className="flex flex-col items-center gap-3 border-t border-slate-200 px-4 py-3 text-sm text-slate-600 sm:flex-row sm:justify-between sm:px-5"
          >
            <p aria-live="polite">
              Mostrando {formatNumber(first)}–{formatNumber(last)} de {formatNumber(total)}
            </p>
            {pages > 1 && (
              <div className="flex items-center gap-2">
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={filter.page <= 1}
                  onClick={() => change({ page: filter.page - 1 })}
                  icon={<ChevronLeft aria-hidden="true" className="size-4" />}
                >
                  Anterior
                </Button>
                <span className="px-1 whitespace-nowrap tabular-nums">
                  Página {filter.page} de {pages}
                </span>
                <Button variant="secondary" size="sm" disabled={filter.page >= pages} onClick={() => change({ page: filter.page + 1 })}>
                  Próxima
                  <ChevronRight aria-hidden="true" className="size-4" />
                </Button>
              </div>
            )}
          </nav>
        </>
      )}

      {dialog?.kind === 'refuse' && <RefuseDialog order={dialog.order} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'pickList' && <PickListDialog turmas={turmas} initialTurma={filter.turma} onClose={() => setDialog(null)} />}
      <ConfirmDialog
        open={dialog?.kind === 'deliverAll'}
        title="Entregar pedidos"
        tone="primary"
        message={
          dialog?.kind === 'deliverAll' &&
          (dialog.count >= 0
            ? `Marcar como entregues ${countOf(dialog.count, 'pedido pendente', 'pedidos pendentes')} ${filtered ? 'deste filtro' : ''}?`
            : `Marcar como entregues todos os pedidos pendentes ${filtered ? 'deste filtro' : ''}?`)
        }
        confirmLabel="Entregar"
        pending={deliverMany.isPending}
        onCancel={() => setDialog(null)}
        onConfirm={() =>
          deliverMany.mutate(
            { filter: ordersQueryOf(filter, filter.q) },
            {
              onSuccess: (result) => {
                toast.success(result.message || STORE_ENTRY_TEXTS.deliveredMany(result.delivered, result.skipped));
                setSelected(new Set());
                setDialog(null);
              },
              onError: (error) => toastError(error, 'Erro ao entregar pedidos'),
            },
          )
        }
      />
    </Card>
  );
}
