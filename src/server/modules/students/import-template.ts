import ExcelJS from 'exceljs';
import { toCsv } from '../../csv.ts';
import { IMPORT_EXAMPLE_MARK, IMPORT_TEMPLATE_HEADERS } from '../../../shared/admin-students.ts';

export type TemplateFile = { fileName: string; contentType: string; body: string | Buffer };

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The example row: its matrícula cell marks it, so the import leaves it out even if nobody deletes it. */
function exampleRow(turma: string): string[] {
  return [`${IMPORT_EXAMPLE_MARK} (esta linha não é importada)`, 'Maria Eduarda da Silva', 'maria.silva@email.com', turma, '15/03/2012'];
}

const INSTRUCTIONS = [
  'Preencha uma linha por aluno na aba "Alunos", a partir da linha 3, sem mudar o cabeçalho.',
  'Matrícula e Nome são obrigatórios; Turma também (use o nome exato da lista abaixo).',
  'Email e Data de nascimento (dd/mm/aaaa) podem ficar em branco.',
  'A linha de exemplo (começa com "Exemplo") nunca é importada: pode apagá-la ou deixá-la.',
  'Envie o arquivo como está (.xlsx) ou salve como "CSV UTF-8".',
];

/**
 * The import's template: the columns the import reads and one example row it ignores; the .xlsx keeps the matrícula
 * and the date as text (Excel would turn 000123 into 123, and read 05/03 as May in another locale) and lists the
 * school's turmas (`turmas`, those the staff member may import into) on a second sheet.
 */
export async function importTemplate(turmas: readonly string[], format: 'csv' | 'xlsx'): Promise<TemplateFile> {
  const example = exampleRow(turmas[0] ?? '8º ano B');
  if (format === 'csv')
    return {
      fileName: 'modelo-importacao-alunos.csv',
      contentType: 'text/csv; charset=utf-8',
      body: toCsv(IMPORT_TEMPLATE_HEADERS, [example]),
    };

  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Méritus';
  const sheet = workbook.addWorksheet('Alunos', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = IMPORT_TEMPLATE_HEADERS.map((header, index) => ({
    header,
    width: [24, 34, 32, 20, 20][index],
    style: { numFmt: '@' },
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.addRow(example).font = { italic: true, color: { argb: 'FF64748B' } };

  const help = workbook.addWorksheet('Instruções');
  help.getColumn(1).width = 100;
  help.addRow(['Como preencher']).font = { bold: true };
  for (const line of INSTRUCTIONS) help.addRow([line]);
  help.addRow([]);
  help.addRow(['Turmas da escola']).font = { bold: true };
  for (const turma of turmas) help.addRow([turma]);
  return { fileName: 'modelo-importacao-alunos.xlsx', contentType: XLSX_TYPE, body: Buffer.from(await workbook.xlsx.writeBuffer()) };
}
