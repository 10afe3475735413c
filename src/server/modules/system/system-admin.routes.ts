import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { adminOf } from '../../plugins/auth.ts';
import { csvResponse, sendCsv } from '../../csv.ts';
import {
  clearLogsResult,
  configurationList,
  diagnosticLogList,
  diagnosticLogsQuery,
  diagnosticRun,
  entityExportQuery,
  entityPage as entityPageSchema,
  entityParams,
  entityQuery,
  fixAdministratorsResult,
  fixApplyInput,
  fixParams,
  fixPreview,
  fixResult,
  monitoringSnapshot,
  systemOverview as systemOverviewSchema,
} from '../../../shared/system.ts';
import { configurationEntries, systemOverview, type SystemDeps } from './backend.service.ts';
import { entityPage, exportEntityCsv } from './entities.service.ts';
import { startMonitor } from './monitoring.service.ts';
import { applyFix, clearLogs, fixAdministrators, listLogs, previewFix, runDiagnostics } from './diagnostics.service.ts';

/** Painel Backend and Debug & Diagnóstico: administrators only. */
export async function systemAdminRoutes(app: FastifyInstance, { config, database, settings, storage }: AppDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps: SystemDeps = { config, database, metrics: app.metrics, settings, storage };
  const monitor = startMonitor(database, app.metrics);
  app.addHook('onClose', async () => monitor.close());
  const admin = { access: 'admin' as const };
  const tags = ['system'];

  api.get('/admin/system/overview', { config: admin, schema: { tags, response: { 200: systemOverviewSchema } } }, async () => systemOverview(deps));

  api.get(
    '/admin/system/entities/:entity',
    { config: admin, schema: { tags, params: entityParams, querystring: entityQuery, response: { 200: entityPageSchema } } },
    async (request) => entityPage(database.db, request.params.entity, request.query),
  );

  api.get(
    '/admin/system/entities/:entity/export.csv',
    { config: admin, schema: { tags, params: entityParams, querystring: entityExportQuery, produces: ['text/csv'], response: { 200: csvResponse } } },
    async (request, reply) => {
      const { timeZone } = (await settings.get()).school;
      const { fileName, chunks } = await exportEntityCsv(database.db, adminOf(request), request.params.entity, request.query.q, { ip: request.ip, timeZone });
      return sendCsv(reply, fileName, chunks);
    },
  );

  api.get('/admin/system/monitoring', { config: admin, schema: { tags, response: { 200: monitoringSnapshot } } }, async () => monitor.snapshot());

  api.get('/admin/system/configuration', { config: admin, schema: { tags, response: { 200: configurationList } } }, async () => ({
    entries: configurationEntries(config),
  }));

  api.get(
    '/admin/diagnostics/logs',
    { config: admin, schema: { tags, querystring: diagnosticLogsQuery, response: { 200: diagnosticLogList } } },
    async (request) => listLogs(database.db, request.query.category),
  );

  api.delete('/admin/diagnostics/logs', { config: admin, schema: { tags, response: { 200: clearLogsResult } } }, async (request) =>
    clearLogs(database.db, adminOf(request), { ip: request.ip }),
  );

  api.post('/admin/diagnostics/run', { config: admin, schema: { tags, response: { 200: diagnosticRun } } }, async (request) =>
    runDiagnostics(deps, adminOf(request)),
  );

  api.post('/admin/diagnostics/fixes/administrators', { config: admin, schema: { tags, response: { 200: fixAdministratorsResult } } }, async (request) =>
    fixAdministrators(deps, adminOf(request), { ip: request.ip }),
  );

  api.get(
    '/admin/diagnostics/fixes/:fix/preview',
    { config: admin, schema: { tags, params: fixParams, response: { 200: fixPreview } } },
    async (request) => previewFix(deps, request.params.fix),
  );

  api.post(
    '/admin/diagnostics/fixes/:fix',
    { config: admin, schema: { tags, params: fixParams, body: fixApplyInput, response: { 200: fixResult } } },
    async (request) => applyFix(deps, adminOf(request), request.params.fix, request.body.keys, { ip: request.ip }),
  );
}
