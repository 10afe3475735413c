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
      '`size` (até 100), ou `around=me` para a página da própria posição; `turma` restringe a uma turma. Para um estudante, ' +
      'os colegas aparecem no modo de privacidade da escola, e os que pediram para não aparecer ficam de fora.',
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
  /** 'Não aparecer no ranking' (Meu Perfil, decision 029). */
  rankingVisibility: {
    method: 'PUT',
    path: '/api/me/ranking-visibility',
    access: 'student',
    description:
      'O estudante escolhe não aparecer no ranking (nem nas tags) para os colegas, se a escola permitir; ele continua vendo a própria posição.',
    schemas: (s) => ({ body: s.rankingVisibilityInput, response: { 200: s.rankingVisibilityResult } }),
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
