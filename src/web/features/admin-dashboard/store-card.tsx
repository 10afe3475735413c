import { ShoppingBag } from 'lucide-react';
import type { DashboardStore } from '../../../shared/dashboard.ts';
import { STORE_TEXTS } from '../../../shared/store-texts.ts';
import { formatAmount, formatMeritus, formatNumber, formatRelativeTime } from '../../lib/format.ts';
import { Card } from '../../ui/card.tsx';
import { ProgressBar } from '../../ui/progress-bar.tsx';

/**
 * The Loja on the dashboard (decision 026), over the dashboard's period (the last 7 days by default) and students: what was spent
 * beside what was awarded, the orders to deliver, what sold out, the best sellers.
 */
export function StoreCard({ store, now, spanChosen }: { store: DashboardStore; now: Date; spanChosen: boolean }) {
  const share = store.awarded === 0 ? 0 : Math.round((store.spent.meritus / store.awarded) * 1000) / 10;
  return (
    <Card
      title={spanChosen ? 'Loja no período' : 'Loja (7 dias)'}
      action={<ShoppingBag aria-hidden="true" className="size-5 text-violet-600" />}
    >
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <div className="rounded-xl bg-slate-50 p-4 sm:col-span-2">
          <p className="text-sm font-medium text-slate-600">Gastos na Loja</p>
          <p className="mt-0.5 text-2xl font-bold text-slate-900 tabular-nums">{formatMeritus(store.spent.meritus)}</p>
          <ProgressBar value={Math.min(100, share)} max={100} label="Méritus gastos em % dos concedidos" tone="violet" className="mt-2" />
          <p className="mt-1.5 text-xs text-slate-600">
            {formatMeritus(store.awarded)} concedidos no mesmo período
            {store.awarded > 0 && ` (${share.toLocaleString('pt-BR')}% gastos)`} · {formatNumber(store.spent.estelecas)} Estelecas gastas
          </p>
        </div>
        <div className="rounded-xl bg-slate-50 p-4">
          <p className="text-sm font-medium text-slate-600">Pedidos pendentes</p>
          <p className="mt-0.5 text-2xl font-bold text-slate-900 tabular-nums">{formatNumber(store.openOrders)}</p>
          <p className="mt-1.5 text-xs text-slate-600">
            {store.oldestOrderAt ? `O mais antigo ${formatRelativeTime(store.oldestOrderAt, now)}` : 'Nada a entregar'}
          </p>
        </div>
      </div>
      <div className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2">
        <div>
          <h3 className="text-sm font-semibold text-slate-900">Mais vendidos</h3>
          {store.topItems.length === 0 ? (
            <p className="mt-1 text-sm text-slate-600">
              {spanChosen ? 'Nenhuma compra no período.' : 'Nenhuma compra nos últimos 7 dias.'}
            </p>
          ) : (
            <ol className="mt-1 space-y-1 text-sm">
              {store.topItems.map((item) => (
                <li key={item.itemId} className="flex justify-between gap-2">
                  <span className="min-w-0 truncate text-slate-800">{item.name}</span>
                  <span className="shrink-0 text-slate-600 tabular-nums">
                    {item.units > 0 && `${formatNumber(item.units)} × · `}
                    {formatAmount(item.currency, item.spent)}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </div>
        <div>
          <h3 className="text-sm font-semibold text-slate-900">{STORE_TEXTS.soldOut}</h3>
          {store.soldOut.length === 0 ? (
            <p className="mt-1 text-sm text-slate-600">Nenhum item esgotado.</p>
          ) : (
            <ul className="mt-1 space-y-1 text-sm text-slate-800">
              {store.soldOut.map((item) => (
                <li key={item.itemId} className="truncate">
                  {item.name}
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </Card>
  );
}
