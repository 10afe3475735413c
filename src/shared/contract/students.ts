import { defineRoutes } from './route.ts';

export const students = defineRoutes(['students'], {
  ranking: { method: 'GET', path: '/api/ranking', access: 'signedIn', schemas: (s) => ({ response: { 200: s.rankingResponse } }) },
  directory: {
    method: 'GET',
    path: '/api/students/directory',
    access: 'student',
    description:
      'Uma página dos colegas para quem o estudante pode enviar (ele mesmo fica de fora), buscados por nome, matrícula ou série.',
    schemas: (s) => ({ query: s.studentSearchQuery, response: { 200: s.directoryResponse } }),
  },
  /** The student area's summary figures. */
  summary: { method: 'GET', path: '/api/me/summary', access: 'student', schemas: (s) => ({ response: { 200: s.studentSummary } }) },
});
