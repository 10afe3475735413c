import fs from 'node:fs';
import ExcelJS from 'exceljs';
import type { Download, Page } from '@playwright/test';
import { expect, loginViaApi, navigate, test, TEST_GRADE } from './fixtures.ts';

/** Relatórios › Fim do bimestre (issue 36): every table in one workbook, a turma's report and statements, the top students' certificates. */

async function downloaded(page: Page, click: () => Promise<void>): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = await (download as Download).path();
  return { name: download.suggestedFilename(), bytes: fs.readFileSync(path) };
}

const TURMA_FILE = '1º-EM-Turma-B';

test("a turma's end of bimestre from the report screen: its workbook, report, statements and top students' certificates", async ({
  page,
  school,
}) => {
  const student = await school.createStudent();
  await school.award(student, 'meritus', 40, 'Feira de ciências');
  await loginViaApi(page, 'admin');
  await navigate(page, `/admin/reports?period=today&turma=${encodeURIComponent(TEST_GRADE)}`);
  const day = /\d{4}-\d{2}-\d{2}/.source;

  const workbook = await downloaded(page, () => page.getByRole('button', { name: 'Baixar todas as tabelas (XLSX)' }).click());
  expect(workbook.name).toMatch(new RegExp(`^relatorio-${TURMA_FILE}-${day}-a-${day}\\.xlsx$`));
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(workbook.bytes as unknown as ArrayBuffer);
  expect(book.worksheets.map((sheet) => sheet.name)).toContain('Alunos');
  const students = book.getWorksheet('Alunos')!;
  expect(students.getCell('A2').value).toMatch(new RegExp(`Turma: ${TEST_GRADE} · Dia: \\d{2}/\\d{2}/\\d{4}`));
  const line = students.getRows(5, students.rowCount - 4)!.find((row) => row.getCell(1).value === student.studentId);
  expect(line?.getCell(5).value).toBeGreaterThanOrEqual(40);

  // The page's one turma is the documents' turma already.
  await expect(page.getByLabel('Turma dos documentos')).toHaveValue(TEST_GRADE);
  const report = await downloaded(page, () => page.getByRole('button', { name: 'Relatório da turma' }).click());
  expect(report.name).toMatch(new RegExp(`^relatorio-turma-${TURMA_FILE}-${day}-a-${day}\\.pdf$`));
  expect(report.bytes.subarray(0, 5).toString()).toBe('%PDF-');
  const statements = await downloaded(page, () => page.getByRole('button', { name: 'Extratos da turma' }).click());
  expect(statements.name).toMatch(new RegExp(`^extratos-${TURMA_FILE}-${day}-a-${day}\\.pdf$`));

  await page.getByLabel('Destaques de').selectOption(TEST_GRADE);
  await page.getByLabel('Quantos alunos').selectOption('1');
  const certificates = await downloaded(page, () => page.getByRole('button', { name: 'Baixar certificados' }).click());
  expect(certificates.name).toMatch(new RegExp(`^certificados-destaques-${TURMA_FILE}-${day}-a-${day}\\.pdf$`));
  expect(certificates.bytes.subarray(0, 5).toString()).toBe('%PDF-');

  // A month long past, when nobody earned anything: the refusal is said on the screen, and nothing is saved.
  await navigate(page, '/admin/reports?period=custom&from=2020-01-01&to=2020-01-31');
  let saved = false;
  page.on('download', () => (saved = true));
  await page.getByRole('button', { name: 'Baixar certificados' }).click();
  await expect(page.getByRole('alert')).toHaveText('Nenhum aluno ganhou Méritus no período escolhido: não há destaques para certificar');
  expect(saved).toBe(false);
  // Without a turma chosen, the turma's documents wait for one.
  await expect(page.getByRole('button', { name: 'Relatório da turma' })).toBeDisabled();
});
