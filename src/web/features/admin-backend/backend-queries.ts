import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  MONITORING_REFRESH_MS,
  SYSTEM_API,
  type ConfigurationList,
  type EntityId,
  type EntityPage,
  type MonitoringSnapshot,
  type SystemOverview,
} from '../../../shared/system.ts';
import { api } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-keys.ts';

/** Read afresh each time the tab opens: the counts and the health are what an administrator comes to check. */
export function useSystemOverview() {
  return useQuery({
    queryKey: [...queryKeys.adminSystem, 'overview'],
    queryFn: () => api.get<SystemOverview>(SYSTEM_API.overview),
    staleTime: 0,
  });
}

export type EntityRequest = { entity: EntityId; page: number; pageSize: number; q: string };

/** One page of an entity; the previous page stays on screen while the next one loads. */
export function useEntityPage(request: EntityRequest) {
  return useQuery({
    queryKey: [...queryKeys.adminSystem, 'entity', request],
    queryFn: () => api.get<EntityPage>(SYSTEM_API.entity(request.entity), { query: { page: request.page, pageSize: request.pageSize, q: request.q } }),
    placeholderData: keepPreviousData,
  });
}

/** The instance's figures, re-read every MONITORING_REFRESH_MS (the spec's 3 s) while the tab is open. */
export function useMonitoring() {
  return useQuery({
    queryKey: [...queryKeys.adminSystem, 'monitoring'],
    queryFn: () => api.get<MonitoringSnapshot>(SYSTEM_API.monitoring),
    refetchInterval: MONITORING_REFRESH_MS,
  });
}

export function useConfiguration() {
  return useQuery({
    queryKey: [...queryKeys.adminSystem, 'configuration'],
    queryFn: () => api.get<ConfigurationList>(SYSTEM_API.configuration),
  });
}
