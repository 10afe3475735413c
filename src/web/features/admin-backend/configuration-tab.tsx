import { Lock } from 'lucide-react';
import { SYSTEM_TEXTS, type ConfigEntry } from '../../../shared/system.ts';
import { Badge } from '../../ui/badge.tsx';
import { Card } from '../../ui/card.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { useConfiguration } from './backend-queries.ts';

function ConfigRow({ entry }: { entry: ConfigEntry }) {
  return (
    <li className="py-3.5" data-testid={`config-${entry.name}`}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
        <code className="font-mono text-sm font-semibold break-all text-slate-900">{entry.name}</code>
        <Badge tone={entry.source === 'environment' ? 'indigo' : 'slate'}>{entry.source === 'environment' ? 'Ambiente' : 'Padrão'}</Badge>
        {entry.secret && (
          <Badge tone="amber" icon={<Lock aria-hidden="true" className="size-3" />}>
            Sigiloso
          </Badge>
        )}
      </div>
      <p className="mt-1.5 font-mono text-sm break-all text-slate-800">
        {entry.value === null ? <span className="font-sans text-slate-600 italic">não definido</span> : entry.value}
      </p>
      <p className="mt-1 text-sm text-slate-600">{entry.description}</p>
    </li>
  );
}

/** Configurações: the effective configuration, read-only; a change is made in the server's environment and a restart. */
export function ConfigurationTab() {
  const configuration = useConfiguration();
  if (configuration.isPending) return <Skeleton className="h-96 rounded-2xl" />;
  if (configuration.isError)
    return <LoadError message={SYSTEM_TEXTS.loadFailed} onRetry={() => void configuration.refetch()} retrying={configuration.isFetching} />;
  return (
    <Card title="Configuração em vigor">
      <p className="text-sm text-slate-600">
        Somente leitura. Cada valor vem de uma variável de ambiente do servidor (
        <strong className="font-semibold text-slate-800">Ambiente</strong>) ou do valor padrão (
        <strong className="font-semibold text-slate-800">Padrão</strong>); para mudar, altere o ambiente e reinicie o servidor. Segredos
        aparecem mascarados.
      </p>
      <ul className="mt-2 divide-y divide-slate-100">
        {configuration.data.entries.map((entry) => (
          <ConfigRow key={entry.name} entry={entry} />
        ))}
      </ul>
    </Card>
  );
}
