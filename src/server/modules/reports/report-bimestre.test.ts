import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addAdmin, addStudents, buildTestApp, turmaIdOf, type TestApp, type TestStudent } from '../../test/test-app.ts';
import { ledgerEntries, students, studentTags } from '../../db/schema.ts';
import { REPORT_TABLE_SHEETS, REPORT_TABLES, type ReportOverview } from '../../../shared/reports.ts';

/**
 * The end of a bimestre (issue 36): a turma's report and statements, the workbook of every table, the period's top
 * students' certificates. A school of three turmas with rows in a custom period of March 2026 (Brasília, UTC−3), before
 * it and after it; the figures these documents print must be the reports screen's for the same turma and period.
 */
let t: TestApp;
const PERIOD = { from: '2026-03-02', to: '2026-03-15' };
const TURMA_A = '1º EM - Turma A';
const TURMA_B = '1º EM - Turma B';
/** A turma of many students, so its report runs over several pages. */
const BIG = '2º EM - Turma C';
const HOUR = 3_600_000;
const at = (day: string, hour: number) => new Date(Date.parse(`${day}T00:00:00Z`) + (hour + 3) * HOUR);
let a: TestStudent[] = [];
let b: TestStudent[] = [];
let big: TestStudent[] = [];
let teacher: string;

beforeAll(async () => {
  t = await buildTestApp();
  a = await addStudents(t.db, [
    { studentId: '7100001', name: 'Ícaro Lima', grade: TURMA_A },
    { studentId: '7100002', name: 'Ana Beatriz Souza', grade: TURMA_A },
    { studentId: '7100003', name: 'Érica Campos', grade: TURMA_A },
    { studentId: '7100004', name: 'Otávio Nunes', grade: TURMA_A },
    { studentId: '7100005', name: 'Lívia Prado', grade: TURMA_A },
  ]);
  b = await addStudents(t.db, [
    { studentId: '7200001', name: 'Bruna Reis', grade: TURMA_B },
    { studentId: '7200002', name: 'Caio Torres', grade: TURMA_B },
  ]);
  big = await addStudents(
    t.db,
    Array.from({ length: 70 }, (_, i) => ({ studentId: `73${String(i + 1).padStart(5, '0')}`, name: `Aluno Grande ${i + 1}`, grade: BIG })),
  );
  // The school's students were enrolled in January, before everything below.
  for (const student of [...a, ...b, ...big])
    await t.db
      .update(students)
      .set({ createdAt: at('2026-01-05', 8) })
      .where(eq(students.id, student.id));
  const [icaro, ana, erica, otavio, livia] = a;
  const [bruna, caio] = b;
  type Row = { currency?: 'meritus' | 'estelecas'; type: string; amount: number; from?: string; to?: string; at: Date };
  const rows: Row[] = [
    // Before the period: the balances it starts with.
    { type: 'admin_add', amount: 100, to: icaro!.id, at: at('2026-02-20', 10) },
    { type: 'admin_add', amount: 50, to: ana!.id, at: at('2026-02-20', 10) },
    { type: 'admin_add', amount: 30, to: bruna!.id, at: at('2026-02-21', 10) },
    { currency: 'estelecas', type: 'reward', amount: 7, to: erica!.id, at: at('2026-02-22', 10) },
    // In the period: awards (Ícaro and Érica tie on 40), a removal, transfers inside and across turmas, the Loja.
    { type: 'reward', amount: 40, to: icaro!.id, at: at('2026-03-03', 9) },
    { type: 'admin_add', amount: 25, to: ana!.id, at: at('2026-03-04', 9) },
    { type: 'reward', amount: 15, to: erica!.id, at: at('2026-03-05', 9) },
    { type: 'admin_add', amount: 25, to: erica!.id, at: at('2026-03-06', 9) },
    { type: 'reward', amount: 10, to: otavio!.id, at: at('2026-03-07', 9) },
    { type: 'penalty', amount: 5, from: icaro!.id, at: at('2026-03-08', 9) },
    { type: 'transfer', amount: 12, from: icaro!.id, to: livia!.id, at: at('2026-03-09', 9) },
    { type: 'transfer', amount: 8, from: ana!.id, to: bruna!.id, at: at('2026-03-09', 10) },
    { type: 'transfer', amount: 6, from: bruna!.id, to: otavio!.id, at: at('2026-03-10', 10) },
    { type: 'purchase', amount: 20, from: ana!.id, at: at('2026-03-11', 10) },
    { currency: 'estelecas', type: 'reward', amount: 3, to: livia!.id, at: at('2026-03-12', 10) },
    { type: 'reward', amount: 90, to: caio!.id, at: at('2026-03-12', 11) },
    // After the period: not counted.
    { type: 'reward', amount: 500, to: otavio!.id, at: at('2026-03-20', 9) },
  ];
  await t.db.insert(ledgerEntries).values(
    rows.map((row) => ({
      currency: row.currency ?? 'meritus',
      type: row.type as 'reward',
      amount: row.amount,
      description: row.type === 'transfer' ? 'Ajuda' : 'Bimestre',
      fromStudentId: row.from ?? null,
      toStudentId: row.to ?? null,
      actorKind: row.type === 'transfer' || row.type === 'purchase' ? ('student' as const) : ('admin' as const),
      actorName: 'Carga de teste',
      createdAt: row.at,
    })),
  );
  await t.db.insert(studentTags).values({
    studentUuid: icaro!.id,
    kind: 'leader',
    assignedAt: at('2026-03-09', 8),
    expiresAt: at('2026-03-16', 8),
  });
  const email = 'prof.bimestre@escola.test';
  await addAdmin(t.db, { email, name: 'Professora do Bimestre', role: 'teacher', turmaIds: [await turmaIdOf(t.db, TURMA_A)] });
  teacher = await t.loginAdmin(email);
});
afterAll(async () => t.close());

const query = (extra: Record<string, string> = {}) => new URLSearchParams({ period: 'custom', ...PERIOD, ...extra }).toString();

async function pdfPages(bytes: Buffer): Promise<string[]> {
  const document = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= document.numPages; n++) {
    const content = await (await document.getPage(n)).getTextContent();
    pages.push(
      content.items
        .map((item) => ('str' in item ? item.str : ''))
        .join(' ')
        .replace(/\s+/g, ' '),
    );
  }
  return pages;
}

async function workbookOf(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return workbook;
}

/** A sheet's table: the rows under its header (the heading lines, a blank row and the header come first). */
function tableOf(sheet: ExcelJS.Worksheet): { header: unknown[]; rows: unknown[][] } {
  const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
  const rows: unknown[][] = [];
  for (let n = 5; n <= sheet.rowCount; n++) rows.push(values(n));
  return { header: values(4), rows };
}

const n = (value: number) => value.toLocaleString('pt-BR');
const disposition = (fileName: string, ascii: string) =>
  `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;

describe('end of bimestre', () => {
  test("the turma's report prints the turma's figures and a line per student that add up to the reports screen's, for the period", async () => {
    const overview = (await t.request('GET', `/admin/reports/overview?${query({ turma: TURMA_A })}`)).json() as ReportOverview;
    const { figures } = overview;
    const turma = overview.turmas[0]!;
    expect(figures.meritusAwarded.current).toBe(115);

    // The students' lines, as the workbook's Alunos sheet gives them (numbers as numbers), for the same turma and period.
    const book = await t.request('GET', `/admin/reports/workbook.xlsx?${query({ turma: TURMA_A })}`);
    expect(book.statusCode, book.body).toBe(200);
    const { header, rows } = tableOf((await workbookOf(book.rawPayload)).getWorksheet('Alunos')!);
    expect(header).toEqual([
      'Matrícula',
      'Nome',
      'Turma',
      'Saldo no início (M$)',
      'Ganhos (M$)',
      'Removidos (M$)',
      'Recebidos em transferências (M$)',
      'Transferidos (M$)',
      'Gastos na Loja (M$)',
      'Saldo no fim (M$)',
      'Estelecas no fim',
      'Tags no período',
      'Situação',
    ]);
    // Every student of the turma, by name in Portuguese order (Érica before Ícaro before Lívia), and nobody else.
    expect(rows.map((row) => row[1])).toEqual(['Ana Beatriz Souza', 'Érica Campos', 'Ícaro Lima', 'Lívia Prado', 'Otávio Nunes']);
    const column = (index: number) => rows.map((row) => row[index] as number);
    const sum = (index: number) => column(index).reduce((total, value) => total + value, 0);
    expect(sum(4)).toBe(figures.meritusAwarded.current);
    expect(sum(5)).toBe(figures.meritusRemoved.current);
    expect(sum(7)).toBe(figures.meritusTransferred.current);
    expect(sum(8)).toBe(figures.meritusSpent.current);
    expect(sum(9)).toBe(turma.balance);
    // Each line reconciles: the end is the start with what moved in the period.
    for (const row of rows) {
      const [start, earned, removed, received, sent, spent, end] = row.slice(3, 10) as number[];
      expect(end).toBe(start! + earned! - removed! + received! - sent! - spent!);
    }
    expect(rows.find((row) => row[1] === 'Ícaro Lima')).toEqual([
      '7100001',
      'Ícaro Lima',
      TURMA_A,
      100,
      40,
      5,
      0,
      12,
      0,
      123,
      0,
      'Líder da Semana',
      'Matriculado',
    ]);
    expect(rows.find((row) => row[1] === 'Érica Campos')!.slice(9, 11)).toEqual([40, 7]);

    const pdf = await t.request('GET', `/admin/reports/turma.pdf?${query({ turma: TURMA_A })}`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(
      disposition(
        `relatorio-turma-1º-EM-Turma-A-${PERIOD.from}-a-${PERIOD.to}.pdf`,
        `relatorio-turma-1o-EM-Turma-A-${PERIOD.from}-a-${PERIOD.to}.pdf`,
      ),
    );
    const pages = await pdfPages(pdf.rawPayload);
    expect(pages).toHaveLength(1);
    const text = pages[0]!;
    for (const expected of [
      'ESCOLA MÉRITUS',
      `Relatório da turma ${TURMA_A}`,
      'Período: 02/03/2026 a 15/03/2026',
      `Méritus concedidos ${n(figures.meritusAwarded.current)} M$`,
      `Saldo da turma no fim ${n(turma.balance)} M$`,
      'Página 1 de 1',
      `7100001 Ícaro Lima 100 40 5 0 12 0 123 0 Líder da Semana`,
      `Total ${n(sum(3))} ${n(sum(4))} ${n(sum(5))} ${n(sum(6))} ${n(sum(7))} ${n(sum(8))} ${n(sum(9))} ${n(sum(10))}`,
    ])
      expect(text).toContain(expected);
    expect(await t.lastAudit('report.turma')).toMatchObject({ details: { turma: TURMA_A, from: PERIOD.from, to: PERIOD.to, students: 5 } });
  });

  test("a big turma's report runs over pages, each with the table's header and its number", async () => {
    const pdf = await t.request('GET', `/admin/reports/turma.pdf?${query({ turma: BIG })}`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    const pages = await pdfPages(pdf.rawPayload);
    expect(pages.length).toBeGreaterThan(1);
    pages.forEach((page, index) => {
      expect(page).toContain('Matrícula Aluno Saldo no início Ganhos');
      expect(page).toContain(`Página ${index + 1} de ${pages.length}`);
      expect(page).toContain(`Relatório da turma ${BIG} · Período: 02/03/2026 a 15/03/2026`);
    });
    for (const student of big) expect(pages.join(' ')).toContain(`${student.studentId} ${student.name} `);
  });

  test("a turma's statements: one student a page, each the single statement's text", async () => {
    const response = await t.request('GET', `/admin/reports/statements.pdf?${query({ turma: TURMA_A })}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      disposition(`extratos-1º-EM-Turma-A-${PERIOD.from}-a-${PERIOD.to}.pdf`, `extratos-1o-EM-Turma-A-${PERIOD.from}-a-${PERIOD.to}.pdf`),
    );
    const pages = await pdfPages(response.rawPayload);
    const names = ['Ana Beatriz Souza', 'Érica Campos', 'Ícaro Lima', 'Lívia Prado', 'Otávio Nunes'];
    expect(pages).toHaveLength(names.length);
    pages.forEach((page, index) => {
      expect(page).toContain('Extrato de Méritus e Estelecas');
      expect(page).toContain(`Aluno: ${names[index]}`);
      expect(page).toContain('Período: 02/03/2026 a 15/03/2026');
    });
    // Ícaro's page is his statement, as the single one prints it.
    const single = await t.request('GET', `/admin/reports/statement.pdf?${query({ student: a[0]!.id })}`);
    const [singlePage] = await pdfPages(single.rawPayload);
    const withoutIssue = (page: string) => page.replace(/Emitido em .*$/, '');
    expect(withoutIssue(pages[2]!)).toBe(withoutIssue(singlePage!));
    expect(pages[2]).toContain('Saldo no início do período: 100 M$');
    expect(pages[2]).toContain('Saldo no fim do período: 123 M$');
    expect(await t.lastAudit('report.statements')).toMatchObject({ details: { turma: TURMA_A, students: 5 } });
  });

  test('the workbook has a sheet per table, each naming its turmas and period; single exports name them too', async () => {
    const response = await t.request('GET', `/admin/reports/workbook.xlsx?${query({ turma: TURMA_A })}`);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    expect(response.headers['content-disposition']).toBe(
      disposition(
        `relatorio-1º-EM-Turma-A-${PERIOD.from}-a-${PERIOD.to}.xlsx`,
        `relatorio-1o-EM-Turma-A-${PERIOD.from}-a-${PERIOD.to}.xlsx`,
      ),
    );
    const workbook = await workbookOf(response.rawPayload);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(REPORT_TABLES.map((table) => REPORT_TABLE_SHEETS[table]));
    for (const sheet of workbook.worksheets)
      expect(sheet.getCell('A2').value, sheet.name).toBe(`Escola Méritus · Turma: ${TURMA_A} · Período: 02/03/2026 a 15/03/2026`);
    const turmas = tableOf(workbook.getWorksheet('Turmas')!);
    expect(turmas.rows.map((row) => row[0])).toEqual([TURMA_A]);
    expect(tableOf(workbook.getWorksheet('Méritus no tempo')!).rows).toHaveLength(14);
    expect(tableOf(workbook.getWorksheet('Indicadores')!).rows[0]!.slice(0, 2)).toEqual(['Méritus concedidos', 115]);
    expect(await t.lastAudit('report.export')).toMatchObject({ details: { table: 'all', format: 'xlsx', turmas: [TURMA_A] } });

    // The whole school's workbook lists every turma's students.
    const school = await workbookOf((await t.request('GET', `/admin/reports/workbook.xlsx?${query()}`)).rawPayload);
    const everyone = tableOf(school.getWorksheet('Alunos')!).rows.map((row) => row[0]);
    for (const student of [...a, ...b, ...big]) expect(everyone).toContain(student.studentId);

    // One table's file names its turmas and period, in its name and inside.
    const two = await t.request(
      'GET',
      `/admin/reports/export?${query({ table: 'turmas', format: 'csv' })}&turma=${encodeURIComponent(TURMA_B)}&turma=${encodeURIComponent(TURMA_A)}`,
    );
    expect(two.headers['content-disposition']).toBe(
      disposition(
        `relatorio-turmas-1º-EM-Turma-B+1º-EM-Turma-A-${PERIOD.from}-a-${PERIOD.to}.csv`,
        `relatorio-turmas-1o-EM-Turma-B+1o-EM-Turma-A-${PERIOD.from}-a-${PERIOD.to}.csv`,
      ),
    );
    expect(two.body).toContain(`Escola Méritus · Turmas: ${TURMA_B}, ${TURMA_A} · Período: 02/03/2026 a 15/03/2026`);
    const bimester = await t.request('GET', '/admin/reports/export?period=bimester&table=figures&format=csv');
    expect(bimester.body).toMatch(/Turmas: todas · Bimestre: \d{2}\/\d{2}\/\d{4}/);
  });

  test("certificates for the period's top students by Méritus earned: ties share a place and both get one; a turma's or the school's", async () => {
    const response = await t.request('GET', `/admin/reports/top-certificates.pdf?${query({ turma: TURMA_A, count: '1' })}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      disposition(
        `certificados-destaques-1º-EM-Turma-A-${PERIOD.from}-a-${PERIOD.to}.pdf`,
        `certificados-destaques-1o-EM-Turma-A-${PERIOD.from}-a-${PERIOD.to}.pdf`,
      ),
    );
    // Ícaro and Érica both earned 40 in the period (Otávio's 500 came after it): two certificates, both first.
    const pages = await pdfPages(response.rawPayload);
    expect(pages).toHaveLength(2);
    for (const [index, name] of ['Ícaro Lima', 'Érica Campos'].entries()) {
      expect(pages.some((page) => page.includes(`${name},`))).toBe(true);
      expect(pages[index]).toContain('CERTIFICADO');
      expect(pages[index]).toContain('1º lugar em Méritus da turma');
      expect(pages[index]).toContain('no período de 02/03/2026 a 15/03/2026, com 40 M$ ganhos.');
    }
    const three = await pdfPages(
      (await t.request('GET', `/admin/reports/top-certificates.pdf?${query({ turma: TURMA_A, count: '3' })}`)).rawPayload,
    );
    expect(three.map((page) => /(\d)º lugar/.exec(page)?.[1])).toEqual(['1', '1', '3']);
    expect(three[2]).toContain('Ana Beatriz Souza,');

    // The school's top: Caio's 90 of the other turma comes first.
    const school = await pdfPages((await t.request('GET', `/admin/reports/top-certificates.pdf?${query({ count: '1' })}`)).rawPayload);
    expect(school).toHaveLength(1);
    expect(school[0]).toContain('Caio Torres,');
    expect(school[0]).toContain('1º lugar em Méritus da escola');

    const nobody = await t.request('GET', `/admin/reports/top-certificates.pdf?period=custom&from=2025-03-01&to=2025-03-31`);
    expect(nobody.statusCode).toBe(404);
    expect(nobody.json().error.message).toBe('Nenhum aluno ganhou Méritus no período escolhido: não há destaques para certificar');
  });

  test("a teacher gets her turmas' documents only; hostile periods and a missing turma get a pt-BR 400", async () => {
    for (const path of ['turma.pdf', 'statements.pdf', 'top-certificates.pdf', 'workbook.xlsx']) {
      const own = await t.request('GET', `/admin/reports/${path}?${query({ turma: TURMA_A })}`, { cookie: teacher });
      expect(own.statusCode, `${path} ${own.body}`).toBe(200);
      const other = await t.request('GET', `/admin/reports/${path}?${query({ turma: TURMA_B })}`, { cookie: teacher });
      expect(other.statusCode, path).toBe(403);
      expect(other.json().error.code, path).toBe('turma_outside_turmas');
    }
    // With no turma named, what is hers: her students in the workbook, her top student (not Caio) in the certificates.
    const workbook = await workbookOf((await t.request('GET', `/admin/reports/workbook.xlsx?${query()}`, { cookie: teacher })).rawPayload);
    expect(tableOf(workbook.getWorksheet('Alunos')!).rows.map((row) => row[2])).toEqual(a.map(() => TURMA_A));
    const top = await pdfPages(
      (await t.request('GET', `/admin/reports/top-certificates.pdf?${query({ count: '1' })}`, { cookie: teacher })).rawPayload,
    );
    expect(top.join(' ')).not.toContain('Caio Torres');

    const refusals: [string, string][] = [
      [`turma.pdf?period=custom&from=2026-03-15&to=2026-03-01&turma=${encodeURIComponent(TURMA_A)}`, 'A data de início deve ser anterior'],
      [`statements.pdf?period=custom&from=1990-01-01&to=2026-03-01&turma=${encodeURIComponent(TURMA_A)}`, 'no máximo 366 dias'],
      [`workbook.xlsx?period=custom&from=2020-01-01&to=2026-03-01`, 'no máximo 366 dias'],
      [`top-certificates.pdf?period=custom&from=2026-03-15&to=2026-03-01`, 'A data de início deve ser anterior'],
      [`turma.pdf?${query()}`, 'Escolha uma turma para este documento'],
      [`statements.pdf?${query({ turma: 'Turma Fantasma' })}`, 'Turma desconhecida: Turma Fantasma'],
      [`top-certificates.pdf?${query({ count: '500' })}`, 'Escolha de 1 a 10 alunos'],
    ];
    for (const [path, message] of refusals) {
      const response = await t.request('GET', `/admin/reports/${path}`);
      expect(response.statusCode, path).toBe(400);
      expect(response.json().error.message, path).toContain(message);
    }
  });
});
