import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ClipboardList, Coins, ShoppingBag, Star, Store } from 'lucide-react';
import { STORE_CATEGORIES, STORE_CATEGORY_LABELS, type StoreCategory, type StudentStoreItem } from '../../../shared/store.ts';
import { formatAmount, formatEstelecas, formatMeritus } from '../../lib/format.ts';
import { useSession } from '../../lib/session.ts';
import { Card } from '../../ui/card.tsx';
import { ChoiceGroup } from '../../ui/choice-group.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { Tabs } from '../../ui/tabs.tsx';
import { ContributeDialog } from './contribute-dialog.tsx';
import { GoalCard } from './goal-card.tsx';
import { ItemCard } from './item-card.tsx';
import { MyOrders } from './my-orders.tsx';
import type { Balances } from './store-figures.ts';
import { itemImageUrl, useChooseStoreGoal, useMyOrders, usePurchase, useStoreGoalId, useStoreItems } from './store-queries.ts';

type Tab = 'catalogo' | 'pedidos';
const TAB_PARAM = 'aba';

function CategoryFilter({
  categories,
  value,
  onChange,
}: {
  categories: readonly StoreCategory[];
  value: StoreCategory | '';
  onChange: (value: StoreCategory | '') => void;
}) {
  const options: { value: StoreCategory | ''; label: string }[] = [
    { value: '', label: 'Todos' },
    ...categories.map((category) => ({ value: category, label: STORE_CATEGORY_LABELS[category] })),
  ];
  return <ChoiceGroup legend="Categoria" legendHidden options={options} value={value} onChange={onChange} variant="chips" />;
}

function BalanceStrip({ balances }: { balances: Balances }) {
  return (
    <p className="mb-5 flex flex-wrap items-center gap-x-4 gap-y-1 rounded-2xl bg-white px-4 py-3 text-sm text-slate-700 shadow-sm ring-1 ring-slate-200">
      <span className="font-medium">Seu saldo:</span>
      <span className="flex items-center gap-1.5 font-bold text-slate-900 tabular-nums" data-testid="store-balance-meritus">
        <Coins aria-hidden="true" className="size-4 text-amber-600" />
        {formatMeritus(balances.meritus)}
      </span>
      <span className="flex items-center gap-1.5 font-bold text-slate-900 tabular-nums" data-testid="store-balance-estelecas">
        <Star aria-hidden="true" className="size-4 text-emerald-600" />
        {formatEstelecas(balances.estelecas)}
      </span>
    </p>
  );
}

function CatalogueSkeleton() {
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-hidden="true" data-testid="store-loading">
      {Array.from({ length: 6 }, (_, index) => (
        <Skeleton key={index} className="h-80 rounded-2xl" />
      ))}
    </div>
  );
}

function Catalogue({ balances }: { balances: Balances }) {
  const items = useStoreItems();
  const goalId = useStoreGoalId();
  const choose = useChooseStoreGoal();
  const [category, setCategory] = useState<StoreCategory | ''>('');
  const [buying, setBuying] = useState<StudentStoreItem | null>(null);
  const [contributing, setContributing] = useState<StudentStoreItem | null>(null);
  const purchase = usePurchase(() => setBuying(null));

  if (items.isPending) return <CatalogueSkeleton />;
  if (items.isError) {
    return (
      <Card>
        <LoadError message="Não foi possível carregar a loja" onRetry={() => void items.refetch()} retrying={items.isFetching} />
      </Card>
    );
  }
  const goals = items.data.filter((item) => item.category === 'turma');
  const priced = items.data.filter((item) => item.category !== 'turma');
  if (items.data.length === 0) {
    return (
      <Card>
        <EmptyState
          icon={<Store className="size-6" />}
          title="Nenhum item na loja no momento"
          description="Quando a escola cadastrar prêmios para a sua turma, eles aparecem aqui."
        />
      </Card>
    );
  }
  const categories = STORE_CATEGORIES.filter((option) => option !== 'turma' && priced.some((item) => item.category === option));
  // A category left with no item (its last one withdrawn meanwhile) shows them all again.
  const chosenCategory = category !== '' && categories.includes(category) ? category : '';
  const shown = priced.filter((item) => chosenCategory === '' || item.category === chosenCategory);

  return (
    <div className="flex flex-col gap-8">
      {goals.length > 0 && (
        <section aria-labelledby="store-goals-title" className="flex flex-col gap-3">
          <h2 id="store-goals-title" className="text-lg font-semibold text-slate-900">
            Metas da turma
          </h2>
          <div className="grid grid-cols-1 gap-4 2xl:grid-cols-2">
            {goals.map((item) => (
              <GoalCard key={item.id} item={item} imageUrl={itemImageUrl(item.id, item.imageId)} onContribute={setContributing} />
            ))}
          </div>
        </section>
      )}
      {priced.length > 0 && (
        <section aria-labelledby="store-items-title" className="flex flex-col gap-4">
          <div className="flex flex-col gap-3 lg:flex-row lg:items-center lg:justify-between">
            <h2 id="store-items-title" className="text-lg font-semibold text-slate-900">
              Prêmios
            </h2>
            {categories.length > 1 && <CategoryFilter categories={categories} value={chosenCategory} onChange={setCategory} />}
          </div>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {shown.map((item) => (
              <ItemCard
                key={item.id}
                item={item}
                imageUrl={itemImageUrl(item.id, item.imageId)}
                balances={balances}
                chosen={goalId === item.id}
                choosing={choose.isPending && choose.variables === item.id}
                onBuy={setBuying}
                onChoose={(chosen, on) => choose.mutate(on ? chosen.id : null)}
              />
            ))}
          </div>
        </section>
      )}
      <ConfirmDialog
        open={buying !== null}
        title="Confirmar compra"
        tone="primary"
        confirmLabel="Confirmar compra"
        pending={purchase.isPending}
        onCancel={() => setBuying(null)}
        onConfirm={() => buying && purchase.submit(buying.id)}
        message={
          buying && (
            <dl className="flex flex-col gap-2" data-testid="purchase-summary">
              <div className="flex justify-between gap-3">
                <dt>Item</dt>
                <dd className="text-right font-semibold wrap-anywhere text-slate-900">{buying.name}</dd>
              </div>
              <div className="flex justify-between gap-3">
                <dt>Preço</dt>
                <dd className="font-semibold text-slate-900 tabular-nums">{formatAmount(buying.currency, buying.price ?? 0)}</dd>
              </div>
              <div className="flex justify-between gap-3">
                <dt>Saldo após a compra</dt>
                <dd className="font-semibold text-slate-900 tabular-nums">
                  {formatAmount(buying.currency, balances[buying.currency] - (buying.price ?? 0))}
                </dd>
              </div>
            </dl>
          )
        }
      />
      {contributing && (
        <ContributeDialog item={contributing} balance={balances[contributing.currency]} onClose={() => setContributing(null)} />
      )}
    </div>
  );
}

/** The tab's label: 'Meus pedidos', with how many wait for delivery. */
function useOrdersLabel(): string {
  const orders = useMyOrders();
  const pending = orders.data?.filter((order) => order.status === 'pending').length ?? 0;
  return pending > 0 ? `Meus pedidos (${pending})` : 'Meus pedidos';
}

/** /student/loja: the catalogue the student may buy from, their turma's goals, and 'Meus pedidos'. */
export default function StudentStorePage() {
  const { user } = useSession();
  const [params, setParams] = useSearchParams();
  const ordersLabel = useOrdersLabel();
  if (user?.role !== 'student') return null;
  const balances: Balances = { meritus: user.student.meritus, estelecas: user.student.estelecas };
  const tab: Tab = params.get(TAB_PARAM) === 'pedidos' ? 'pedidos' : 'catalogo';

  return (
    <div>
      <PageHeader title="Loja" description="Troque seus Méritus e Estelecas por prêmios" icon={ShoppingBag} />
      <BalanceStrip balances={balances} />
      <Tabs<Tab>
        label="Loja"
        value={tab}
        onChange={(next) => setParams(next === 'pedidos' ? { [TAB_PARAM]: next } : {}, { replace: true })}
        listClassName="sm:max-w-md"
        items={[
          {
            id: 'catalogo',
            label: 'Catálogo',
            icon: <Store aria-hidden="true" className="size-4" />,
            panel: <Catalogue balances={balances} />,
          },
          {
            id: 'pedidos',
            label: ordersLabel,
            icon: <ClipboardList aria-hidden="true" className="size-4" />,
            panel: (
              <Card>
                <MyOrders />
              </Card>
            ),
          },
        ]}
      />
    </div>
  );
}
