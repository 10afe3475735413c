import { Readable } from 'node:stream';
import { and, asc, desc, eq, gt, or, sql } from 'drizzle-orm';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type { Db } from '../../db/client.ts';
import {
  auditLog,
  guardians,
  guardianStudents,
  ledgerEntries,
  sessions,
  storeGoalContributions,
  storeItems,
  storeOrders,
  students,
  studentStoreGoals,
  studentTags,
  turmas,
} from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import { fileSlug, FONT, formatterIn, render } from '../../pdf.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import { keyOfAddress } from '../../storage/file-storage.ts';
import { thumbnailOf } from '../../storage/photos.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { auditActor, type AdminActor } from '../auth/actor.ts';
import type { SettingsStore } from '../settings/settings.service.ts';
import { TAG_NAMES } from '../../../shared/constants.ts';
import { formatEstelecas, formatMeritus } from '../../../shared/format.ts';
import { LGPD_TEXTS } from '../../../shared/lgpd.ts';
import { ACCESS_ACTIONS, accessLogOf } from './personal-data.service.ts';

/** Ledger rows read per query while the archive is written: the export's memory stays this size whatever the history. */
const LEDGER_PAGE = 1000;
/** The operations the PDF lists (the newest); the JSON has all of them. */
const PDF_OPERATIONS = 40;

export type ExportDeps = { db: Db; settings: SettingsStore; storage: FileStorage };

type Part = { name: string; store?: boolean; data: Uint8Array | AsyncIterable<Uint8Array> };

/** Writes parts into one zip as they come, chunk by chunk (fflate's streaming Zip: nothing whole is kept in memory). */
async function* zipOf(parts: AsyncIterable<Part>): AsyncGenerator<Uint8Array> {
  const ready: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else ready.push(chunk);
  });
  function* drain() {
    if (failure) throw failure;
    while (ready.length > 0) yield ready.shift()!;
  }
  for await (const part of parts) {
    const file = part.store ? new ZipPassThrough(part.name) : new ZipDeflate(part.name, { level: 6 });
    zip.add(file);
    if (part.data instanceof Uint8Array) file.push(part.data, true);
    else {
      for await (const chunk of part.data) {
        file.push(chunk);
        yield* drain();
      }
      file.push(new Uint8Array(0), true);
    }
    yield* drain();
  }
  zip.end();
  yield* drain();
}

const encoder = new TextEncoder();
const json = (value: unknown) => encoder.encode(JSON.stringify(value, null, 2));

/** Every ledger row the student is a party of, oldest first, as a JSON array written a page at a time. */
async function* ledgerJson(db: Db, studentUuid: string): AsyncGenerator<Uint8Array> {
  const party = or(eq(ledgerEntries.fromStudentId, studentUuid), eq(ledgerEntries.toStudentId, studentUuid));
  let after: { createdAt: Date; id: string } | null = null;
  let first = true;
  yield encoder.encode('[');
  for (;;) {
    const page: (typeof ledgerEntries.$inferSelect)[] = await db
      .select()
      .from(ledgerEntries)
      .where(
        after
          ? and(
              party,
              or(
                gt(ledgerEntries.createdAt, after.createdAt),
                and(eq(ledgerEntries.createdAt, after.createdAt), gt(ledgerEntries.id, after.id)),
              ),
            )
          : party,
      )
      .orderBy(asc(ledgerEntries.createdAt), asc(ledgerEntries.id))
      .limit(LEDGER_PAGE);
    for (const row of page) {
      const direction = row.toStudentId === studentUuid ? (row.fromStudentId === studentUuid ? 'both' : 'in') : 'out';
      const entry = {
        id: row.id,
        at: row.createdAt.toISOString(),
        currency: row.currency,
        type: row.type,
        direction,
        amount: row.amount,
        description: row.description,
        by: row.actorName,
        reversesEntryId: row.reversesEntryId,
        reversalReason: row.reversalReason,
      };
      yield encoder.encode(`${first ? '' : ','}\n  ${JSON.stringify(entry)}`);
      first = false;
    }
    if (page.length < LEDGER_PAGE) break;
    const last = page[page.length - 1]!;
    after = { createdAt: last.createdAt, id: last.id };
  }
  yield encoder.encode('\n]\n');
}

/** The student's row and everything that hangs on it except the ledger (streamed apart) and the photos. */
async function recordsOf(db: Db, studentUuid: string) {
  const [student] = await db
    .select({ row: students, grade: turmas.name })
    .from(students)
    .innerJoin(turmas, eq(turmas.id, students.turmaId))
    .where(eq(students.id, studentUuid));
  if (!student) throw new AppError('student_not_found');
  const [orders, contributions, tags, goal, studentSessions, audit, counts, linkedGuardians] = await Promise.all([
    db
      .select({
        id: storeOrders.id,
        item: storeItems.name,
        price: storeOrders.price,
        currency: storeOrders.currency,
        status: storeOrders.status,
        reason: storeOrders.reason,
        createdAt: storeOrders.createdAt,
        decidedAt: storeOrders.decidedAt,
      })
      .from(storeOrders)
      .innerJoin(storeItems, eq(storeItems.id, storeOrders.itemId))
      .where(eq(storeOrders.studentUuid, studentUuid))
      .orderBy(asc(storeOrders.createdAt)),
    db
      .select({
        id: storeGoalContributions.id,
        item: storeItems.name,
        amount: storeGoalContributions.amount,
        refunded: sql<boolean>`${storeGoalContributions.refundEntryId} IS NOT NULL`,
        createdAt: storeGoalContributions.createdAt,
      })
      .from(storeGoalContributions)
      .innerJoin(storeItems, eq(storeItems.id, storeGoalContributions.itemId))
      .where(eq(storeGoalContributions.studentUuid, studentUuid))
      .orderBy(asc(storeGoalContributions.createdAt)),
    db.select().from(studentTags).where(eq(studentTags.studentUuid, studentUuid)),
    db
      .select({ item: storeItems.name, since: studentStoreGoals.createdAt })
      .from(studentStoreGoals)
      .innerJoin(storeItems, eq(storeItems.id, studentStoreGoals.itemId))
      .where(eq(studentStoreGoals.studentUuid, studentUuid)),
    db
      .select({
        createdAt: sessions.createdAt,
        lastSeenAt: sessions.lastSeenAt,
        expiresAt: sessions.expiresAt,
        ip: sessions.ip,
        userAgent: sessions.userAgent,
      })
      .from(sessions)
      .where(eq(sessions.studentUuid, studentUuid)),
    db
      .select({ at: auditLog.at, action: auditLog.action, by: auditLog.actorLabel, details: auditLog.details })
      .from(auditLog)
      .where(
        or(
          and(sql`${auditLog.details} ? 'studentUuid'`, sql`${auditLog.details}->>'studentUuid' = ${studentUuid}`),
          and(eq(auditLog.actorKind, 'student'), eq(auditLog.actorId, studentUuid)),
        ),
      )
      .orderBy(desc(auditLog.at))
      .limit(5000),
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(ledgerEntries)
      .where(or(eq(ledgerEntries.fromStudentId, studentUuid), eq(ledgerEntries.toStudentId, studentUuid))),
    // The responsáveis who follow the student (decision 037).
    db
      .select({ name: guardians.name, email: guardians.email, since: guardianStudents.createdAt })
      .from(guardianStudents)
      .innerJoin(guardians, eq(guardians.id, guardianStudents.guardianId))
      .where(eq(guardianStudents.studentUuid, studentUuid))
      .orderBy(asc(guardianStudents.createdAt)),
  ]);
  return {
    row: student.row,
    grade: student.grade,
    orders,
    contributions,
    tags: tags.map((tag) => ({ kind: TAG_NAMES[tag.kind], assignedAt: tag.assignedAt, expiresAt: tag.expiresAt })),
    goal: goal[0] ?? null,
    sessions: studentSessions,
    // The access log is its own file; the audit keeps the rest of what was done about the student.
    audit: audit.filter((entry) => !(ACCESS_ACTIONS as readonly string[]).includes(entry.action)),
    operations: counts[0]?.n ?? 0,
    guardians: linkedGuardians,
  };
}

type Records = Awaited<ReturnType<typeof recordsOf>>;

/** The student's photo and its thumbnail, when the school stores them (an address elsewhere is named in the JSON only). */
async function photoParts(storage: FileStorage, photoUrl: string | null): Promise<Part[]> {
  if (!photoUrl) return [];
  const files: Part[] = [];
  for (const [address, name] of [
    [photoUrl, 'fotos/foto.webp'],
    [thumbnailOf(photoUrl), 'fotos/miniatura.webp'],
  ] as const) {
    const key = address ? keyOfAddress(address) : null;
    const read = key ? await storage.read(key) : null;
    if (read) files.push({ name, store: true, data: read.body as AsyncIterable<Uint8Array> });
  }
  return files;
}

async function summaryPdf(db: Db, records: Records, schoolName: string, timeZone: string, by: string): Promise<Buffer> {
  const { row } = records;
  const recent = await db
    .select()
    .from(ledgerEntries)
    .where(or(eq(ledgerEntries.fromStudentId, row.id), eq(ledgerEntries.toStudentId, row.id)))
    .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.id))
    .limit(PDF_OPERATIONS);
  const format = formatterIn(timeZone);
  const none = 'não informado';
  return render({ size: 'A4', margin: 50, info: { Title: `${LGPD_TEXTS.exportTitle} — ${row.name}`, Author: schoolName } }, (doc) => {
    doc.font(FONT.bold).fontSize(10).fillColor('#4338ca').text(schoolName.toUpperCase(), { characterSpacing: 1 });
    doc.moveDown(0.3).font(FONT.bold).fontSize(20).fillColor('#0f172a').text(LGPD_TEXTS.exportTitle);
    doc.moveDown(0.3).font(FONT.regular).fontSize(9).fillColor('#475569');
    doc.text(`Gerado em ${format.dateTime(new Date())} por ${by}, a pedido do titular ou responsável (LGPD, art. 18).`);
    const section = (title: string) => doc.moveDown(0.8).font(FONT.bold).fontSize(12).fillColor('#0f172a').text(title);
    const line = (label: string, value: string) =>
      doc.font(FONT.bold).fontSize(10).fillColor('#334155').text(`${label}: `, { continued: true }).font(FONT.regular).text(value);
    section('Cadastro');
    line('Nome', row.name);
    line('Matrícula', row.studentId);
    line('Turma', records.grade);
    line('Email', row.email ?? none);
    line('Data de nascimento', row.birthDate ? format.date(new Date(`${row.birthDate}T12:00:00Z`)) : none);
    line('Foto', row.photoUrl ? 'sim (na pasta fotos/)' : 'não');
    line('Consentimento de imagem', row.imageConsent ? 'registrado' : 'não registrado');
    line('Cadastrado em', format.dateTime(row.createdAt));
    line('Último acesso', row.lastLogin ? format.dateTime(row.lastLogin) : 'nunca');
    if (row.deletedAt) line('Removido em', format.dateTime(row.deletedAt));
    section('Saldos e registros');
    line('Méritus', formatMeritus(row.meritus));
    line('Estelecas', formatEstelecas(row.estelecas));
    line('Operações no histórico', String(records.operations));
    line('Pedidos na Loja', String(records.orders.length));
    line('Contribuições para metas da turma', String(records.contributions.length));
    line('Etiquetas da semana', records.tags.map((tag) => tag.kind).join(', ') || 'nenhuma');
    line('Sessões abertas', String(records.sessions.length));
    section(`Operações mais recentes (até ${PDF_OPERATIONS})`);
    doc.font(FONT.regular).fontSize(9).fillColor('#334155');
    if (recent.length === 0) doc.text('Nenhuma operação.');
    for (const entry of recent) {
      const amount = entry.currency === 'meritus' ? formatMeritus(entry.amount) : formatEstelecas(entry.amount);
      const sign = entry.toStudentId === row.id ? '+' : '−';
      doc.text(`${format.dateTime(entry.createdAt)}  ${sign}${amount}  ${entry.description}`);
    }
    section('O que este arquivo contém');
    doc.font(FONT.regular).fontSize(9).fillColor('#334155');
    doc.text(
      'dados.json: o cadastro, os pedidos e contribuições na Loja, as etiquetas, a meta escolhida, as sessões abertas e o registro de ' +
        'auditoria sobre o estudante; operacoes.json: todas as operações em que o estudante é parte; acessos.json: quem viu os dados ' +
        'pessoais e quando; fotos/: a foto guardada pela escola.',
    );
  });
}

/**
 * Everything Méritus holds about one student as one zip (decision 030), coordination only: dados.json, operacoes.json
 * (streamed a page at a time), acessos.json, the stored photos and 'Relatório de dados pessoais' (PDF). The export is
 * audited (and so enters the student's access log) before the first byte leaves.
 */
export async function exportPersonalData(
  deps: ExportDeps,
  admin: AdminActor,
  studentUuid: string,
  context: { ip?: string | undefined } = {},
): Promise<{ fileName: string; body: Readable }> {
  const records = await recordsOf(deps.db, studentUuid);
  const { school } = await deps.settings.get();
  await recordAudit(deps.db, {
    actor: auditActor(admin),
    action: ACCESS_ACTIONS[1],
    ip: context.ip,
    details: { studentUuid, studentId: records.row.studentId },
  });
  const [pdf, accesses, photos] = await Promise.all([
    summaryPdf(deps.db, records, school.name, school.timeZone, admin.name),
    accessLogOf(deps.db, studentUuid),
    photoParts(deps.storage, records.row.photoUrl),
  ]);
  const { row } = records;
  const profile = {
    id: row.id,
    studentId: row.studentId,
    name: row.name,
    turma: records.grade,
    email: row.email,
    birthDate: row.birthDate,
    photoUrl: row.photoUrl,
    imageConsent: row.imageConsent,
    balances: { meritus: row.meritus, totalEarned: row.totalEarned, estelecas: row.estelecas },
    createdAt: row.createdAt,
    lastLogin: row.lastLogin,
    removedAt: row.deletedAt,
    erasedAt: row.erasedAt,
  };
  const data = {
    generatedAt: new Date().toISOString(),
    school: school.name,
    student: profile,
    storeOrders: records.orders,
    goalContributions: records.contributions,
    tags: records.tags,
    guardians: records.guardians,
    storeGoal: records.goal,
    sessions: records.sessions,
    audit: records.audit,
  };
  async function* parts(): AsyncGenerator<Part> {
    yield { name: 'relatorio-dados-pessoais.pdf', data: pdf };
    yield { name: 'dados.json', data: json(data) };
    yield { name: 'operacoes.json', data: ledgerJson(deps.db, studentUuid) };
    yield { name: 'acessos.json', data: json(accesses.items) };
    yield* photos;
  }
  return { fileName: `dados-pessoais-${fileSlug(row.name) || 'estudante'}.zip`, body: Readable.from(zipOf(parts())) };
}
