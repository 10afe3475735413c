import { defineRoutes } from './route.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const reports = defineRoutes(
  { tags: ['reports'], load: async () => ({ reports: await import('../reports.ts'), responses: await import('../responses.ts') }) },
  {
    overview: {
      method: 'GET',
      path: '/api/admin/reports/overview',
      access: 'admin',
      schemas: ({ reports }) => ({ query: reports.reportQuery, response: { 200: reports.reportOverview } }),
    },
    timeline: {
      method: 'GET',
      path: '/api/admin/reports/timeline',
      access: 'admin',
      schemas: ({ reports }) => ({ query: reports.reportQuery, response: { 200: reports.reportTimeline } }),
    },
    reasons: {
      method: 'GET',
      path: '/api/admin/reports/reasons',
      access: 'admin',
      schemas: ({ reports }) => ({ query: reports.reportQuery, response: { 200: reports.reportReasons } }),
    },
    export: {
      method: 'GET',
      path: '/api/admin/reports/export',
      access: 'admin',
      answer: 'file',
      produces: ['text/csv', XLSX],
      schemas: ({ reports, responses }) => ({ query: reports.reportExportQuery, response: { 200: responses.reportFile } }),
    },
    statement: {
      method: 'GET',
      path: '/api/admin/reports/statement.pdf',
      access: 'admin',
      answer: 'file',
      produces: ['application/pdf'],
      schemas: ({ reports, responses }) => ({ query: reports.statementQuery, response: { 200: responses.reportFile } }),
    },
    certificate: {
      method: 'GET',
      path: '/api/admin/reports/certificate.pdf',
      access: 'admin',
      answer: 'file',
      produces: ['application/pdf'],
      schemas: ({ reports, responses }) => ({ query: reports.certificateQuery, response: { 200: responses.reportFile } }),
    },
  },
);
