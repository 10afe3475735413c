import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.ts';
import type { Principal } from '../modules/auth/auth.service.ts';
import { sessionOf } from '../plugins/auth.ts';
import { resolveSession } from '../modules/auth/auth.service.ts';
import type { ClientEvent } from '../../shared/live-events.ts';
import type { BusEvent } from './event-bus.ts';

const HEARTBEAT_MS = 25_000;

/** Turns a bus event into what this user may see; an empty list means nothing for them. */
export function eventsFor(principal: Principal, event: BusEvent): ClientEvent[] {
  switch (event.type) {
    case 'ledger': {
      if (principal.role === 'admin') return [{ type: 'operation', status: event.status }, { type: 'ranking' }];
      if (event.status !== 'completed') return [];
      const mine = event.studentIds === 'all' || event.studentIds.includes(principal.id);
      return mine ? [{ type: 'balance' }, { type: 'ranking' }] : [{ type: 'ranking' }];
    }
    case 'tags':
      return [{ type: 'tags' }];
    case 'students':
      return [{ type: 'students' }, { type: 'ranking' }];
    case 'sessions_ended':
      return [];
  }
}

export async function eventsRoutes(app: FastifyInstance, { database, events }: AppDeps): Promise<void> {
  const openStreams = new Set<NodeJS.WritableStream & { end(): void }>();
  app.addHook('preClose', async () => {
    for (const stream of openStreams) stream.end();
  });

  app.get(
    '/events',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['realtime'],
        summary: 'Eventos ao vivo (Server-Sent Events)',
        description:
          'text/event-stream. Eventos: ready, balance (saldos ou histórico do próprio estudante), ranking, tags, students e, para administradores, operation. Os eventos não trazem dados: o cliente recarrega o que mudou.',
      },
    },
    (request, reply) => {
      const { principal, token } = sessionOf(request);
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache, no-transform',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      });
      res.write('retry: 3000\n\n');
      res.write(`event: ready\ndata: {}\n\n`);

      const unsubscribe = events.subscribe((event) => {
        for (const clientEvent of eventsFor(principal, event)) {
          res.write(`event: ${clientEvent.type}\ndata: ${JSON.stringify(clientEvent)}\n\n`);
        }
      });
      // The heartbeat also re-checks the session, so a logout or removal ends the stream.
      const heartbeat = setInterval(() => {
        resolveSession(database.db, token)
          .then((still) => (still ? res.write(': heartbeat\n\n') : res.end()))
          .catch(() => res.end());
      }, HEARTBEAT_MS);
      openStreams.add(res);
      const stop = () => {
        openStreams.delete(res);
        clearInterval(heartbeat);
        unsubscribe();
      };
      request.raw.on('close', stop);
      res.on('close', stop);
    },
  );
}
