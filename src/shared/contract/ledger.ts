import { defineRoutes } from './route.ts';

const load = async () => ({
  z: (await import('zod')).z,
  ledger: await import('../ledger.ts'),
  constants: await import('../constants.ts'),
  auth: await import('../auth.ts'),
  adminStudents: await import('../admin-students.ts'),
  responses: await import('../responses.ts'),
});

/**
 * The ledger's writes, whose request schemas document the request: the service validates it with the same schemas, so
 * a refused attempt is recorded. Then the reads of operations.
 */
export const ledger = defineRoutes(
  { tags: ['ledger'], load },
  {
    meritusTransfer: {
      method: 'POST',
      path: '/api/meritus/transfers',
      access: 'student',
      schemas: ({ ledger }) => ({ headers: ledger.idempotencyHeaders, body: ledger.meritusTransferInput, response: { 201: ledger.operationResult } }),
    },
    estelecasTransfer: {
      method: 'POST',
      path: '/api/estelecas/transfers',
      access: 'student',
      schemas: ({ ledger }) => ({ headers: ledger.idempotencyHeaders, body: ledger.estelecasTransferInput, response: { 201: ledger.operationResult } }),
    },
    meritusAdminOperation: {
      method: 'POST',
      path: '/api/admin/students/:id/meritus',
      access: 'admin',
      schemas: ({ ledger, adminStudents }) => ({
        params: adminStudents.studentUuidParam,
        headers: ledger.idempotencyHeaders,
        body: ledger.adminOperationInputs.meritus,
        response: { 201: ledger.operationResult },
      }),
    },
    estelecasAdminOperation: {
      method: 'POST',
      path: '/api/admin/students/:id/estelecas',
      access: 'admin',
      schemas: ({ ledger, adminStudents }) => ({
        params: adminStudents.studentUuidParam,
        headers: ledger.idempotencyHeaders,
        body: ledger.adminOperationInputs.estelecas,
        response: { 201: ledger.operationResult },
      }),
    },
    bulkOperation: {
      method: 'POST',
      path: '/api/admin/operations/bulk',
      access: 'admin',
      schemas: ({ ledger }) => ({ headers: ledger.idempotencyHeaders, body: ledger.bulkOperationInput, response: { 201: ledger.bulkOperationResult } }),
    },
    export: {
      method: 'GET',
      path: '/api/admin/ledger/export.csv',
      access: 'admin',
      answer: 'file',
      produces: ['text/csv'],
      schemas: ({ responses }) => ({ response: { 200: responses.csvFile } }),
    },
    myTransactions: {
      method: 'GET',
      path: '/api/me/transactions',
      access: 'student',
      schemas: ({ z, ledger, constants }) => ({
        query: ledger.limitQuery(constants.RECENT_TRANSACTIONS_LIMIT, 100),
        response: { 200: z.array(ledger.studentOperation) },
      }),
    },
    myEstelecas: {
      method: 'GET',
      path: '/api/me/estelecas',
      access: 'student',
      schemas: ({ z, ledger, constants }) => ({
        query: ledger.limitQuery(constants.ESTELECAS_HISTORY_LIMIT, 100),
        response: { 200: z.array(ledger.studentOperation) },
      }),
    },
    myOperations: {
      method: 'GET',
      path: '/api/me/operations',
      access: 'student',
      schemas: ({ ledger }) => ({ query: ledger.studentOperationsQuery, response: { 200: ledger.studentOperationsPage } }),
    },
    liveOperations: {
      method: 'GET',
      path: '/api/admin/operations',
      access: 'admin',
      schemas: ({ z, ledger }) => ({ query: ledger.liveOperationsQuery, response: { 200: z.array(ledger.liveOperation) } }),
    },
    recentAdminMeritus: {
      method: 'GET',
      path: '/api/admin/meritus/recent',
      access: 'admin',
      schemas: ({ z, ledger, constants }) => ({
        query: ledger.limitQuery(constants.ADMIN_RECENT_OPERATIONS_LIMIT, 100),
        response: { 200: z.array(ledger.ledgerEntryView) },
      }),
    },
    estelecasHistory: {
      method: 'GET',
      path: '/api/admin/estelecas/history',
      access: 'admin',
      schemas: ({ z, ledger, constants }) => ({
        query: ledger.limitQuery(constants.ADMIN_ESTELECAS_HISTORY_LIMIT, 500),
        response: { 200: z.array(ledger.ledgerEntryView) },
      }),
    },
    estelecasRanking: {
      method: 'GET',
      path: '/api/admin/estelecas/ranking',
      access: 'admin',
      schemas: ({ z, auth }) => ({ response: { 200: z.array(auth.publicStudent) } }),
    },
  },
);

/** Each currency's writes, for the code that handles both currencies alike. */
export const CURRENCY_ROUTES = {
  meritus: { transfer: ledger.meritusTransfer, adminOperation: ledger.meritusAdminOperation },
  estelecas: { transfer: ledger.estelecasTransfer, adminOperation: ledger.estelecasAdminOperation },
} as const;
