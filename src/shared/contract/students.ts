import { defineRoutes } from './route.ts';

export const students = defineRoutes(['students'], {
  ranking: {
    method: 'GET',
    path: '/api/ranking',
    access: 'signedIn',
    revalidate: true,
    summary: 'Ranking por Méritus, em páginas',
    description:
      'Estudantes atuais por Méritus (maior primeiro; empate por nome), com posição de competição (empates dividem a posição). ' +
      'Cada resposta traz o total, o pódio, a linha de quem pergunta (estudante) e a página pedida: `page` (a partir de 0) e ' +
      '`size` (até 100), ou `around=me` para a página da própria posição.',
    schemas: (s) => ({ query: s.rankingQuery, response: { 200: s.rankingResponse } }),
  },
  directory: {
    method: 'GET',
    path: '/api/students/directory',
    access: 'student',
    description:
      'Uma página dos colegas para quem o estudante pode enviar (ele mesmo fica de fora), buscados por nome, matrícula ou turma.',
    schemas: (s) => ({ query: s.studentSearchQuery, response: { 200: s.directoryResponse } }),
  },
  /** The student area's summary figures. */
  summary: {
    method: 'GET',
    path: '/api/me/summary',
    access: 'student',
    revalidate: true,
    schemas: (s) => ({ response: { 200: s.studentSummary } }),
  },
  /** The dashboard's goal card follows an item of the Loja the student chose (issue 35). */
  storeGoal: {
    method: 'PUT',
    path: '/api/me/store-goal',
    access: 'student',
    description:
      'Escolhe um item da Loja (com preço, ativo, que a turma do estudante pode comprar) como a meta do estudante; `null` volta à meta de Méritus da escola.',
    schemas: (s) => ({ body: s.storeGoalInput, response: { 200: s.storeGoalAnswer } }),
  },
});
