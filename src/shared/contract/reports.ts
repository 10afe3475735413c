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
  // End of bimestre (issue 36): one file for every table, a turma's report and statements, the period's top students' certificates.
  workbook: {
    method: 'GET',
    path: '/api/admin/reports/workbook.xlsx',
    access: 'staffArea',
    answer: 'file',
    produces: [XLSX],
    description: 'Todas as tabelas do relatório numa planilha, uma aba por tabela.',
    schemas: (s) => ({ query: s.reportWorkbookQuery, response: { 200: s.reportFile } }),
  },
  turmaReport: {
    method: 'GET',
    path: '/api/admin/reports/turma.pdf',
    access: 'staffArea',
    answer: 'file',
    produces: ['application/pdf'],
    description: 'Relatório da turma no período: indicadores e uma linha por aluno.',
    schemas: (s) => ({ query: s.turmaDocumentQuery, response: { 200: s.reportFile } }),
  },
  turmaStatements: {
    method: 'GET',
    path: '/api/admin/reports/statements.pdf',
    access: 'staffArea',
    answer: 'file',
    produces: ['application/pdf'],
    description: 'Os extratos de todos os alunos da turma no período, cada um a partir de uma nova página.',
    schemas: (s) => ({ query: s.turmaDocumentQuery, response: { 200: s.reportFile } }),
  },
  topCertificates: {
    method: 'GET',
    path: '/api/admin/reports/top-certificates.pdf',
    access: 'staffArea',
    answer: 'file',
    produces: ['application/pdf'],
    description: 'Certificados dos alunos que mais ganharam Méritus no período, da turma ou da escola.',
    schemas: (s) => ({ query: s.topCertificatesQuery, response: { 200: s.reportFile } }),
  },
});
