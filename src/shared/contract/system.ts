import { defineRoutes } from './route.ts';

/** Health and the API's own description, then Painel Backend and Debug & Diagnóstico (administrators only). */
export const system = defineRoutes(
  { tags: ['system'], load: async () => ({ system: await import('../system.ts'), responses: await import('../responses.ts') }) },
  {
    health: { method: 'GET', path: '/api/health', access: 'public', schemas: ({ system }) => ({ response: { 200: system.healthStatus } }) },
    openApi: { method: 'GET', path: '/api/openapi.json', access: 'public', hide: true },
    overview: { method: 'GET', path: '/api/admin/system/overview', access: 'admin', schemas: ({ system }) => ({ response: { 200: system.systemOverview } }) },
    entityPage: {
      method: 'GET',
      path: '/api/admin/system/entities/:entity',
      access: 'admin',
      schemas: ({ system }) => ({ params: system.entityParams, query: system.entityQuery, response: { 200: system.entityPage } }),
    },
    entityExport: {
      method: 'GET',
      path: '/api/admin/system/entities/:entity/export.csv',
      access: 'admin',
      answer: 'file',
      produces: ['text/csv'],
      schemas: ({ system, responses }) => ({ params: system.entityParams, query: system.entityExportQuery, response: { 200: responses.csvFile } }),
    },
    monitoring: { method: 'GET', path: '/api/admin/system/monitoring', access: 'admin', schemas: ({ system }) => ({ response: { 200: system.monitoringSnapshot } }) },
    configuration: {
      method: 'GET',
      path: '/api/admin/system/configuration',
      access: 'admin',
      schemas: ({ system }) => ({ response: { 200: system.configurationList } }),
    },
    diagnosticLogs: {
      method: 'GET',
      path: '/api/admin/diagnostics/logs',
      access: 'admin',
      schemas: ({ system }) => ({ query: system.diagnosticLogsQuery, response: { 200: system.diagnosticLogList } }),
    },
    clearLogs: { method: 'DELETE', path: '/api/admin/diagnostics/logs', access: 'admin', schemas: ({ system }) => ({ response: { 200: system.clearLogsResult } }) },
    runDiagnostics: { method: 'POST', path: '/api/admin/diagnostics/run', access: 'admin', schemas: ({ system }) => ({ response: { 200: system.diagnosticRun } }) },
    fixAdministrators: {
      method: 'POST',
      path: '/api/admin/diagnostics/fixes/administrators',
      access: 'admin',
      schemas: ({ system }) => ({ response: { 200: system.fixAdministratorsResult } }),
    },
    fixPreview: {
      method: 'GET',
      path: '/api/admin/diagnostics/fixes/:fix/preview',
      access: 'admin',
      schemas: ({ system }) => ({ params: system.fixParams, response: { 200: system.fixPreview } }),
    },
    applyFix: {
      method: 'POST',
      path: '/api/admin/diagnostics/fixes/:fix',
      access: 'admin',
      schemas: ({ system }) => ({ params: system.fixParams, body: system.fixApplyInput, response: { 200: system.fixResult } }),
    },
  },
);
