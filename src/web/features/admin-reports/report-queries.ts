import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { REPORTS_API, type ReportOverview, type ReportReasons, type ReportTimeline } from '../../../shared/reports.ts';
import type { AdminStudent } from '../../../shared/admin-students.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useActiveTags } from '../../lib/student-queries.ts';

/**
 * The three report calls for one search string (the page's URL filters); a change of filters keeps the last answer on
 * screen until the next. Not sent while `enabled` is false (filters the server would refuse).
 */
export function useReports(search: string, enabled = true) {
  const options = { placeholderData: <T,>(previous: T | undefined) => previous, staleTime: 30_000, enabled };
  const overview = useQuery({ queryKey: ['admin-reports', 'overview', search], queryFn: () => api.get<ReportOverview>(`${REPORTS_API.overview}?${search}`), ...options });
  const timeline = useQuery({ queryKey: ['admin-reports', 'timeline', search], queryFn: () => api.get<ReportTimeline>(`${REPORTS_API.timeline}?${search}`), ...options });
  const reasons = useQuery({ queryKey: ['admin-reports', 'reasons', search], queryFn: () => api.get<ReportReasons>(`${REPORTS_API.reasons}?${search}`), ...options });
  return { overview, timeline, reasons };
}

/** Students for the statement's search, and the current weekly tag holders for certificates. */
export function useDocumentSources() {
  const students = useQuery({ queryKey: [...queryKeys.adminStudents, 'reports'], queryFn: () => api.get<AdminStudent[]>('/admin/students') });
  const tags = useActiveTags();
  return { students, tags };
}
