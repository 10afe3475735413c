import { useState } from 'react';
import { PackageOpen, XCircle } from 'lucide-react';
import { ORDER_STATUS_LABELS, STORE_TEXTS, type MyOrder, type OrderStatus } from '../../../shared/store.ts';
import { formatAmount, formatDateTime } from '../../lib/format.ts';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import type { Tone } from '../../ui/tone.ts';
import { ItemImage } from './item-image.tsx';
import { itemImageUrl, useCancelOrder, useMyOrders } from './store-queries.ts';

const STATUS_TONES: Record<OrderStatus, Tone> = { pending: 'amber', delivered: 'emerald', refused: 'rose', cancelled: 'slate' };

function OrderRow({ order, onCancel }: { order: MyOrder; onCancel: (order: MyOrder) => void }) {
  return (
    <li className="flex gap-3 py-3" data-testid="my-order">
      <ItemImage src={itemImageUrl(order.itemId, order.imageId)} className="size-14 shrink-0 rounded-xl" />
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
          <p className="min-w-0 text-sm font-semibold wrap-anywhere text-slate-900">{order.itemName}</p>
          <Badge tone={STATUS_TONES[order.status]}>{ORDER_STATUS_LABELS[order.status]}</Badge>
        </div>
        <p className="text-xs text-slate-600">
          <span className="font-semibold text-slate-800 tabular-nums">{formatAmount(order.currency, order.price)}</span> ·{' '}
          <time dateTime={order.createdAt}>{formatDateTime(order.createdAt)}</time>
        </p>
        {order.status === 'refused' && order.reason && (
          <p className="text-sm font-medium wrap-anywhere text-rose-700">{STORE_TEXTS.refused(order.reason)}</p>
        )}
        {order.status === 'delivered' && order.decidedAt && (
          <p className="text-xs text-emerald-800">
            {STORE_TEXTS.delivered} em <time dateTime={order.decidedAt}>{formatDateTime(order.decidedAt)}</time>
          </p>
        )}
        {order.status === 'cancelled' && <p className="text-xs text-slate-600">Valor devolvido ao seu saldo</p>}
        {order.status === 'pending' && (
          <div className="mt-1 flex flex-wrap items-center justify-between gap-2">
            <p className="text-xs text-slate-600">Aguardando a entrega</p>
            <Button
              variant="secondary"
              size="sm"
              onClick={() => onCancel(order)}
              icon={<XCircle aria-hidden="true" className="size-4" />}
              aria-label={`Cancelar pedido de ${order.itemName}`}
            >
              Cancelar pedido
            </Button>
          </div>
        )}
      </div>
    </li>
  );
}

/** 'Meus pedidos': every order of the student with its status, live; a pending one can be cancelled (and is refunded). */
export function MyOrders() {
  const orders = useMyOrders();
  const [cancelling, setCancelling] = useState<MyOrder | null>(null);
  const cancel = useCancelOrder(() => setCancelling(null));

  if (orders.isPending) {
    return (
      <div className="flex flex-col gap-3" aria-hidden="true" data-testid="orders-loading">
        {Array.from({ length: 3 }, (_, index) => (
          <Skeleton key={index} className="h-20 w-full" />
        ))}
      </div>
    );
  }
  if (orders.isError) {
    return (
      <LoadError message="Não foi possível carregar seus pedidos" onRetry={() => void orders.refetch()} retrying={orders.isFetching} />
    );
  }
  if (orders.data.length === 0) {
    return (
      <EmptyState
        icon={<PackageOpen className="size-6" />}
        title="Nenhum pedido ainda"
        description="O que você comprar na loja aparece aqui, com a situação de cada pedido."
      />
    );
  }
  return (
    <>
      <ul aria-label="Meus pedidos" className="divide-y divide-slate-100">
        {orders.data.map((order) => (
          <OrderRow key={order.id} order={order} onCancel={setCancelling} />
        ))}
      </ul>
      <ConfirmDialog
        open={cancelling !== null}
        title="Cancelar pedido?"
        message={
          cancelling && (
            <p>
              O pedido de <strong className="wrap-anywhere">{cancelling.itemName}</strong> será cancelado e{' '}
              <strong>{formatAmount(cancelling.currency, cancelling.price)}</strong> voltarão ao seu saldo.
            </p>
          )
        }
        confirmLabel="Cancelar pedido"
        cancelLabel="Manter pedido"
        pending={cancel.isPending}
        onConfirm={() => cancelling && cancel.submit(cancelling.id)}
        onCancel={() => setCancelling(null)}
      />
    </>
  );
}
