import type { ReportFigures, ReportFilterValues, ReportStore } from '../../../shared/reports.ts';
import { STORE_CATEGORY_LABELS, STORE_TEXTS } from '../../../shared/store.ts';
import { formatAmount, formatDateTime, formatMeritus, formatNumber } from '../../lib/format.ts';
import { ProgressBar } from '../../ui/progress-bar.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { HorizontalBars, ReportSection, ReportTableView } from './report-parts.tsx';

const SPENT_COLOR = '#7c3aed';

/**
 * The economy's circulation: the Méritus the staff put in (awarded) beside what the students spent in the Loja, and the
 * orders still to deliver.
 */
function Circulation({ figures, store }: { figures: ReportFigures | undefined; store: ReportStore | undefined }) {
  if (!figures || !store) return <Skeleton className="h-24" />;
  const awarded = figures.meritusAwarded.current;
  const spent = figures.meritusSpent.current;
  const share = awarded === 0 ? 0 : Math.round((spent / awarded) * 1000) / 10;
  const open = store.openOrders;
  return (
    <div className="mb-4 grid grid-cols-1 gap-3 sm:grid-cols-3">
      <div className="rounded-xl bg-slate-50 p-3 sm:col-span-2">
        <p className="text-sm font-medium text-slate-700">Concedidos × gastos na Loja</p>
        <p className="mt-0.5 text-lg font-bold text-slate-900 tabular-nums">
          {formatMeritus(awarded)} <span className="font-normal text-slate-600">concedidos</span> · {formatMeritus(spent)}{' '}
          <span className="font-normal text-slate-600">gastos</span>
        </p>
        <ProgressBar value={Math.min(100, share)} max={100} label="Méritus gastos em % dos concedidos" tone="violet" className="mt-2" />
        <p className="mt-1 text-xs text-slate-600">
          {awarded === 0
            ? 'Nenhum Méritus concedido no período.'
            : `${share.toLocaleString('pt-BR')}% do que foi concedido voltou para a escola pela Loja.`}{' '}
          Estelecas gastas: {formatNumber(figures.estelecasSpent.current)}.
        </p>
      </div>
      <div className="rounded-xl bg-slate-50 p-3">
        <p className="text-sm font-medium text-slate-700">Pedidos pendentes</p>
        <p className="mt-0.5 text-lg font-bold text-slate-900 tabular-nums">{formatNumber(open.count)}</p>
        <p className="mt-1 text-xs text-slate-600">
          {open.oldestAt ? `O mais antigo é de ${formatDateTime(open.oldestAt)}.` : 'Nenhum pedido esperando entrega.'}
          {store.soldOut.length > 0 && ` ${STORE_TEXTS.soldOut}: ${store.soldOut.map((item) => item.name).join(', ')}.`}
        </p>
      </div>
    </div>
  );
}

/** The reports' Loja: circulation, spending by item (less refunds), stock left and pending orders, with its exports. */
export function StoreReport({
  query,
  figures,
  store,
}: {
  query: ReportFilterValues;
  figures: ReportFigures | undefined;
  store: ReportStore | undefined;
}) {
  const spending = store?.items.filter((item) => item.spent > 0);
  return (
    <ReportSection
      title="Loja"
      description={
        'Gastos por item no período (compras e contribuições, menos devoluções), estoque e pedidos pendentes. ' +
        'Conta as compras dos alunos, qualquer que seja o autor escolhido.'
      }
      table="store"
      query={query}
      chart={
        <>
          <Circulation figures={figures} store={store} />
          {spending && (
            <HorizontalBars
              color={SPENT_COLOR}
              items={spending.map((item) => ({ label: item.name, value: item.spent, text: formatAmount(item.currency, item.spent) }))}
            />
          )}
        </>
      }
    >
      <ReportTableView
        caption="Gastos por item no período, devoluções, estoque restante e pedidos pendentes"
        rows={store?.items}
        rowKey={(item) => item.itemId}
        empty="Nenhuma compra no período"
        columns={[
          { header: 'Item', cell: (item) => item.name },
          { header: 'Categoria', cell: (item) => STORE_CATEGORY_LABELS[item.category] },
          { header: 'Unidades', cell: (item) => formatNumber(item.units), numeric: true },
          { header: 'Gasto', cell: (item) => formatAmount(item.currency, item.spent), numeric: true },
          { header: 'Devolvido', cell: (item) => formatAmount(item.currency, item.refunded), numeric: true },
          {
            header: 'Estoque',
            cell: (item) =>
              item.category === 'turma'
                ? '—'
                : item.stockLeft === null
                  ? 'Ilimitado'
                  : item.stockLeft === 0
                    ? STORE_TEXTS.soldOut
                    : formatNumber(item.stockLeft),
            numeric: true,
          },
          { header: 'Pendentes', cell: (item) => formatNumber(item.pendingOrders), numeric: true },
        ]}
        skeletonClassName="h-40"
      />
    </ReportSection>
  );
}
