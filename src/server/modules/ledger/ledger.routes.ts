import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { adminOf, studentOf } from '../../plugins/auth.ts';
import { turmaScopeOf } from '../auth/actor.ts';
import { sendCsv } from '../../csv.ts';
import { exportLedgerCsv } from './ledger-export.service.ts';
import { awardBudget } from './award-budget.service.ts';
import { IDEMPOTENCY_HEADER } from '../../../shared/ledger.ts';
import { CURRENCIES } from '../../../shared/ledger-types.ts';
import { CURRENCY_ROUTES } from '../../../shared/contract/ledger.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { adminOperation, bulkAdminOperation, studentTransfer, type LedgerDeps } from './ledger.service.ts';
import { reverseOperation } from './reversal.service.ts';
import {
  estelecasHistory,
  estelecasRanking,
  liveOperations,
  operationAuthors,
  recentAdminMeritus,
  studentOperations,
  studentReceipt,
} from './ledger-queries.service.ts';

/** What a write knows besides its body; the service validates the key with the body. */
function writeContext(request: FastifyRequest) {
  return { idempotencyKey: request.headers[IDEMPOTENCY_HEADER], ip: request.ip };
}

/** A route whose request schemas only document it: its service validates the request with the same schemas. */
const documentedOnly = () => (value: unknown) => ({ value });

/** The body as sent, including when its schema refused it: the service validates it and records the refusal. */
function sentBody(request: FastifyRequest): Record<string, unknown> {
  return typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, unknown>) : {};
}

export async function ledgerRoutes(app: FastifyInstance, { database, events, settings }: AppDeps): Promise<void> {
  const deps: LedgerDeps = { db: database.db, events, settings };
  // Writes: the schemas document the request, and the service validates it, so a refused
  // attempt is recorded; the route does not validate it a second time.
  const write = { validatorCompiler: documentedOnly };

  for (const currency of CURRENCIES) {
    route(app, CURRENCY_ROUTES[currency].transfer, write, async (request, reply) => {
      const result = await studentTransfer(deps, studentOf(request), currency, request.body, writeContext(request));
      return reply.status(result.status as 201).send(result.body);
    });

    route(app, CURRENCY_ROUTES[currency].adminOperation, write, async (request, reply) => {
      const input = { ...sentBody(request), id: (request.params as { id?: unknown }).id };
      const result = await adminOperation(deps, adminOf(request), currency, input, writeContext(request));
      return reply.status(result.status as 201).send(result.body);
    });
  }

  route(app, routes.ledger.bulkOperation, write, async (request, reply) => {
    const result = await bulkAdminOperation(deps, adminOf(request), request.body, writeContext(request));
    return reply.status(result.status as 201).send(result.body);
  });

  route(app, routes.ledger.reversal, write, async (request, reply) => {
    const { id } = request.params as { id?: unknown };
    const result = await reverseOperation(deps, adminOf(request), id, request.body, writeContext(request));
    return reply.status(result.status as 201).send(result.body);
  });

  route(app, routes.ledger.export, async (request, reply) => {
    const { fileName, chunks } = await exportLedgerCsv(database.db, adminOf(request), {
      ip: request.ip,
      timeZone: (await settings.get()).school.timeZone,
    });
    return sendCsv(reply, fileName, chunks);
  });

  route(
    app,
    routes.ledger.myTransactions,
    async (request) =>
      (await studentOperations(database.db, studentOf(request).id, { currency: 'meritus', limit: request.query.limit })).items,
  );

  route(
    app,
    routes.ledger.myEstelecas,
    async (request) =>
      (await studentOperations(database.db, studentOf(request).id, { currency: 'estelecas', limit: request.query.limit })).items,
  );

  route(app, routes.ledger.myOperations, async (request) => studentOperations(database.db, studentOf(request).id, request.query));

  route(app, routes.ledger.myReceipt, async (request) => studentReceipt(database.db, studentOf(request).id, request.params.code));

  route(app, routes.ledger.myBudget, async (request) => awardBudget(database.db, adminOf(request), (await settings.get()).school.timeZone));

  route(app, routes.ledger.operationAuthors, async () => operationAuthors(database.db));

  // The staff's reads: a teacher's answer holds the students of their turmas only.
  const scopeOf = (request: FastifyRequest) => turmaScopeOf(adminOf(request));

  route(app, routes.ledger.liveOperations, async (request) => liveOperations(database.db, request.query, scopeOf(request)));

  route(app, routes.ledger.recentAdminMeritus, async (request) => recentAdminMeritus(database.db, request.query.limit, scopeOf(request)));

  route(app, routes.ledger.estelecasHistory, async (request) => estelecasHistory(database.db, request.query.limit, scopeOf(request)));

  route(app, routes.ledger.estelecasRanking, async (request) => estelecasRanking(database.db, scopeOf(request)));
}
