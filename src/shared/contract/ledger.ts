import { defineRoutes } from './route.ts';

/**
 * The ledger's writes, whose request schemas document the request: the service validates it with the same schemas, so
 * a refused attempt is recorded. Then the reads of operations.
 */
export const ledger = defineRoutes(['ledger'], {
  meritusTransfer: {
    method: 'POST',
    path: '/api/meritus/transfers',
    access: 'student',
    schemas: (s) => ({ headers: s.idempotencyHeaders, body: s.meritusTransferInput, response: { 201: s.operationResult } }),
  },
  estelecasTransfer: {
    method: 'POST',
    path: '/api/estelecas/transfers',
    access: 'student',
    schemas: (s) => ({ headers: s.idempotencyHeaders, body: s.estelecasTransferInput, response: { 201: s.operationResult } }),
  },
  meritusAdminOperation: {
    method: 'POST',
    path: '/api/admin/students/:id/meritus',
    access: 'award',
    schemas: (s) => ({
      params: s.studentUuidParam,
      headers: s.idempotencyHeaders,
      body: s.adminOperationInputs.meritus,
      response: { 201: s.operationResult },
    }),
  },
  estelecasAdminOperation: {
    method: 'POST',
    path: '/api/admin/students/:id/estelecas',
    access: 'award',
    schemas: (s) => ({
      params: s.studentUuidParam,
      headers: s.idempotencyHeaders,
      body: s.adminOperationInputs.estelecas,
      response: { 201: s.operationResult },
    }),
  },
  bulkOperation: {
    method: 'POST',
    path: '/api/admin/operations/bulk',
    access: 'award',
    schemas: (s) => ({ headers: s.idempotencyHeaders, body: s.bulkOperationInput, response: { 201: s.bulkOperationResult } }),
  },
  reversal: {
    method: 'POST',
    path: '/api/admin/operations/:id/reversal',
    access: 'award',
    schemas: (s) => ({
      params: s.entryIdParam,
      headers: s.idempotencyHeaders,
      body: s.reversalInput,
      response: { 201: s.reversalResult },
    }),
  },
  export: {
    method: 'GET',
    path: '/api/admin/ledger/export.csv',
    access: 'staffArea',
    answer: 'file',
    produces: ['text/csv'],
    schemas: (s) => ({ response: { 200: s.csvFile } }),
  },
  myTransactions: {
    method: 'GET',
    path: '/api/me/transactions',
    access: 'student',
    schemas: (s) => ({
      query: s.limitQuery(s.RECENT_TRANSACTIONS_LIMIT, 100),
      response: { 200: s.z.array(s.studentOperation) },
    }),
  },
  myEstelecas: {
    method: 'GET',
    path: '/api/me/estelecas',
    access: 'student',
    schemas: (s) => ({
      query: s.limitQuery(s.ESTELECAS_HISTORY_LIMIT, 100),
      response: { 200: s.z.array(s.studentOperation) },
    }),
  },
  myOperations: {
    method: 'GET',
    path: '/api/me/operations',
    access: 'student',
    schemas: (s) => ({ query: s.studentOperationsQuery, response: { 200: s.studentOperationsPage } }),
  },
  myReceipt: {
    method: 'GET',
    path: '/api/me/receipts/:code',
    access: 'student',
    description: "The Comprovante of one of the student's own transfers (sent or received), found by its short code.",
    schemas: (s) => ({ params: s.receiptCodeParam, response: { 200: s.transferReceipt } }),
  },
  myBudget: {
    method: 'GET',
    path: '/api/me/budget',
    access: 'award',
    schemas: (s) => ({ response: { 200: s.awardBudget } }),
  },
  liveOperations: {
    method: 'GET',
    path: '/api/admin/operations',
    access: 'staffArea',
    schemas: (s) => ({ query: s.liveOperationsQuery, response: { 200: s.z.array(s.liveOperation) } }),
  },
  operationAuthors: {
    method: 'GET',
    path: '/api/admin/operations/authors',
    access: 'staffArea',
    schemas: (s) => ({ response: { 200: s.z.array(s.operationAuthor) } }),
  },
  recentAdminMeritus: {
    method: 'GET',
    path: '/api/admin/meritus/recent',
    access: 'staffArea',
    schemas: (s) => ({
      query: s.limitQuery(s.ADMIN_RECENT_OPERATIONS_LIMIT, 100),
      response: { 200: s.z.array(s.ledgerEntryView) },
    }),
  },
  estelecasHistory: {
    method: 'GET',
    path: '/api/admin/estelecas/history',
    access: 'staffArea',
    schemas: (s) => ({
      query: s.limitQuery(s.ADMIN_ESTELECAS_HISTORY_LIMIT, 500),
      response: { 200: s.z.array(s.ledgerEntryView) },
    }),
  },
  estelecasRanking: {
    method: 'GET',
    path: '/api/admin/estelecas/ranking',
    access: 'staffArea',
    schemas: (s) => ({ response: { 200: s.z.array(s.publicStudent) } }),
  },
});

/** Each currency's writes, for the code that handles both currencies alike. */
export const CURRENCY_ROUTES = {
  meritus: { transfer: ledger.meritusTransfer, adminOperation: ledger.meritusAdminOperation },
  estelecas: { transfer: ledger.estelecasTransfer, adminOperation: ledger.estelecasAdminOperation },
} as const;
