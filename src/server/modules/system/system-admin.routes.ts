import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { adminOf } from '../../plugins/auth.ts';
import { sendCsv } from '../../csv.ts';
import { configurationEntries, systemOverview, type SystemDeps } from './backend.service.ts';
import { entityPage, exportEntityCsv } from './entities.service.ts';
import { startMonitor } from './monitoring.service.ts';
import { applyFix, clearLogs, fixAdministrators, listLogs, previewFix, runDiagnostics } from './diagnostics.service.ts';

/** Painel Backend and Debug & Diagnóstico: administrators only. */
export async function systemAdminRoutes(app: FastifyInstance, { config, database, settings, storage }: AppDeps): Promise<void> {
  const deps: SystemDeps = { config, database, metrics: app.metrics, settings, storage };
  const monitor = startMonitor(database, app.metrics);
  app.addHook('onClose', async () => monitor.close());
  const system = routes.system;

  route(app, system.overview, async () => systemOverview(deps));

  route(app, system.entityPage, async (request) => entityPage(database.db, request.params.entity, request.query));

  route(app, system.entityExport, async (request, reply) => {
    const { timeZone } = (await settings.get()).school;
    const { fileName, chunks } = await exportEntityCsv(database.db, adminOf(request), request.params.entity, request.query.q, {
      ip: request.ip,
      timeZone,
    });
    return sendCsv(reply, fileName, chunks);
  });

  route(app, system.monitoring, async () => monitor.snapshot());

  route(app, system.configuration, async () => ({ entries: configurationEntries(config) }));

  route(app, system.diagnosticLogs, async (request) => listLogs(database.db, request.query.category));

  route(app, system.clearLogs, async (request) => clearLogs(database.db, adminOf(request), { ip: request.ip }));

  route(app, system.runDiagnostics, async (request) => runDiagnostics(deps, adminOf(request)));

  route(app, system.fixAdministrators, async (request) => fixAdministrators(deps, adminOf(request), { ip: request.ip }));

  route(app, system.fixPreview, async (request) => previewFix(deps, request.params.fix));

  route(app, system.applyFix, async (request) =>
    applyFix(deps, adminOf(request), request.params.fix, request.body.keys, { ip: request.ip }),
  );
}
