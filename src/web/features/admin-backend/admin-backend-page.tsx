import { Activity, Database, LayoutGrid, Server, Settings } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { useSession } from '../../lib/session.ts';
import { PageHeader } from '../../ui/page-header.tsx';
import { Tabs, type TabItem } from '../../ui/tabs.tsx';
import { ConfigurationTab } from './configuration-tab.tsx';
import { EntitiesTab } from './entities-tab.tsx';
import { MonitoringTab } from './monitoring-tab.tsx';
import { OverviewTab } from './overview-tab.tsx';
import { isStaffUser } from '../../../shared/areas.ts';

const TAB_IDS = ['visao-geral', 'entidades', 'monitoramento', 'configuracoes'] as const;
type TabId = (typeof TAB_IDS)[number];

function isTabId(value: string | null): value is TabId {
  return (TAB_IDS as readonly (string | null)[]).includes(value);
}

/** /admin/backend: the truth about the running system in the spec's four tabs; the tab is kept in the address so it can be linked. */
export default function AdminBackendPage() {
  const { user } = useSession();
  const [params, setParams] = useSearchParams();
  const requested = params.get('aba');
  const tab: TabId = isTabId(requested) ? requested : 'visao-geral';
  if (!isStaffUser(user)) return null;

  const icon = 'size-4 shrink-0';
  const items: TabItem<TabId>[] = [
    { id: 'visao-geral', label: 'Visão Geral', icon: <LayoutGrid aria-hidden="true" className={icon} />, panel: <OverviewTab /> },
    { id: 'entidades', label: 'Entidades', icon: <Database aria-hidden="true" className={icon} />, panel: <EntitiesTab /> },
    { id: 'monitoramento', label: 'Monitoramento', icon: <Activity aria-hidden="true" className={icon} />, panel: <MonitoringTab /> },
    { id: 'configuracoes', label: 'Configurações', icon: <Settings aria-hidden="true" className={icon} />, panel: <ConfigurationTab /> },
  ];

  return (
    <div>
      <PageHeader icon={Server} title="Painel Backend" description="Dados reais desta instância do servidor e do banco de dados" />
      <Tabs
        label="Seções do painel"
        items={items}
        value={tab}
        onChange={(id) => setParams(id === 'visao-geral' ? {} : { aba: id }, { replace: true })}
        listClassName="grid grid-cols-2 sm:flex"
      />
    </div>
  );
}
