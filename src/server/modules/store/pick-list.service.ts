import { and, asc, count, eq, exists, isNull, notExists, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { storeItems, storeItemTurmas, storeOrders, students } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import { fileSlug, FONT, formatterIn, pdfTable, render } from '../../pdf.ts';
import { nameOrderOf } from '../../views/name-order.ts';
import { inScope } from '../../views/turma-scope.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { auditActor, turmaScopeOf, type AdminActor } from '../auth/actor.ts';
import type { SettingsStore } from '../settings/settings.service.ts';
import { countOf, dayIn } from '../../../shared/format.ts';

/** The pick list's texts (pt-BR). */
export const PICK_LIST_TEXTS = {
  heading: 'Lista de entrega',
  documentTitle: (turma: string) => `Lista de entrega — ${turma}`,
  turma: (name: string) => `Turma: ${name}`,
  date: (day: string) => `Data: ${day}`,
  summary: (orders: number, students: number) =>
    `${countOf(orders, 'pedido pendente', 'pedidos pendentes')} de ${countOf(students, 'aluno', 'alunos')}`,
  columns: { student: 'Aluno', studentId: 'Matrícula', item: 'Item', quantity: 'Qtd.', delivered: 'Entregue' },
  goals: 'Metas da turma atingidas',
  goalRow: 'Turma (meta)',
  empty: 'Nenhum pedido pendente nesta turma.',
  issued: (at: string, by: string) => `Emitida em ${at} por ${by}`,
  page: (page: number, pages: number) => `Página ${page} de ${pages}`,
  fileName: (turma: string, day: string) => `lista-de-entrega-${fileSlug(turma)}-${day}.pdf`,
} as const;

type Line = { studentUuid: string | null; name: string; studentId: string; item: string; quantity: number };

/** A turma's pending orders by student (name order, then item), each item once with its quantity; then the turma's reached goals. */
async function pendingLines(db: Db, turmaId: string): Promise<Line[]> {
  const bought = await db
    .select({
      studentUuid: students.id,
      name: students.name,
      studentId: students.studentId,
      item: storeItems.name,
      quantity: count(),
    })
    .from(storeOrders)
    .innerJoin(students, eq(students.id, storeOrders.studentUuid))
    .innerJoin(storeItems, eq(storeItems.id, storeOrders.itemId))
    .where(and(eq(storeOrders.status, 'pending'), eq(students.turmaId, turmaId)))
    .groupBy(students.id, students.name, students.studentId, storeItems.id, storeItems.name)
    .orderBy(asc(nameOrderOf(students.name)), asc(students.name), asc(students.id), asc(storeItems.name), asc(storeItems.id));
  // A reached goal's order is the turma's (no student): of this turma when the goal names it or names no turma (all).
  const namesTurma = db
    .select({ one: sql`1` })
    .from(storeItemTurmas)
    .where(and(eq(storeItemTurmas.itemId, storeItems.id), eq(storeItemTurmas.turmaId, turmaId)));
  const namesAny = db
    .select({ one: sql`1` })
    .from(storeItemTurmas)
    .where(eq(storeItemTurmas.itemId, storeItems.id));
  const goals = await db
    .select({ item: storeItems.name, quantity: count() })
    .from(storeOrders)
    .innerJoin(storeItems, eq(storeItems.id, storeOrders.itemId))
    .where(and(eq(storeOrders.status, 'pending'), isNull(storeOrders.studentUuid), or(exists(namesTurma), notExists(namesAny))))
    .groupBy(storeItems.id, storeItems.name)
    .orderBy(asc(storeItems.name), asc(storeItems.id));
  return [
    ...bought,
    ...goals.map((goal) => ({ studentUuid: null, name: PICK_LIST_TEXTS.goalRow, studentId: '', item: goal.item, quantity: goal.quantity })),
  ];
}

/**
 * The 'Lista de entrega' of one turma: its pending orders by student (name, matrícula, item, quantity, a box to tick),
 * with the school's name and the day, to print for the day the teacher hands things out. A teacher only for their
 * turmas. Audited.
 */
export async function pickListPdf(
  { db, settings }: { db: Db; settings: SettingsStore },
  admin: AdminActor,
  turmaId: string,
  context: { ip?: string | undefined; now?: Date } = {},
): Promise<{ fileName: string; body: Buffer }> {
  const school = await settings.get();
  const turma = school.turmas.find((candidate) => candidate.id === turmaId);
  if (!turma) throw new AppError('turma_not_found', { status: 404 });
  if (!inScope(turmaScopeOf(admin), turma.id)) throw new AppError('turma_outside_turmas');
  const lines = await pendingLines(db, turma.id);
  const now = context.now ?? new Date();
  const timeZone = school.school.timeZone;
  const format = formatterIn(timeZone);
  const texts = PICK_LIST_TEXTS;
  const orders = lines.reduce((sum, line) => sum + line.quantity, 0);
  const buyers = new Set(lines.map((line) => line.studentUuid ?? 'turma')).size;

  const body = await render(
    { size: 'A4', margin: 50, info: { Title: texts.documentTitle(turma.name), Author: school.school.name } },
    (doc) => {
      const left = doc.page.margins.left;
      const width = doc.page.width - left - doc.page.margins.right;
      doc.font(FONT.bold).fontSize(10).fillColor('#4338ca').text(school.school.name.toUpperCase(), { characterSpacing: 1 });
      doc.moveDown(0.3).font(FONT.bold).fontSize(20).fillColor('#0f172a').text(texts.heading);
      doc.moveDown(0.5).font(FONT.regular).fontSize(11).fillColor('#334155');
      doc
        .text(texts.turma(turma.name))
        .text(texts.date(format.date(now)))
        .text(texts.summary(orders, buyers));
      doc.moveDown(0.8);

      const [studentId, quantity, delivered] = [70, 36, 62];
      const flexible = width - studentId - quantity - delivered;
      const columns = [
        { header: texts.columns.student, width: Math.round(flexible * 0.48) },
        { header: texts.columns.studentId, width: studentId },
        { header: texts.columns.item, width: flexible - Math.round(flexible * 0.48) },
        { header: texts.columns.quantity, width: quantity, align: 'right' as const },
        { header: texts.columns.delivered, width: delivered, align: 'center' as const },
      ];
      const table = pdfTable(doc, { left, width, columns, fontSize: 10, gap: 6, minHeight: 14, footRoom: 30, header: { heavyRule: true } });
      table.drawHeader();
      if (lines.length === 0) {
        doc
          .font(FONT.regular)
          .fontSize(11)
          .fillColor('#475569')
          .text(texts.empty, left, doc.y + 4);
      }
      lines.forEach((line, index) => {
        const previous = lines[index - 1];
        const next = lines[index + 1];
        // A student's name and matrícula on their first line only; a heavier rule closes their lines.
        const first = !previous || previous.studentUuid !== line.studentUuid;
        const last = !next || next.studentUuid !== line.studentUuid;
        const y = table.drawRow([first ? line.name : '', first ? line.studentId : '', line.item, String(line.quantity), ''], {
          heavyRule: last,
        });
        // The square to tick, in the middle of the last column.
        const box = 11;
        doc
          .rect(left + width - delivered / 2 - box / 2, y, box, box)
          .lineWidth(0.9)
          .strokeColor('#334155')
          .stroke();
      });
      doc.moveDown(1).font(FONT.regular).fontSize(9).fillColor('#475569');
      doc.text(texts.issued(format.dateTime(now), admin.name), left);
      // Page numbers once every page exists (bufferPages), at the foot of each.
      const range = doc.bufferedPageRange();
      for (let page = range.start; page < range.start + range.count; page++) {
        doc.switchToPage(page);
        doc
          .font(FONT.regular)
          .fontSize(8)
          .fillColor('#64748b')
          .text(texts.page(page + 1, range.count), left, doc.page.height - doc.page.margins.bottom - 12, {
            width,
            align: 'right',
            lineBreak: false,
          });
      }
    },
  );

  await recordAudit(db, {
    actor: auditActor(admin),
    action: 'store.pick_list',
    ip: context.ip,
    details: { turma: turma.id, turmaName: turma.name, orders },
  });
  return { fileName: texts.fileName(turma.name, dayIn(timeZone, now)), body };
}
