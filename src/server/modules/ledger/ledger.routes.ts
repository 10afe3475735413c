import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { adminOf, principalOf, studentOf } from '../../plugins/auth.ts';
import { issueCode } from '../../../shared/validation.ts';
import {
  ADMIN_OPERATION_TYPES,
  adminOperationInput,
  bulkOperationInput,
  bulkOperationResult,
  CURRENCIES,
  estelecasTransferInput,
  IDEMPOTENCY_HEADER,
  idempotencyHeaders,
  ledgerEntryView,
  limitQuery,
  liveOperation,
  liveOperationsQuery,
  meritusTransferInput,
  operationResult,
  studentOperation,
  studentOperationsPage,
  studentOperationsQuery,
  type Currency,
  type LedgerType,
} from '../../../shared/ledger.ts';
import { publicStudent } from '../../../shared/auth.ts';
import { studentIdParam } from '../../../shared/admin-students.ts';
import {
  ADMIN_ESTELECAS_HISTORY_LIMIT,
  ADMIN_RECENT_OPERATIONS_LIMIT,
  ESTELECAS_HISTORY_LIMIT,
  RECENT_TRANSACTIONS_LIMIT,
} from '../../../shared/constants.ts';
import { adminOperation, bulkAdminOperation, recordRefusedAttempt, studentTransfer, type LedgerDeps } from './ledger.service.ts';
import { estelecasHistory, estelecasRanking, liveOperations, recentAdminMeritus, studentOperations } from './ledger-queries.service.ts';

function writeContext(request: FastifyRequest) {
  const key = request.headers[IDEMPOTENCY_HEADER];
  return { idempotencyKey: typeof key === 'string' ? key : undefined, ip: request.ip };
}

type LooseBody = { amount?: unknown; description?: unknown; recipientId?: unknown; type?: unknown; studentIds?: unknown } | undefined;

/**
 * A request refused by its schema (amount "10", 1.5, null…) never reaches the
 * service, but it is still a refused attempt the administrators should see.
 */
async function recordInvalidAttempt(
  deps: LedgerDeps,
  request: FastifyRequest,
  currency: Currency,
  type: LedgerType,
  parties: { fromStudentId?: string | null; toStudentId?: string | null },
): Promise<never> {
  const error = request.validationError!;
  const first = (error as unknown as { validation?: { message?: string }[] }).validation?.[0];
  const body = request.body as LooseBody;
  const principal = principalOf(request);
  await recordRefusedAttempt(deps, {
    actor: { kind: principal.role, id: principal.id, name: principal.name },
    currency,
    type,
    amount: body?.amount,
    description: typeof body?.description === 'string' ? body.description : undefined,
    ...parties,
    code: first ? issueCode(first) : 'validation',
    ip: request.ip,
  });
  throw error;
}

export async function ledgerRoutes(app: FastifyInstance, { database, events }: AppDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps: LedgerDeps = { db: database.db, events };
  const tags = ['ledger'];

  for (const currency of CURRENCIES) {
    const body = currency === 'meritus' ? meritusTransferInput : estelecasTransferInput;
    api.post(
      `/${currency}/transfers`,
      {
        config: { access: 'student' },
        attachValidation: true,
        schema: { tags, headers: idempotencyHeaders, body, response: { 201: operationResult } },
      },
      async (request, reply) => {
        const student = studentOf(request);
        if (request.validationError) {
          // Only a real id is kept as the other party: the live feed looks the parties up by id.
          const recipient = z.uuid().safeParse((request.body as LooseBody)?.recipientId).data;
          await recordInvalidAttempt(deps, request, currency, 'transfer', { fromStudentId: student.id, toStudentId: recipient ?? null });
        }
        const result = await studentTransfer(deps, student, currency, request.body, writeContext(request));
        return reply.status(result.status as 201).send(result.body);
      },
    );

    api.post(
      `/admin/students/:id/${currency}`,
      {
        config: { access: 'admin' },
        attachValidation: true,
        schema: {
          tags,
          params: studentIdParam,
          headers: idempotencyHeaders,
          body: adminOperationInput,
          response: { 201: operationResult },
        },
      },
      async (request, reply) => {
        const admin = adminOf(request);
        if (request.validationError) {
          // An unknown type is recorded as an addition: the live feed shows only real types.
          const type = z.enum(ADMIN_OPERATION_TYPES).safeParse((request.body as LooseBody)?.type).data;
          await recordInvalidAttempt(deps, request, currency, type ?? 'admin_add', {});
        }
        const result = await adminOperation(deps, admin, request.params.id, currency, request.body, writeContext(request));
        return reply.status(result.status as 201).send(result.body);
      },
    );
  }

  api.post(
    '/admin/operations/bulk',
    { config: { access: 'admin' }, schema: { tags, headers: idempotencyHeaders, body: bulkOperationInput, response: { 201: bulkOperationResult } } },
    async (request, reply) => {
      const result = await bulkAdminOperation(deps, adminOf(request), request.body, writeContext(request));
      return reply.status(result.status as 201).send(result.body);
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
