import { useQuery } from '@tanstack/react-query';
import { routes } from '../../../shared/contract/routes.ts';
import type { ReportFilterValues } from '../../../shared/reports.ts';
import { readOf } from '../../lib/query-keys.ts';

/**
 * The four report calls for the page's filters (reportQueryOf); a change of filters keeps the last answer on screen
 * until the next. Not sent while `enabled` is false (filters the server would refuse). Pushed operations refresh them.
 */
export function useReports(query: ReportFilterValues, enabled = true) {
  const options = { placeholderData: <T>(previous: T | undefined) => previous, staleTime: 30_000, enabled };
  const overview = useQuery({ ...readOf(routes.reports.overview, { query }), ...options });
  const timeline = useQuery({ ...readOf(routes.reports.timeline, { query }), ...options });
  const reasons = useQuery({ ...readOf(routes.reports.reasons, { query }), ...options });
  const store = useQuery({ ...readOf(routes.reports.store, { query }), ...options });
  return { overview, timeline, reasons, store };
}
