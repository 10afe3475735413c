import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { REPORTS_API, reportOverview, reportReasons, reportTimeline } from '../../../shared/reports.ts';
import { adminStudentsResponse } from '../../../shared/admin-students.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useActiveTags } from '../../lib/student-queries.ts';

/** The three report calls for one search string (the page's URL filters); a change of filters keeps the last answer on screen until the next. */
export function useReports(search: string) {
  const options = { placeholderData: <T,>(previous: T | undefined) => previous, staleTime: 30_000 };
  const overview = useQuery({ queryKey: ['admin-reports', 'overview', search], queryFn: () => api.get(`${REPORTS_API.overview}?${search}`, { schema: reportOverview }), ...options });
  const timeline = useQuery({ queryKey: ['admin-reports', 'timeline', search], queryFn: () => api.get(`${REPORTS_API.timeline}?${search}`, { schema: reportTimeline }), ...options });
  const reasons = useQuery({ queryKey: ['admin-reports', 'reasons', search], queryFn: () => api.get(`${REPORTS_API.reasons}?${search}`, { schema: reportReasons }), ...options });
  return { overview, timeline, reasons };
}

/** Students for the statement's search, and the current weekly tag holders for certificates. */
export function useDocumentSources() {
  const students = useQuery({ queryKey: [...queryKeys.adminStudents, 'reports'], queryFn: () => api.get('/admin/students', { schema: adminStudentsResponse }) });
  const tags = useActiveTags();
  return { students, tags };
}
