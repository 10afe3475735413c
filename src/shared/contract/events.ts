import { defineRoutes } from './route.ts';

export const events = defineRoutes(['realtime'], {
  stream: {
    method: 'GET',
    path: '/api/events',
    access: 'signedIn',
    answer: 'stream',
    summary: 'Eventos ao vivo (Server-Sent Events)',
    description:
      'text/event-stream. Eventos: ready (com sinceLastEventMs: há quantos ms este servidor ouviu o último evento que este usuário ' +
      'receberia, null se nenhum; a página relê o que leu antes dele, se pode ter perdido algum), balance (saldos ou histórico do ' +
      'próprio estudante), ranking, tags, students, refetch (eventos podem ter se perdido: recarregar tudo) e, para administradores, ' +
      'operation. Os eventos não trazem dados: o cliente recarrega o que mudou. O fluxo termina quando a sessão termina (saída, ' +
      'remoção, nova senha, expiração).',
  },
});
