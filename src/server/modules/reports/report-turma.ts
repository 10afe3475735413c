import { fileNamePart, FONT, formatterIn, pdfTable, render } from '../../pdf.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { auditActor, turmaScopeOf, type AdminActor } from '../auth/actor.ts';
import { TAG_NAMES } from '../../../shared/constants.ts';
import { formatMeritus, formatNumber } from '../../../shared/format.ts';
import { FIGURE_LABELS, type TurmaDocumentQuery } from '../../../shared/reports.ts';
import { periodLine, TURMA_REPORT_TEXTS } from '../../../shared/report-texts.ts';
import type { ReportScope } from './report-school.ts';
import { studentLines, type StudentLine } from './report-overview.ts';
import { reportScope, type ReportDeps } from './reports.service.ts';
import type { ExportFile } from './report-exports.ts';

/** A turma's documents (issue 36): its report, the figures of the period and a line per student (studentLines), ready to print. */

/** The scope of one turma's document: the period and that turma, which a teacher must have (reportScope refuses another). */
export function turmaDocumentScope(deps: ReportDeps, admin: AdminActor, query: TurmaDocumentQuery): Promise<ReportScope> {
  const { turma, ...days } = query;
  return reportScope(deps, { ...days, turma: [turma] }, turmaScopeOf(admin));
}

const MARGIN = 36;
/** The room a table leaves above the bottom margin for the page's footer. */
const FOOTER = 28;

/**
 * A turma's report (A4, landscape): the school, turma and period in the title, the turma's figures, and a table of every
 * student with a total row; the table's header repeats on each page, and each page's footer names the document and its
 * page. Audited.
 */
export async function turmaReportPdf(
  deps: ReportDeps,
  admin: AdminActor,
  query: TurmaDocumentQuery,
  context: { ip?: string | undefined } = {},
): Promise<ExportFile> {
  const scope = await turmaDocumentScope(deps, admin, query);
  const turma = scope.turmas![0]!;
  const { lines, figures, turmas } = await studentLines(deps.db, scope);
  const row = turmas[0]!;
  const texts = TURMA_REPORT_TEXTS;
  const period = periodLine(scope.period);
  const format = formatterIn(scope.school.timeZone);
  const issued = texts.issued(format.dateTime(new Date()), admin.name);
  const percent = (value: number) => `${value.toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%`;

  const body = await render(
    { size: 'A4', layout: 'landscape', margin: MARGIN, info: { Title: texts.documentTitle(turma.name), Author: scope.school.name } },
    (doc) => {
      const left = MARGIN;
      const width = doc.page.width - 2 * MARGIN;
      doc.font(FONT.bold).fontSize(10).fillColor('#4338ca').text(scope.school.name.toUpperCase(), { characterSpacing: 1 });
      doc.moveDown(0.2).font(FONT.bold).fontSize(18).fillColor('#0f172a').text(texts.heading(turma.name));
      doc.moveDown(0.2).font(FONT.regular).fontSize(11).fillColor('#334155').text(period);
      doc.moveDown(0.8).font(FONT.bold).fontSize(11).fillColor('#0f172a').text(texts.figuresTitle);
      doc.moveDown(0.3);

      // The figures in boxes, seven a row.
      const boxes: [string, string][] = [
        [FIGURE_LABELS.meritusAwarded, formatMeritus(figures.meritusAwarded.current)],
        [FIGURE_LABELS.meritusRemoved, formatMeritus(figures.meritusRemoved.current)],
        [FIGURE_LABELS.meritusTransferred, formatMeritus(figures.meritusTransferred.current)],
        [FIGURE_LABELS.meritusSpent, formatMeritus(figures.meritusSpent.current)],
        [FIGURE_LABELS.meritusReversed, formatMeritus(figures.meritusReversed.current)],
        [texts.balanceAtEnd, formatMeritus(row.balance)],
        [texts.averageBalance, formatMeritus(row.averageBalance)],
        [FIGURE_LABELS.estelecasAwarded, formatNumber(figures.estelecasAwarded.current)],
        [FIGURE_LABELS.estelecasRemoved, formatNumber(figures.estelecasRemoved.current)],
        [FIGURE_LABELS.estelecasSpent, formatNumber(figures.estelecasSpent.current)],
        [FIGURE_LABELS.estelecasReversed, formatNumber(figures.estelecasReversed.current)],
        [FIGURE_LABELS.activeStudents, formatNumber(figures.activeStudents.current)],
        [FIGURE_LABELS.participation, percent(figures.participation.current)],
        [texts.enrolledStudents, formatNumber(figures.enrolled.current)],
      ];
      const perRow = 7;
      const gap = 6;
      const boxWidth = (width - gap * (perRow - 1)) / perRow;
      const boxHeight = 40;
      let top = doc.y;
      boxes.forEach(([label, value], index) => {
        const x = left + (index % perRow) * (boxWidth + gap);
        const y = top + Math.floor(index / perRow) * (boxHeight + gap);
        doc.roundedRect(x, y, boxWidth, boxHeight, 4).lineWidth(0.6).strokeColor('#cbd5e1').stroke();
        doc
          .font(FONT.regular)
          .fontSize(7)
          .fillColor('#475569')
          .text(label, x + 5, y + 4, { width: boxWidth - 10, height: 18, ellipsis: true });
        doc
          .font(FONT.bold)
          .fontSize(11)
          .fillColor('#0f172a')
          .text(value, x + 5, y + 23, { width: boxWidth - 10, lineBreak: false });
      });
      top += Math.ceil(boxes.length / perRow) * (boxHeight + gap) + 8;
      doc.x = left;
      doc.y = top;
      doc.font(FONT.bold).fontSize(11).fillColor('#0f172a').text(texts.studentsTitle, left, top);
      doc.moveDown(0.2).font(FONT.regular).fontSize(7.5).fillColor('#475569').text(texts.legend, left, doc.y, { width });
      doc.moveDown(0.5);

      const c = texts.columns;
      const numeric = (header: string, columnWidth: number) => ({ header, width: columnWidth, align: 'right' as const });
      const fixed = [
        { header: c.studentId, width: 58, align: 'left' as const },
        numeric(c.start, 50),
        numeric(c.awarded, 48),
        numeric(c.removed, 56),
        numeric(c.received, 56),
        numeric(c.sent, 66),
        numeric(c.spent, 50),
        numeric(c.end, 50),
        numeric(c.estelecas, 56),
      ];
      const rest = width - fixed.reduce((sum, column) => sum + column.width, 0);
      const [studentIdColumn, ...amounts] = fixed;
      const columns = [
        studentIdColumn!,
        { header: c.name, width: rest - 88, align: 'left' as const },
        ...amounts,
        { header: c.tags, width: 88, align: 'left' as const },
      ];
      const table = pdfTable(doc, {
        left,
        width,
        columns,
        fontSize: 8,
        gap: 6,
        indent: 3,
        footRoom: FOOTER,
        header: { fill: '#eef2ff' },
        repeatHeader: true,
      });
      table.drawHeader();
      const n = formatNumber;
      for (const line of lines) {
        table.drawRow([
          line.studentId,
          line.left ? `${line.name} (${texts.left})` : line.name,
          n(line.start),
          n(line.awarded),
          n(line.removed),
          n(line.received),
          n(line.sent),
          n(line.spent),
          n(line.end),
          n(line.estelecas),
          line.tags.map((kind) => TAG_NAMES[kind]).join(', '),
        ]);
      }
      if (lines.length === 0) {
        doc
          .font(FONT.regular)
          .fontSize(10)
          .fillColor('#475569')
          .text(texts.noStudents, left, doc.y + 4);
      } else {
        const total = (pick: (line: StudentLine) => number) => n(lines.reduce((sum, line) => sum + pick(line), 0));
        table.drawRow(
          [
            texts.total,
            '',
            total((l) => l.start),
            total((l) => l.awarded),
            total((l) => l.removed),
            total((l) => l.received),
            total((l) => l.sent),
            total((l) => l.spent),
            total((l) => l.end),
            total((l) => l.estelecas),
            '',
          ],
          { bold: true, fill: '#f1f5f9' },
        );
      }

      // Every page's footer: the document, its period and the page, drawn in the bottom margin once the pages are known.
      const { start, count } = doc.bufferedPageRange();
      const footer = `${scope.school.name} · ${texts.heading(turma.name)} · ${period} · ${issued}`;
      for (let page = start; page < start + count; page++) {
        doc.switchToPage(page);
        doc.page.margins.bottom = 0;
        const y = doc.page.height - MARGIN - 10;
        doc
          .font(FONT.regular)
          .fontSize(7.5)
          .fillColor('#64748b')
          .text(footer, left, y, { width: width - 80, lineBreak: false, ellipsis: true });
        doc.text(texts.page(page - start + 1, count), left + width - 80, y, { width: 80, align: 'right', lineBreak: false });
      }
    },
  );

  await recordAudit(deps.db, {
    actor: auditActor(admin),
    action: 'report.turma',
    ip: context.ip,
    details: { turma: turma.name, from: scope.period.from, to: scope.period.to, students: lines.length },
  });
  return {
    fileName: texts.fileName(fileNamePart(turma.name), scope.period.from, scope.period.to),
    contentType: 'application/pdf',
    body,
  };
}
