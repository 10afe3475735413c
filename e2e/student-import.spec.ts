import { randomInt } from 'node:crypto';
import type { Download } from '@playwright/test';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { expect, loginViaApi, navigate, test } from './fixtures.ts';

const SCREEN = '/admin/students';

async function bytesOf(download: Download): Promise<Buffer> {
  return Buffer.concat((await (await download.createReadStream()).toArray()) as Buffer[]);
}

const cellsOf = (csv: string) => Papa.parse<string[]>(csv.replace(/^\uFEFF/, ''), { delimiter: ';', skipEmptyLines: true }).data;

test.describe('Importar alunos: modelo, planilha .xlsx, turmas parecidas e linhas com problemas', () => {
  test('the template downloads, filled in Excel it imports once a suggested turma is confirmed, and the rows with problems download', async ({
    page,
  }) => {
    test.slow(); // three downloads, two previews and an import
    await loginViaApi(page.context(), 'admin');
    await navigate(page, SCREEN);
    await page.getByRole('button', { name: 'Importar planilha' }).click();
    const wizard = page.getByRole('dialog', { name: 'Importar alunos' });

    const [csvTemplate] = await Promise.all([page.waitForEvent('download'), wizard.getByRole('link', { name: 'Modelo CSV' }).click()]);
    expect(csvTemplate.suggestedFilename()).toBe('modelo-importacao-alunos.csv');
    const [header, example] = cellsOf((await bytesOf(csvTemplate)).toString('utf8'));
    expect(header).toEqual(['Matrícula', 'Nome', 'Email', 'Turma', 'Data de nascimento']);
    expect(example![0]).toMatch(/^Exemplo/);

    const [xlsxTemplate] = await Promise.all([
      page.waitForEvent('download'),
      wizard.getByRole('link', { name: 'Modelo Excel (.xlsx)' }).click(),
    ]);
    expect(xlsxTemplate.suggestedFilename()).toBe('modelo-importacao-alunos.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await bytesOf(xlsxTemplate)) as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'Matrícula', 'Nome', 'Email', 'Turma', 'Data de nascimento']);

    // The secretary fills the template under its example row, which stays and is never imported.
    const suffix = String(randomInt(10_000, 99_999));
    sheet.addRow([`84${suffix}`, 'Olívia Exata', '', '3º EM - Turma D', '10/10/2010']);
    sheet.addRow([`85${suffix}`, 'Benício Sugerido', '', '2º B', '11/11/2010']);
    sheet.addRow([`86${suffix}`, 'Turma Inventada', '', '9Z', '']);
    await wizard.getByLabel('Planilha de alunos').setInputFiles({
      name: 'alunos-preenchido.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from(await book.xlsx.writeBuffer()),
    });
    await expect(wizard.getByText('1 válida', { exact: true })).toBeVisible();
    await expect(wizard.getByText('2 com problemas')).toBeVisible();
    await expect(wizard.getByText('Planilha do Excel: primeira aba')).toBeVisible();
    const preview = wizard.getByRole('table', { name: 'Pré-visualização da importação' });
    await expect(preview.getByRole('row').filter({ hasText: 'Benício Sugerido' })).toContainText(
      'Turma "2º B" não encontrada; confirme a sugestão "2º EM - Turma B"',
    );
    await expect(preview.getByRole('row').filter({ hasText: 'Exemplo' })).toHaveCount(0);

    // Nothing is applied until the coordinator confirms the suggestion.
    const suggestions = wizard.getByRole('region', { name: 'Turmas parecidas com as da escola' });
    await suggestions.getByRole('button', { name: 'Confirmar “2º B” como 2º EM - Turma B' }).click();
    await expect(wizard.getByText('2 válidas', { exact: true })).toBeVisible();
    await expect(wizard.getByText('1 com problemas')).toBeVisible();
    await expect(suggestions.getByText('Confirmada')).toBeVisible();
    await expect(preview.getByRole('row').filter({ hasText: 'Benício Sugerido' })).toContainText('2º EM - Turma B');

    const [problems] = await Promise.all([
      page.waitForEvent('download'),
      wizard.getByRole('button', { name: 'Baixar linhas com problemas' }).click(),
    ]);
    expect(problems.suggestedFilename()).toMatch(/^linhas-com-problemas-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(cellsOf((await bytesOf(problems)).toString('utf8'))).toEqual([
      ['Matrícula', 'Nome', 'Email', 'Turma', 'Data de nascimento', 'Problema'],
      [`86${suffix}`, 'Turma Inventada', '', '9Z', '', 'Turma não reconhecida: "9Z"'],
    ]);

    await wizard.getByRole('button', { name: 'Importar 2 alunos' }).click();
    const done = page.getByRole('dialog', { name: '2 alunos importados' });
    await expect(done).toBeVisible();
    const [leftOut] = await Promise.all([
      page.waitForEvent('download'),
      done.getByRole('button', { name: 'Baixar linhas com problemas (CSV)' }).click(),
    ]);
    expect(cellsOf((await bytesOf(leftOut)).toString('utf8'))[1]).toEqual([
      `86${suffix}`,
      'Turma Inventada',
      '',
      '9Z',
      '',
      'Turma não reconhecida: "9Z"',
    ]);
    await Promise.all([page.waitForEvent('download'), done.getByRole('button', { name: 'Baixar senhas (CSV)' }).click()]);
    await done.getByRole('button', { name: 'Concluir' }).click();

    const found = await page.request.get(`/api/admin/students?q=${encodeURIComponent(`85${suffix}`)}`);
    expect((await found.json()).items).toEqual([
      expect.objectContaining({ name: 'Benício Sugerido', grade: '2º EM - Turma B', birthDate: '2010-11-11' }),
    ]);
  });
});
