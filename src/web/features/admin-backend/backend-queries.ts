import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { MONITORING_REFRESH_MS, type EntityId } from '../../../shared/system.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { readOf } from '../../lib/query-keys.ts';

const { system } = routes;

/** Read afresh each time the tab opens: the counts and the health are what an administrator comes to check. */
export function useSystemOverview() {
  return useQuery({ ...readOf(system.overview), staleTime: 0 });
}

export type EntityRequest = { entity: EntityId; page: number; pageSize: number; q: string };

/** One page of an entity; the previous page stays on screen while the next one loads. */
export function useEntityPage(request: EntityRequest) {
  const { entity, page, pageSize, q } = request;
  return useQuery({
    ...readOf(system.entityPage, { params: { entity }, query: { page, pageSize, q } }),
    placeholderData: keepPreviousData,
  });
}

/** The instance's figures, re-read every MONITORING_REFRESH_MS (the spec's 3 s) while the tab is open. */
export function useMonitoring() {
  return useQuery({ ...readOf(system.monitoring), refetchInterval: MONITORING_REFRESH_MS });
}

export function useConfiguration() {
  return useQuery(readOf(system.configuration));
}
