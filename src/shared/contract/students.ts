import { defineRoutes } from './route.ts';

export const students = defineRoutes(
  { tags: ['students'], load: async () => ({ students: await import('../students.ts'), studentArea: await import('../student-area.ts') }) },
  {
    ranking: { method: 'GET', path: '/api/ranking', access: 'signedIn', schemas: ({ students }) => ({ response: { 200: students.rankingResponse } }) },
    directory: {
      method: 'GET',
      path: '/api/students/directory',
      access: 'student',
      schemas: ({ students }) => ({ response: { 200: students.directoryResponse } }),
    },
    /** The student area's summary figures. */
    summary: { method: 'GET', path: '/api/me/summary', access: 'student', schemas: ({ studentArea }) => ({ response: { 200: studentArea.studentSummary } }) },
  },
);
