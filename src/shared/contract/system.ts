import { defineRoutes } from './route.ts';

/** Health and the API's own description, then Painel Backend and Debug & Diagnóstico (administrators only). */
export const system = defineRoutes(['system'], {
  health: { method: 'GET', path: '/api/health', access: 'public', schemas: (s) => ({ response: { 200: s.healthStatus } }) },
  openApi: { method: 'GET', path: '/api/openapi.json', access: 'public', hide: true },
  overview: {
    method: 'GET',
    path: '/api/admin/system/overview',
    access: 'manageSchool',
    schemas: (s) => ({ response: { 200: s.systemOverview } }),
  },
  entityPage: {
    method: 'GET',
    path: '/api/admin/system/entities/:entity',
    access: 'manageSchool',
    schemas: (s) => ({ params: s.entityParams, query: s.entityQuery, response: { 200: s.entityPage } }),
  },
  entityExport: {
    method: 'GET',
    path: '/api/admin/system/entities/:entity/export.csv',
    access: 'manageSchool',
    answer: 'file',
    produces: ['text/csv'],
    schemas: (s) => ({ params: s.entityParams, query: s.entityExportQuery, response: { 200: s.csvFile } }),
  },
  monitoring: {
    method: 'GET',
    path: '/api/admin/system/monitoring',
    access: 'manageSchool',
    schemas: (s) => ({ response: { 200: s.monitoringSnapshot } }),
  },
  configuration: {
    method: 'GET',
    path: '/api/admin/system/configuration',
    access: 'manageSchool',
    schemas: (s) => ({ response: { 200: s.configurationList } }),
  },
  diagnosticLogs: {
    method: 'GET',
    path: '/api/admin/diagnostics/logs',
    access: 'manageSchool',
    schemas: (s) => ({ query: s.diagnosticLogsQuery, response: { 200: s.diagnosticLogList } }),
  },
  clearLogs: {
    method: 'DELETE',
    path: '/api/admin/diagnostics/logs',
    access: 'manageSchool',
    schemas: (s) => ({ response: { 200: s.clearLogsResult } }),
  },
  runDiagnostics: {
    method: 'POST',
    path: '/api/admin/diagnostics/run',
    access: 'manageSchool',
    schemas: (s) => ({ response: { 200: s.diagnosticRun } }),
  },
  fixAdministrators: {
    method: 'POST',
    path: '/api/admin/diagnostics/fixes/administrators',
    access: 'manageSchool',
    schemas: (s) => ({ response: { 200: s.fixAdministratorsResult } }),
  },
  fixPreview: {
    method: 'GET',
    path: '/api/admin/diagnostics/fixes/:fix/preview',
    access: 'manageSchool',
    schemas: (s) => ({ params: s.fixParams, response: { 200: s.fixPreview } }),
  },
  applyFix: {
    method: 'POST',
    path: '/api/admin/diagnostics/fixes/:fix',
    access: 'manageSchool',
    schemas: (s) => ({ params: s.fixParams, body: s.fixApplyInput, response: { 200: s.fixResult } }),
  },
});
