import ExcelJS from 'exceljs';
import type { Db } from '../../db/client.ts';
import { toCsv } from '../../csv.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { auditActor, turmaScopeOf, type AdminActor } from '../auth/actor.ts';
import { formatDate } from '../../../shared/format.ts';
import {
  FIGURE_DEFINITIONS,
  FIGURE_IDS,
  FIGURE_LABELS,
  formatDayRange,
  REPORT_TABLE_FILES,
  REPORT_TABLE_SHEETS,
  REPORT_TABLE_TITLES,
  REPORT_TABLES,
  type ReportExportQuery,
  type ReportQuery,
  type ReasonRow,
  type ReportTable,
} from '../../../shared/reports.ts';
import { EXPORT_HEADINGS as H, periodLine, REPORT_TEXTS } from '../../../shared/report-texts.ts';
import { TAG_NAMES } from '../../../shared/constants.ts';
import { fileNamePart } from '../../pdf.ts';
import { studentLines } from './report-overview.ts';
import { CURRENCY_LABELS } from '../../../shared/ledger-texts.ts';
import { STORE_CATEGORY_LABELS } from '../../../shared/store.ts';
import type { ReportScope } from './report-school.ts';
import { reportOverview, reportReasons, reportScope, reportStore, reportTimeline, type ReportDeps } from './reports.service.ts';

type Cell = string | number | null;
/** `date` cells hold a calendar day (aaaa-mm-dd); `decimal` ones a number with one decimal. */
type ColumnKind = 'text' | 'integer' | 'decimal' | 'date';
export type ExportTable = { title: string; columns: { header: string; kind: ColumnKind }[]; rows: Cell[][] };

const text = (header: string) => ({ header, kind: 'text' as const });
const integer = (header: string) => ({ header, kind: 'integer' as const });
const decimal = (header: string) => ({ header, kind: 'decimal' as const });

function reasonTable(title: string, rows: ReasonRow[]): ExportTable {
  return {
    title,
    columns: [text(H.reason), text(H.savedPreset), integer(H.operations), integer(H.meritus), integer(H.estelecas)],
    rows: rows.map((row) => [row.description, row.preset ? H.yes : H.no, row.operations, row.meritus, row.estelecas]),
  };
}

/** The reads the tables come from, each made once however many tables use it (the workbook writes them all). */
type ReportReads = {
  [K in 'overview' | 'timeline' | 'reasons' | 'store' | 'students']: () => ReturnType<(typeof READS)[K]>;
};
const READS = {
  overview: reportOverview,
  timeline: reportTimeline,
  reasons: reportReasons,
  store: reportStore,
  students: async (db: Db, scope: ReportScope) => (await studentLines(db, scope)).lines,
};

function reportReads(db: Db, scope: ReportScope): ReportReads {
  const once = <T>(read: (db: Db, scope: ReportScope) => Promise<T>) => {
    let answer: Promise<T> | undefined;
    return () => (answer ??= read(db, scope));
  };
  return {
    overview: once(READS.overview),
    timeline: once(READS.timeline),
    reasons: once(READS.reasons),
    store: once(READS.store),
    students: once(READS.students),
  };
}

/** One table of the reports screen, as its export writes it. */
async function reportTable(reads: ReportReads, scope: ReportScope, table: ReportTable): Promise<ExportTable> {
  const title = REPORT_TABLE_TITLES[table];
  const { period } = scope;
  switch (table) {
    case 'figures': {
      const { figures } = await reads.overview();
      return {
        title,
        columns: [
          text(H.figure),
          decimal(H.inPeriod(formatDayRange(period.from, period.to))),
          decimal(H.previousPeriod(formatDayRange(period.previousFrom, period.previousTo))),
          decimal(H.change),
          text(H.definition),
        ],
        rows: FIGURE_IDS.map((id) => {
          const { current, previous } = figures[id];
          const label = id === 'participation' ? H.inPercent(FIGURE_LABELS[id]) : FIGURE_LABELS[id];
          return [label, current, previous, Math.round((current - previous) * 10) / 10, FIGURE_DEFINITIONS[id]];
        }),
      };
    }
    case 'timeline': {
      const { points } = await reads.timeline();
      return {
        title,
        columns: [
          { header: period.bucket === 'day' ? H.day : H.weekStart, kind: 'date' },
          integer(H.meritusAwarded),
          integer(H.meritusRemoved),
          integer(H.meritusTransferred),
          integer(H.meritusSpent),
        ],
        rows: points.map((point) => [point.start, point.awarded, point.removed, point.transferred, point.spent]),
      };
    }
    case 'turmas': {
      const { turmas } = await reads.overview();
      return {
        title,
        columns: [
          text(H.turma),
          integer(H.students),
          integer(H.meritusAwarded),
          integer(H.meritusRemoved),
          integer(H.meritusTransferred),
          integer(H.meritusSpent),
          integer(H.estelecasSpent),
          integer(H.balanceAtEnd),
          decimal(H.averageBalance),
          integer(H.participants),
          decimal(H.participation),
        ],
        rows: turmas.map((row) => [
          row.turma,
          row.students,
          row.awarded,
          row.removed,
          row.transferred,
          row.spent,
          row.estelecasSpent,
          row.balance,
          row.averageBalance,
          row.participants,
          row.participation,
        ]),
      };
    }
    case 'balances': {
      const { balances } = await reads.overview();
      return {
        title,
        columns: [text(H.balanceRange), integer(H.minimum), integer(H.maximum), integer(H.students)],
        rows: balances.map((row) => [row.label, row.min, row.max, row.students]),
      };
    }
    case 'awards':
    case 'penalties': {
      const reasons = await reads.reasons();
      return reasonTable(title, table === 'awards' ? reasons.awards : reasons.penalties);
    }
    case 'store': {
      const { items } = await reads.store();
      return {
        title,
        columns: [
          text(H.item),
          text(H.category),
          text(H.currency),
          integer(H.units),
          integer(H.spent),
          integer(H.refunded),
          text(H.stockLeft),
          integer(H.pendingOrders),
        ],
        rows: items.map((item) => [
          item.name,
          STORE_CATEGORY_LABELS[item.category],
          CURRENCY_LABELS[item.currency],
          item.units,
          item.spent,
          item.refunded,
          item.stockLeft === null ? H.unlimited : item.stockLeft === 0 ? H.soldOut : String(item.stockLeft),
          item.pendingOrders,
        ]),
      };
    }
    case 'risers': {
      const { risers } = await reads.overview();
      return {
        title,
        columns: [
          integer(H.position),
          text(H.studentId),
          text(H.name),
          text(H.turma),
          integer(H.startBalance),
          integer(H.endBalance),
          integer(H.balanceChange),
        ],
        rows: risers.map((row, index) => [index + 1, row.studentId, row.name, row.grade, row.start, row.end, row.change]),
      };
    }
    case 'students': {
      const lines = await reads.students();
      return {
        title,
        columns: [
          text(H.studentId),
          text(H.name),
          text(H.turma),
          integer(H.startBalance),
          integer(H.earned),
          integer(H.removed),
          integer(H.received),
          integer(H.sent),
          integer(H.spentInStore),
          integer(H.endBalance),
          integer(H.estelecasAtEnd),
          text(H.tagsInPeriod),
          text(H.status),
        ],
        rows: lines.map((line) => [
          line.studentId,
          line.name,
          line.turma,
          line.start,
          line.awarded,
          line.removed,
          line.received,
          line.sent,
          line.spent,
          line.end,
          line.estelecas,
          line.tags.map((kind) => TAG_NAMES[kind]).join(', '),
          line.left ? H.left : H.enrolled,
        ]),
      };
    }
  }
}

/** The lines above a table, inside its file: the table, then the school, the turmas and the period. */
function headingOf(scope: ReportScope, table: ExportTable): string[] {
  return [table.title, `${scope.school.name} · ${REPORT_TEXTS.turmasLine(scope.view.turmas)} · ${periodLine(scope.period)}`];
}

/** The turmas of a report in its file name: each one's name (up to three), their count, or all of them. */
function turmasFilePart(scope: ReportScope): string {
  const names = scope.view.turmas;
  if (names.length === 0) return REPORT_TEXTS.allTurmasFilePart;
  return names.length <= 3 ? names.map(fileNamePart).join('+') : REPORT_TEXTS.manyTurmasFilePart(names.length);
}

const decimalComma = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1, useGrouping: false });

/** The table as CSV under its heading lines and a blank one: decimals with a comma and days as dd/mm/aaaa, as Excel in Brazil reads them. */
function tableCsv(table: ExportTable, heading: string[]): string {
  return toCsv(
    [],
    [
      ...heading.map((line) => [line]),
      [],
      table.columns.map((column) => column.header),
      ...table.rows.map((row) =>
        row.map((cell, index) => {
          const kind = table.columns[index]!.kind;
          if (cell === null) return null;
          if (kind === 'decimal' && typeof cell === 'number') return decimalComma.format(cell);
          if (kind === 'date' && typeof cell === 'string') return formatDate(cell);
          return cell;
        }),
      ),
    ],
  );
}

/**
 * Adds the table as a sheet: its heading lines in bold, a blank row, then the table, its header row kept in view when
 * scrolling; numbers as number cells, days as date cells.
 */
function addSheet(workbook: ExcelJS.Workbook, name: string, table: ExportTable, heading: string[]): void {
  const sheet = workbook.addWorksheet(name, { views: [{ state: 'frozen', ySplit: heading.length + 2 }] });
  // Wide enough for the header and the longest value (within reason); a decimal column keeps Excel's General format, so
  // whole figures read '3005' beside '90,9' instead of '3005,0'.
  sheet.columns = table.columns.map((column, index) => ({
    width: Math.min(60, Math.max(12, column.header.length + 2, ...table.rows.map((row) => String(row[index] ?? '').length + 2))),
    style: column.kind === 'date' ? { numFmt: 'dd/mm/yyyy' } : {},
  }));
  for (const line of heading) sheet.addRow([line]).font = { bold: true };
  sheet.addRow([]);
  sheet.addRow(table.columns.map((column) => column.header)).font = { bold: true };
  for (const row of table.rows) {
    sheet.addRow(
      row.map((cell, index) => {
        if (table.columns[index]!.kind === 'date' && typeof cell === 'string') {
          const [year, month, day] = cell.split('-').map(Number);
          return new Date(Date.UTC(year!, month! - 1, day!));
        }
        return cell;
      }),
    );
  }
}

function newWorkbook(): ExcelJS.Workbook {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Méritus';
  return workbook;
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export type ExportFile = { fileName: string; contentType: string; body: string | Buffer };

/** Builds one table's export for a request's filters and records it in the audit log (what, in which format, for which period and turmas). */
export async function exportReportTable(
  { db, settings }: ReportDeps,
  admin: AdminActor,
  query: ReportExportQuery,
  context: { ip?: string | undefined } = {},
): Promise<ExportFile> {
  const { table, format, ...filters } = query;
  const scope = await reportScope({ db, settings }, filters, turmaScopeOf(admin));
  const data = await reportTable(reportReads(db, scope), scope, table);
  await recordAudit(db, {
    actor: auditActor(admin),
    action: 'report.export',
    ip: context.ip,
    details: { table, format, from: scope.period.from, to: scope.period.to, turmas: scope.view.turmas, authorId: scope.authorId },
  });
  const fileName = REPORT_TEXTS.exportFileName(
    REPORT_TABLE_FILES[table],
    turmasFilePart(scope),
    scope.period.from,
    scope.period.to,
    format,
  );
  if (format === 'csv') return { fileName, contentType: 'text/csv; charset=utf-8', body: tableCsv(data, headingOf(scope, data)) };
  const workbook = newWorkbook();
  addSheet(workbook, REPORT_TABLE_SHEETS[table], data, headingOf(scope, data));
  return { fileName, contentType: XLSX_TYPE, body: Buffer.from(await workbook.xlsx.writeBuffer()) };
}

/** Every table of the screen in one workbook, a sheet each, in the screen's order; audited as one export. */
export async function exportReportWorkbook(
  { db, settings }: ReportDeps,
  admin: AdminActor,
  query: ReportQuery,
  context: { ip?: string | undefined } = {},
): Promise<ExportFile> {
  const scope = await reportScope({ db, settings }, query, turmaScopeOf(admin));
  const reads = reportReads(db, scope);
  const workbook = newWorkbook();
  for (const table of REPORT_TABLES) {
    const data = await reportTable(reads, scope, table);
    addSheet(workbook, REPORT_TABLE_SHEETS[table], data, headingOf(scope, data));
  }
  await recordAudit(db, {
    actor: auditActor(admin),
    action: 'report.export',
    ip: context.ip,
    details: {
      table: 'all',
      format: 'xlsx',
      from: scope.period.from,
      to: scope.period.to,
      turmas: scope.view.turmas,
      authorId: scope.authorId,
    },
  });
  return {
    fileName: REPORT_TEXTS.workbookFileName(turmasFilePart(scope), scope.period.from, scope.period.to),
    contentType: XLSX_TYPE,
    body: Buffer.from(await workbook.xlsx.writeBuffer()),
  };
}
