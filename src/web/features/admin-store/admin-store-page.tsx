import { useSearchParams } from 'react-router';
import { ClipboardList, ShoppingBag, Store, Target } from 'lucide-react';
import { PageHeader } from '../../ui/page-header.tsx';
import { Tabs } from '../../ui/tabs.tsx';
import { CatalogueSection } from './catalogue-section.tsx';
import { GoalsSection } from './goals-section.tsx';
import { OrdersSection } from './orders-section.tsx';

const TABS = ['catalogo', 'pedidos', 'metas'] as const;
type TabId = (typeof TABS)[number];
const isTab = (value: string | null): value is TabId => TABS.includes(value as TabId);

/** /admin/loja: the catalogue, the orders' queue and the turma goals; the tab and the queue's filters live in the address. */
export default function AdminStorePage() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('aba');
  const tab: TabId = isTab(requested) ? requested : 'catalogo';
  // Icons from sm up: on a phone the three labels fit one line only without them.
  const icon = 'hidden size-4 shrink-0 sm:block';
  return (
    <div>
      <PageHeader title="Loja" description="Catálogo, pedidos dos alunos e metas das turmas" icon={ShoppingBag} />
      <Tabs<TabId>
        label="Seções da loja"
        value={tab}
        // A new tab starts clean: the queue's filters belong to Pedidos.
        onChange={(next) => setParams(next === 'catalogo' ? {} : { aba: next })}
        listClassName="sm:inline-flex"
        items={[
          { id: 'catalogo', label: 'Catálogo', icon: <Store aria-hidden="true" className={icon} />, panel: <CatalogueSection /> },
          { id: 'pedidos', label: 'Pedidos', icon: <ClipboardList aria-hidden="true" className={icon} />, panel: <OrdersSection /> },
          { id: 'metas', label: 'Metas da turma', icon: <Target aria-hidden="true" className={icon} />, panel: <GoalsSection /> },
        ]}
      />
    </div>
  );
}
