import { defineRoutes } from './route.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const reports = defineRoutes(['reports'], {
  overview: {
    method: 'GET',
    path: '/api/admin/reports/overview',
    access: 'staffArea',
    schemas: (s) => ({ query: s.reportQuery, response: { 200: s.reportOverview } }),
  },
  timeline: {
    method: 'GET',
    path: '/api/admin/reports/timeline',
    access: 'staffArea',
    schemas: (s) => ({ query: s.reportQuery, response: { 200: s.reportTimeline } }),
  },
  reasons: {
    method: 'GET',
    path: '/api/admin/reports/reasons',
    access: 'staffArea',
    schemas: (s) => ({ query: s.reportQuery, response: { 200: s.reportReasons } }),
  },
  store: {
    method: 'GET',
    path: '/api/admin/reports/store',
    access: 'staffArea',
    description: 'A Loja no período: gastos por item (menos devoluções), itens esgotados e pedidos pendentes.',
    schemas: (s) => ({ query: s.reportQuery, response: { 200: s.reportStore } }),
  },
  export: {
    method: 'GET',
    path: '/api/admin/reports/export',
    access: 'staffArea',
    answer: 'file',
    produces: ['text/csv', XLSX],
    schemas: (s) => ({ query: s.reportExportQuery, response: { 200: s.reportFile } }),
  },
  statement: {
    method: 'GET',
    path: '/api/admin/reports/statement.pdf',
    access: 'staffArea',
    answer: 'file',
    produces: ['application/pdf'],
    schemas: (s) => ({ query: s.statementQuery, response: { 200: s.reportFile } }),
  },
  certificate: {
    method: 'GET',
    path: '/api/admin/reports/certificate.pdf',
    access: 'staffArea',
    answer: 'file',
    produces: ['application/pdf'],
    schemas: (s) => ({ query: s.certificateQuery, response: { 200: s.reportFile } }),
  },
});
