import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { adminOf, studentOf } from '../../plugins/auth.ts';
import { csvResponse, sendCsv } from '../../csv.ts';
import { exportLedgerCsv } from './ledger-export.service.ts';
import { adminOperationInputs, bulkOperationInput, bulkOperationResult, estelecasTransferInput, IDEMPOTENCY_HEADER, idempotencyHeaders, ledgerEntryView, limitQuery, liveOperation, liveOperationsQuery, meritusTransferInput, operationResult, studentOperation, studentOperationsPage, studentOperationsQuery } from '../../../shared/ledger.ts';
import { CURRENCIES } from '../../../shared/ledger-types.ts';
import { publicStudent } from '../../../shared/auth.ts';
import { studentUuidParam } from '../../../shared/admin-students.ts';
import {
  ADMIN_ESTELECAS_HISTORY_LIMIT,
  ADMIN_RECENT_OPERATIONS_LIMIT,
  ESTELECAS_HISTORY_LIMIT,
  RECENT_TRANSACTIONS_LIMIT,
} from '../../../shared/constants.ts';
import { adminOperation, bulkAdminOperation, studentTransfer, type LedgerDeps } from './ledger.service.ts';
import { estelecasHistory, estelecasRanking, liveOperations, recentAdminMeritus, studentOperations } from './ledger-queries.service.ts';

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
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps: LedgerDeps = { db: database.db, events, settings };
  const tags = ['ledger'];

  // Writes: the schemas document the request, and the service validates it, so a refused
  // attempt is recorded; the route does not validate it a second time.
  for (const currency of CURRENCIES) {
    const body = currency === 'meritus' ? meritusTransferInput : estelecasTransferInput;
    api.post(
      `/${currency}/transfers`,
      {
        config: { access: 'student' },
        validatorCompiler: documentedOnly,
        schema: { tags, headers: idempotencyHeaders, body, response: { 201: operationResult } },
      },
      async (request, reply) => {
        const result = await studentTransfer(deps, studentOf(request), currency, request.body, writeContext(request));
        return reply.status(result.status as 201).send(result.body);
      },
    );

    api.post(
      `/admin/students/:id/${currency}`,
      {
        config: { access: 'admin' },
        validatorCompiler: documentedOnly,
        schema: {
          tags,
          params: studentUuidParam,
          headers: idempotencyHeaders,
          body: adminOperationInputs[currency],
          response: { 201: operationResult },
        },
      },
      async (request, reply) => {
        const input = { ...sentBody(request), id: (request.params as { id?: unknown }).id };
        const result = await adminOperation(deps, adminOf(request), currency, input, writeContext(request));
        return reply.status(result.status as 201).send(result.body);
      },
    );
  }

  api.post(
    '/admin/operations/bulk',
    {
      config: { access: 'admin' },
      validatorCompiler: documentedOnly,
      schema: { tags, headers: idempotencyHeaders, body: bulkOperationInput, response: { 201: bulkOperationResult } },
    },
    async (request, reply) => {
      const result = await bulkAdminOperation(deps, adminOf(request), request.body, writeContext(request));
      return reply.status(result.status as 201).send(result.body);
    },
  );

  api.get(
    '/admin/ledger/export.csv',
    { config: { access: 'admin' }, schema: { tags, produces: ['text/csv'], response: { 200: csvResponse } } },
    async (request, reply) => {
      const { fileName, chunks } = await exportLedgerCsv(database.db, adminOf(request), {
        ip: request.ip,
        timeZone: (await settings.get()).school.timeZone,
      });
      return sendCsv(reply, fileName, chunks);
    },
  );

  api.get(
    '/me/transactions',
    { config: { access: 'student' }, schema: { tags, querystring: limitQuery(RECENT_TRANSACTIONS_LIMIT, 100), response: { 200: z.array(studentOperation) } } },
    async (request) =>
      (await studentOperations(database.db, studentOf(request).id, { currency: 'meritus', limit: request.query.limit })).items,
  );

  api.get(
    '/me/estelecas',
    { config: { access: 'student' }, schema: { tags, querystring: limitQuery(ESTELECAS_HISTORY_LIMIT, 100), response: { 200: z.array(studentOperation) } } },
    async (request) =>
      (await studentOperations(database.db, studentOf(request).id, { currency: 'estelecas', limit: request.query.limit })).items,
  );

  api.get(
    '/me/operations',
    { config: { access: 'student' }, schema: { tags, querystring: studentOperationsQuery, response: { 200: studentOperationsPage } } },
    async (request) => studentOperations(database.db, studentOf(request).id, request.query),
  );

  api.get(
    '/admin/operations',
    { config: { access: 'admin' }, schema: { tags, querystring: liveOperationsQuery, response: { 200: z.array(liveOperation) } } },
    async (request) => liveOperations(database.db, request.query.limit),
  );

  api.get(
    '/admin/meritus/recent',
    { config: { access: 'admin' }, schema: { tags, querystring: limitQuery(ADMIN_RECENT_OPERATIONS_LIMIT, 100), response: { 200: z.array(ledgerEntryView) } } },
    async (request) => recentAdminMeritus(database.db, request.query.limit),
  );

  api.get(
    '/admin/estelecas/history',
    { config: { access: 'admin' }, schema: { tags, querystring: limitQuery(ADMIN_ESTELECAS_HISTORY_LIMIT, 500), response: { 200: z.array(ledgerEntryView) } } },
    async (request) => estelecasHistory(database.db, request.query.limit),
  );

  api.get('/admin/estelecas/ranking', { config: { access: 'admin' }, schema: { tags, response: { 200: z.array(publicStudent) } } }, async () =>
    estelecasRanking(database.db),
  );
}
