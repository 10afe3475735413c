import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { adminOf } from '../../plugins/auth.ts';
import {
  certificateQuery,
  reportExportQuery,
  reportOverview,
  reportQuery,
  reportReasons,
  reportTimeline,
  REPORTS_API,
  statementQuery,
} from '../../../shared/reports.ts';
import { reportOverview as overviewOf, reportReasons as reasonsOf, reportScope, reportTimeline as timelineOf } from './reports.service.ts';
import { exportReportTable, type ExportFile } from './report-exports.ts';
import { certificatePdf, statementPdf } from './report-pdfs.ts';
import { contentDisposition } from '../../storage/serve-object.ts';

const fileResponse = z.custom<string | Buffer>((value) => typeof value === 'string' || Buffer.isBuffer(value)).describe('Arquivo (CSV, XLSX ou PDF)');

/** Sends a generated file as a download that no cache keeps. */
function sendFile(reply: FastifyReply, file: ExportFile) {
  return reply.type(file.contentType).header('Content-Disposition', contentDisposition('attachment', file.fileName)).header('Cache-Control', 'no-store').send(file.body);
}

/** Paths of REPORTS_API without the /api prefix the app registers them under. */
export async function reportsRoutes(app: FastifyInstance, { database, settings, storage }: AppDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = database.db;
  const tags = ['reports'];
  const config = { access: 'admin' } as const;

  api.get(REPORTS_API.overview, { config, schema: { tags, querystring: reportQuery, response: { 200: reportOverview } } }, async (request) =>
    overviewOf(db, await reportScope(settings, request.query)),
  );

  api.get(REPORTS_API.timeline, { config, schema: { tags, querystring: reportQuery, response: { 200: reportTimeline } } }, async (request) =>
    timelineOf(db, await reportScope(settings, request.query)),
  );

  api.get(REPORTS_API.reasons, { config, schema: { tags, querystring: reportQuery, response: { 200: reportReasons } } }, async (request) =>
    reasonsOf(db, await reportScope(settings, request.query)),
  );

  api.get(
    REPORTS_API.export,
    { config, schema: { tags, querystring: reportExportQuery, produces: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'], response: { 200: fileResponse } } },
    async (request, reply) => {
      const { table, format, ...filters } = request.query;
      const file = await exportReportTable(db, adminOf(request), await reportScope(settings, filters), table, format, { ip: request.ip });
      return sendFile(reply, file);
    },
  );

  api.get(
    REPORTS_API.statement,
    { config, schema: { tags, querystring: statementQuery, produces: ['application/pdf'], response: { 200: fileResponse } } },
    async (request, reply) => {
      const { student, ...period } = request.query;
      const scope = await reportScope(settings, { ...period, turma: [] });
      return sendFile(reply, await statementPdf(db, adminOf(request), scope, student, { ip: request.ip }));
    },
  );

  api.get(
    REPORTS_API.certificate,
    { config, schema: { tags, querystring: certificateQuery, produces: ['application/pdf'], response: { 200: fileResponse } } },
    async (request, reply) => sendFile(reply, await certificatePdf({ db, settings, storage }, adminOf(request), request.query.tag, { ip: request.ip })),
  );
}
