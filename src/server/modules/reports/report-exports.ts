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
  REPORT_TABLE_TITLES,
  type ReportExportQuery,
  type ReasonRow,
  type ReportTable,
} from '../../../shared/reports.ts';
import { EXPORT_HEADINGS as H, REPORT_TEXTS } from '../../../shared/report-texts.ts';
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

/** One table of the reports screen, as its export writes it. */
export async function reportTable(db: Db, scope: ReportScope, table: ReportTable): Promise<ExportTable> {
  const title = REPORT_TABLE_TITLES[table];
  const { period } = scope;
  switch (table) {
    case 'figures': {
      const { figures } = await reportOverview(db, scope);
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
      const { points } = await reportTimeline(db, scope);
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
      const { turmas } = await reportOverview(db, scope);
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
      const { balances } = await reportOverview(db, scope);
      return {
        title,
        columns: [text(H.balanceRange), integer(H.minimum), integer(H.maximum), integer(H.students)],
        rows: balances.map((row) => [row.label, row.min, row.max, row.students]),
      };
    }
    case 'awards':
    case 'penalties': {
      const reasons = await reportReasons(db, scope);
      return reasonTable(title, table === 'awards' ? reasons.awards : reasons.penalties);
    }
    case 'store': {
      const { items } = await reportStore(db, scope);
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
      const { risers } = await reportOverview(db, scope);
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
  }
}

const decimalComma = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1, useGrouping: false });

/** The table as CSV: decimals with a comma and days as dd/mm/aaaa, as Excel in Brazil reads them. */
export function tableCsv(table: ExportTable): string {
  return toCsv(
    table.columns.map((column) => column.header),
    table.rows.map((row) =>
      row.map((cell, index) => {
        const kind = table.columns[index]!.kind;
        if (cell === null) return null;
        if (kind === 'decimal' && typeof cell === 'number') return decimalComma.format(cell);
        if (kind === 'date' && typeof cell === 'string') return formatDate(cell);
        return cell;
      }),
    ),
  );
}

/** The table as a workbook of one sheet: numbers as number cells, days as date cells. */
export async function tableXlsx(table: ExportTable): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Méritus';
  const sheet = workbook.addWorksheet(table.title.slice(0, 31));
  // Wide enough for the header and the longest value (within reason); a decimal column keeps Excel's General format, so
  // whole figures read '3005' beside '90,9' instead of '3005,0'.
  sheet.columns = table.columns.map((column, index) => ({
    header: column.header,
    width: Math.min(60, Math.max(12, column.header.length + 2, ...table.rows.map((row) => String(row[index] ?? '').length + 2))),
    style: column.kind === 'date' ? { numFmt: 'dd/mm/yyyy' } : {},
  }));
  sheet.getRow(1).font = { bold: true };
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
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

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
  const data = await reportTable(db, scope, table);
  await recordAudit(db, {
    actor: auditActor(admin),
    action: 'report.export',
    ip: context.ip,
    details: { table, format, from: scope.period.from, to: scope.period.to, turmas: scope.view.turmas, authorId: scope.authorId },
  });
  const fileName = REPORT_TEXTS.exportFileName(REPORT_TABLE_FILES[table], scope.period.from, scope.period.to, format);
  return format === 'csv'
    ? { fileName, contentType: 'text/csv; charset=utf-8', body: tableCsv(data) }
    : { fileName, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', body: await tableXlsx(data) };
}
