import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { adminOf } from '../../plugins/auth.ts';
import { readReport, reportOverview, reportReasons, reportStore, reportTimeline } from './reports.service.ts';
import { exportReportTable, exportReportWorkbook } from './report-exports.ts';
import { certificatePdf, statementPdf, topCertificatesPdf, turmaStatementsPdf } from './report-pdfs.ts';
import { turmaReportPdf } from './report-turma.ts';
import { sendFile } from '../../send-file.ts';

export async function reportsRoutes(app: FastifyInstance, { database, settings, storage }: AppDeps): Promise<void> {
  const db = database.db;
  const deps = { db, settings };

  route(app, routes.reports.overview, async (request) => readReport(deps, adminOf(request), request.query, reportOverview));

  route(app, routes.reports.timeline, async (request) => readReport(deps, adminOf(request), request.query, reportTimeline));

  route(app, routes.reports.reasons, async (request) => readReport(deps, adminOf(request), request.query, reportReasons));

  route(app, routes.reports.store, async (request) => readReport(deps, adminOf(request), request.query, reportStore));

  route(app, routes.reports.export, async (request, reply) =>
    sendFile(reply, await exportReportTable(deps, adminOf(request), request.query, { ip: request.ip })),
  );

  route(app, routes.reports.statement, async (request, reply) =>
    sendFile(reply, await statementPdf(deps, adminOf(request), request.query, { ip: request.ip })),
  );

  route(app, routes.reports.certificate, async (request, reply) =>
    sendFile(reply, await certificatePdf({ db, settings, storage }, adminOf(request), request.query.tag, { ip: request.ip })),
  );

  route(app, routes.reports.workbook, async (request, reply) =>
    sendFile(reply, await exportReportWorkbook(deps, adminOf(request), request.query, { ip: request.ip })),
  );

  route(app, routes.reports.turmaReport, async (request, reply) =>
    sendFile(reply, await turmaReportPdf(deps, adminOf(request), request.query, { ip: request.ip })),
  );

  route(app, routes.reports.turmaStatements, async (request, reply) =>
    sendFile(reply, await turmaStatementsPdf(deps, adminOf(request), request.query, { ip: request.ip })),
  );

  route(app, routes.reports.topCertificates, async (request, reply) =>
    sendFile(reply, await topCertificatesPdf({ db, settings, storage }, adminOf(request), request.query, { ip: request.ip })),
  );
}
