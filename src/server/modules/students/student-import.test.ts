import { randomUUID } from 'node:crypto';
import { desc, eq, inArray } from 'drizzle-orm';
import { deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { fileTypeFromBuffer } from 'file-type';
import { describe, expect, test } from 'vitest';
import { type TestApp, withSharedAdminApp } from '../../test/test-app.ts';
import { auditLog, students } from '../../db/schema.ts';
import type { ImportPreview, ImportResult, ImportTurmaChoice } from '../../../shared/admin-students.ts';
import { selectStudents } from '../../views/student-views.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';

let t: TestApp;
let adminCookie: string;

withSharedAdminApp((app, cookie) => ([t, adminCookie] = [app, cookie]));

/** Sends the file, and before it the confirmed turma suggestions (the field "turmas") when given. */
function send(url: string, bytes: Buffer, fileName = 'alunos.csv', contentType = 'text/csv', turmas?: ImportTurmaChoice[] | string) {
  const boundary = `----meritus${randomUUID().replace(/-/g, '')}`;
  const field =
    turmas === undefined
      ? ''
      : `--${boundary}\r\nContent-Disposition: form-data; name="turmas"\r\n\r\n${typeof turmas === 'string' ? turmas : JSON.stringify(turmas)}\r\n`;
  const payload = Buffer.concat([
    Buffer.from(field),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: 'POST',
    url: `/api/admin/students/import${url}`,
    headers: { cookie: adminCookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** What Excel in Brazil writes for "CSV UTF-8 (delimitado por vírgulas)": a BOM, `;` and CRLF. */
function excelCsv(lines: string[]): Buffer {
  return Buffer.concat([BOM, Buffer.from(lines.join('\r\n') + '\r\n', 'utf8')]);
}

const SECRETARY_FILE = excelCsv([
  'Matrícula;Nome do aluno;E-mail;Série;Data de nascimento',
  '5001001;João Pedro Araújo;Joao.Araujo@escola.test;1A;05/03/2010',
  '5001002;Maria Eduarda Conceição;;1º EM - Turma B;2010-11-30',
  '5001003;Ângela Souza Brandão;angela@escola.test;2 EM C;1/2/2009',
  ';Sem Matrícula;;1A;',
  '5001005;;;1A;',
  '5001006;Série Errada;;5º Z;',
  '5001001;Repetido no Arquivo;;2A;',
  '3000001;Já Cadastrada;;3D;',
  '5001009;Email Ruim;email@;3ª série D;',
  '5001010;Data Ruim;;3 EM A;31/02/2010',
  '5001011;"Luís Otávio; o Segundo";;1ª série b;',
  '5001012;Sem Série;;;',
  '5001013;Email Repetido;joao.araujo@escola.test;1A;',
  '5001014;Email de Outro Aluno;ana@escola.test;1A;',
  ';;;;',
]);

/**
 * What Excel writes for "Texto Unicode" (Salvar como › Texto Unicode, a .txt): UTF-16 little-endian with its
 * byte-order mark FF FE, tab between cells, CRLF; a cell holding a quote is quoted, with the quote doubled.
 */
function excelUnicodeText(lines: string[]): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(lines.join('\r\n') + '\r\n', 'utf16le')]);
}

/** An MPEG-1 Layer I stream, 32 kbit/s mono at 32 kHz: frames of silence, each starting FF FE like a UTF-16 byte-order mark. */
function mpegLayerOneAudio(frames: number): Buffer {
  const frame = Buffer.alloc(48);
  frame.set([0xff, 0xfe, 0x18, 0xc0]);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

/** A real .xlsx workbook with these rows on its first sheet (a second sheet holds other things). */
async function workbook(rows: ExcelJS.CellValue[][], shape?: (sheet: ExcelJS.Worksheet) => void): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Alunos');
  sheet.addRows(rows);
  shape?.(sheet);
  book.addWorksheet('Outra').addRows([
    ['Matrícula', 'Nome'],
    ['9999999', 'Não é desta aba'],
  ]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>';

/**
 * A zip of deflated parts, written by hand so a part can declare a size other than its real one: what a zip bomb does
 * (a few kilobytes that unzip to gigabytes).
 */
function zipOf(parts: { name: string; data: Buffer; declaredSize?: number }[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const { name, data, declaredSize } of parts) {
    const packed = deflateRawSync(data);
    const fileName = Buffer.from(name);
    const size = declaredSize ?? data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(fileName.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(packed.length, 20);
    entry.writeUInt32LE(size, 24);
    entry.writeUInt16LE(fileName.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, fileName, packed);
    central.push(entry, fileName);
    offset += 30 + fileName.length + packed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** Reads a CSV the server wrote (BOM, ";") back into cells. */
function csvCells(csv: string): string[][] {
  return Papa.parse<string[]>(csv.replace(/^\uFEFF/, ''), { delimiter: ';', skipEmptyLines: true }).data;
}

async function preview(bytes: Buffer, turmas?: ImportTurmaChoice[]): Promise<ImportPreview> {
  const response = await send('/preview', bytes, 'alunos.csv', 'text/csv', turmas);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** Every turma suggestion of a preview, as the coordinator confirms them. */
const allSuggestions = (result: ImportPreview): ImportTurmaChoice[] => result.turmaSuggestions.map(({ from, to }) => ({ from, to }));

/** The preview once the coordinator confirmed every suggested turma. */
async function previewConfirmed(bytes: Buffer): Promise<ImportPreview> {
  return preview(bytes, allSuggestions(await preview(bytes)));
}

describe('import preview', () => {
  test('marks each row valid or says what is wrong, reading accents, the BOM and ";" as Excel writes them', async () => {
    const before = await t.db.select().from(students);
    const unconfirmed = await preview(SECRETARY_FILE);
    // A turma that only resembles one of the school's is never taken silently: the row waits for the coordinator.
    expect(unconfirmed.rows.find((row) => row.line === 2)).toMatchObject({
      grade: '1A',
      valid: false,
      problems: ['Turma "1A" não encontrada; confirme a sugestão "1º EM - Turma A"'],
    });
    expect(unconfirmed.turmaSuggestions).toEqual([
      { from: '1A', to: '1º EM - Turma A', rows: 5, confirmed: false },
      { from: '2 EM C', to: '2º EM - Turma C', rows: 1, confirmed: false },
      { from: '2A', to: '2º EM - Turma A', rows: 1, confirmed: false },
      { from: '3D', to: '3º EM - Turma D', rows: 1, confirmed: false },
      { from: '3ª série D', to: '3º EM - Turma D', rows: 1, confirmed: false },
      { from: '3 EM A', to: '3º EM - Turma A', rows: 1, confirmed: false },
      { from: '1ª série b', to: '1º EM - Turma B', rows: 1, confirmed: false },
    ]);
    expect(unconfirmed.validCount).toBe(1);

    const result = await preview(SECRETARY_FILE, allSuggestions(unconfirmed));
    expect(result.turmaSuggestions.every((suggestion) => suggestion.confirmed)).toBe(true);
    expect(result.delimiter).toBe(';');
    const byLine = new Map(result.rows.map((row) => [row.line, row]));
    expect(byLine.get(2)).toMatchObject({
      studentId: '5001001',
      name: 'João Pedro Araújo',
      email: 'joao.araujo@escola.test',
      grade: '1º EM - Turma A',
      birthDate: '2010-03-05',
      valid: true,
      problems: [],
    });
    expect(byLine.get(3)).toMatchObject({
      name: 'Maria Eduarda Conceição',
      email: null,
      grade: '1º EM - Turma B',
      birthDate: '2010-11-30',
      valid: true,
    });
    expect(byLine.get(4)).toMatchObject({ name: 'Ângela Souza Brandão', grade: '2º EM - Turma C', birthDate: '2009-02-01', valid: true });
    expect(byLine.get(5)).toMatchObject({ valid: false, problems: ['Matrícula não informada'] });
    expect(byLine.get(6)).toMatchObject({ valid: false, problems: ['Nome não informado'] });
    expect(byLine.get(7)).toMatchObject({ valid: false, problems: ['Turma não reconhecida: "5º Z"'] });
    expect(byLine.get(8)).toMatchObject({ valid: false, problems: ['Matrícula repetida no arquivo (linha 2)'] });
    expect(byLine.get(9)).toMatchObject({ valid: false, problems: ['Matrícula já cadastrada'] });
    expect(byLine.get(10)).toMatchObject({ valid: false, problems: ['Email inválido'], grade: '3º EM - Turma D' });
    expect(byLine.get(11)).toMatchObject({ valid: false, problems: ['Data de nascimento inválida (use dd/mm/aaaa)'] });
    expect(byLine.get(12)).toMatchObject({ name: 'Luís Otávio; o Segundo', grade: '1º EM - Turma B', valid: true });
    expect(byLine.get(13)).toMatchObject({ valid: false, problems: ['Turma não informada'] });
    expect(byLine.get(14)).toMatchObject({ valid: false, problems: ['Email repetido no arquivo (linha 2)'] });
    expect(byLine.get(15)).toMatchObject({ valid: false, problems: ['Email já usado por outro estudante'] });
    expect(result.rows).toHaveLength(14);
    expect(result.validCount).toBe(4);
    expect(result.invalidCount).toBe(10);
    // A preview writes nothing.
    expect(await t.db.select().from(students)).toHaveLength(before.length);
  });

  test('reads a Windows-1252 file (older Excel) and comma-separated files, and joins separate Série and Turma columns', async () => {
    const latin = Buffer.from('Matrícula;Nome;Série;Turma\r\n6001001;José Ávila Gonçalves;1º ano;C\r\n', 'latin1');
    expect(latin.includes(Buffer.from('José', 'utf8'))).toBe(false);
    const fromLatin = await previewConfirmed(latin);
    expect(fromLatin.rows[0]).toMatchObject({ name: 'José Ávila Gonçalves', grade: '1º EM - Turma C', valid: true });

    const commas = Buffer.from('RA,Nome,Email,Turma,Nascimento\n6001002,Iara Tupã,iara@escola.test,3B,2008-09-09\n');
    const fromCommas = await previewConfirmed(commas);
    expect(fromCommas.delimiter).toBe(',');
    expect(fromCommas.rows[0]).toMatchObject({
      studentId: '6001002',
      name: 'Iara Tupã',
      grade: '3º EM - Turma B',
      birthDate: '2008-09-09',
      valid: true,
    });
  });

  test('reads Excel\'s "Texto Unicode" (UTF-16 with its byte-order mark, tab-separated), little- and big-endian', async () => {
    const lines = [
      'Matrícula\tNome do aluno\tSérie\tE-mail',
      '6006001\tJoão Ângelo Conceição\t1A\tjoao.angelo@escola.test',
      '6006002\tSouza, Lívia; a Segunda\t2º ano B\t',
      '6006003\t"Maria ""Duda"" Melo"\t3 EM C\t',
    ];
    const little = excelUnicodeText(lines);
    // What refused it: file-type reads the byte-order mark as an MPEG audio frame.
    expect((await fileTypeFromBuffer(little))?.mime).toBe('audio/mpeg');
    const big = Buffer.from(little).swap16();
    expect([...big.subarray(0, 2)]).toEqual([0xfe, 0xff]);
    for (const bytes of [little, big]) {
      const result = await previewConfirmed(bytes);
      expect(result.delimiter).toBe('\t');
      expect(result.rows.map(({ studentId, name, grade, email, valid }) => ({ studentId, name, grade, email, valid }))).toEqual([
        { studentId: '6006001', name: 'João Ângelo Conceição', grade: '1º EM - Turma A', email: 'joao.angelo@escola.test', valid: true },
        { studentId: '6006002', name: 'Souza, Lívia; a Segunda', grade: '2º EM - Turma B', email: null, valid: true },
        { studentId: '6006003', name: 'Maria "Duda" Melo', grade: '3º EM - Turma C', email: null, valid: true },
      ]);
    }

    const imported = await send('', little, 'alunos.txt', 'text/plain', allSuggestions(await preview(little)));
    expect(imported.statusCode, imported.body).toBe(201);
    expect((imported.json() as ImportResult).created).toBe(3);
    const rows = await selectStudents(t.db).where(inArray(students.studentId, ['6006001', '6006002', '6006003']));
    expect(rows.map((row) => row.name).sort()).toEqual(['João Ângelo Conceição', 'Maria "Duda" Melo', 'Souza, Lívia; a Segunda']);
  });

  test('still refuses audio, whose MPEG frames begin with the same bytes as a UTF-16 byte-order mark', async () => {
    const audio = mpegLayerOneAudio(40);
    expect((await fileTypeFromBuffer(audio))?.mime).toBe('audio/mpeg');
    for (const url of ['/preview', '']) {
      const response = await send(url, audio, 'aula.mp3', 'audio/mpeg');
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('import_not_csv');
    }
  });

  test('a matrícula Excel turned into a number (1,23457E+11) is flagged: its last digits are gone', async () => {
    const result = await preview(
      excelCsv(['Matrícula;Nome;Série', '1,23457E+11;Tomás Prado;1º EM - Turma A', '6004002;Vera Lins;1º EM - Turma A']),
    );
    expect(result.rows.map((row) => [row.studentId, row.valid, row.problems])).toEqual([
      [
        '1,23457E+11',
        false,
        ['Matrícula convertida pelo Excel em número (1,23457E+11): formate a coluna como Texto e salve o arquivo de novo'],
      ],
      ['6004002', true, []],
    ]);
  });

  test("a parent's e-mail and birth date and the date of enrolment are not taken for the student's own", async () => {
    const file = excelCsv([
      'Data de matrícula;Matrícula;Nome;Série;E-mail do responsável;Data de nascimento do responsável;Nome da mãe',
      '01/02/2024;6002001;Rita Castro;2º EM - Turma A;pai@familia.test;10/10/1980;Lúcia Castro',
    ]);
    const result = await preview(file);
    expect(result.rows).toEqual([
      expect.objectContaining({ studentId: '6002001', name: 'Rita Castro', email: null, birthDate: null, valid: true }),
    ]);
  });

  test.each([
    [
      'no recognisable header',
      Buffer.from('a;b;c\r\n1;2;3\r\n'),
      400,
      'Cabeçalho não reconhecido: o arquivo precisa das colunas matrícula e nome',
    ],
    ['only a header', excelCsv(['Matrícula;Nome;Série']), 400, 'O arquivo não tem nenhuma linha de aluno'],
    ['an empty file', Buffer.alloc(0), 400, 'O arquivo está vazio'],
    [
      'a file over 2 MB',
      Buffer.concat([Buffer.from('Matrícula;Nome;Série\n'), Buffer.alloc(2 * 1024 * 1024, 'x')]),
      413,
      'Arquivo muito grande. Máximo 2MB.',
    ],
    [
      'more than 5,000 rows',
      Buffer.from(['Matrícula;Nome;Série', ...Array.from({ length: 5001 }, (_, i) => `${9000000 + i};Aluno ${i};1A`)].join('\n')),
      400,
      'O arquivo tem mais de 5.000 linhas; divida-o em partes menores',
    ],
    [
      // From the stray quote on, the parser would read the rest of the file as one cell: three students silently left out.
      'a quote without its pair, instead of previewing the rows after it as one',
      excelCsv(['Matrícula;Nome;Série', '6003001;Ana Lima;1A', '6003002;"Bia" Souza;1A', '6003003;Caio Reis;1A', '6003004;Duda Melo;1A']),
      400,
      'O arquivo tem aspas (") sem par: corrija a linha indicada ou salve a planilha de novo como CSV (linha 3).',
    ],
  ])('refuses %s', async (_label, bytes, status, message) => {
    const response = await send('/preview', bytes);
    expect(response.statusCode).toBe(status);
    expect(response.json().error.message).toBe(message);
  });

  test('a request that is not a file upload says “Nenhum arquivo selecionado”', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/students/import/preview',
      headers: { cookie: adminCookie },
      payload: { csv: 'Matrícula;Nome\n1;A' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe('Nenhum arquivo selecionado');
  });
});

describe('import', () => {
  test('creates every valid row in one step with generated passwords, returned once as a CSV, and each student can sign in', async () => {
    const response = await send('', SECRETARY_FILE, 'alunos.csv', 'text/csv', allSuggestions(await preview(SECRETARY_FILE)));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    const result: ImportResult = response.json();
    expect(result.message).toBe('4 alunos importados');
    expect(result.created).toBe(4);
    expect(result.skipped).toBe(10);
    expect(result.credentials.map((c) => c.studentId)).toEqual(['5001001', '5001002', '5001003', '5001011']);
    for (const credential of result.credentials) {
      expect(credential.password).toMatch(/^[a-z]{4}-[a-z]{4}-[2-9]{2}$/);
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/auth/student/login',
        payload: { studentId: credential.studentId, password: credential.password },
      });
      expect(login.statusCode).toBe(200);
    }
    expect(new Set(result.credentials.map((c) => c.password)).size).toBe(4);

    expect(result.credentialsCsv.startsWith('\uFEFFMatrícula;Nome;Turma;Senha inicial\r\n')).toBe(true);
    const joao = result.credentials.find((c) => c.studentId === '5001001')!;
    expect(result.credentialsCsv).toContain(`5001001;João Pedro Araújo;1º EM - Turma A;${joao.password}\r\n`);
    expect(result.credentialsCsv).toContain('"Luís Otávio; o Segundo"');

    const rows = await selectStudents(t.db).where(inArray(students.studentId, ['5001001', '5001003']));
    expect(rows.find((row) => row.studentId === '5001001')).toMatchObject({
      name: 'João Pedro Araújo',
      email: 'joao.araujo@escola.test',
      grade: '1º EM - Turma A',
      birthDate: '2010-03-05',
      meritus: 0,
    });
    expect(rows.every((row) => !row.passwordHash.includes(joao.password))).toBe(true);

    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'students.import')).orderBy(desc(auditLog.id)).limit(1);
    expect(audit).toMatchObject({ actorKind: 'admin', actorId: t.admin.id, actorLabel: t.admin.name });
    expect(audit!.details).toMatchObject({ created: 4, skipped: 10 });
    expect(JSON.stringify(audit!.details)).not.toContain(joao.password);
  });

  test('importing the same file again creates nothing: “Nenhuma linha válida para importar”', async () => {
    const before = (await t.db.select().from(students)).length;
    const response = await send('', SECRETARY_FILE, 'alunos.csv', 'text/csv', allSuggestions(await preview(SECRETARY_FILE)));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe('Nenhuma linha válida para importar');
    expect(await t.db.select().from(students)).toHaveLength(before);
    const again = await preview(SECRETARY_FILE);
    expect(again.rows.find((row) => row.studentId === '5001002')!.problems).toEqual(['Matrícula já cadastrada']);
  });
});

describe('an .xlsx workbook', () => {
  test('is read from its first sheet: numbers, dates, links and empty rows as the person sees them, lines as Excel numbers them', async () => {
    const birth = new Date(Date.UTC(2011, 2, 5));
    const bytes = await workbook(
      [
        ['Matrícula', 'Nome do aluno', 'E-mail', 'Turma', 'Data de nascimento'],
        [8001001, 'Heloísa Prado', { text: 'heloisa@escola.test', hyperlink: 'mailto:heloisa@escola.test' }, '1º EM - Turma A', birth],
        [],
        [123, 'Caio Zeros', null, '2º EM - Turma B', '07/08/2010'],
        ['Exemplo (esta linha não é importada)', 'Maria Exemplo', '', '1º EM - Turma A', '15/03/2012'],
        [8001003, 'Ravi Sugerido', null, '1A', null],
        [8001004, '', null, '9º Z', null],
      ],
      (sheet) => {
        sheet.getCell('A4').numFmt = '000000';
        sheet.getCell('E2').numFmt = 'dd/mm/yyyy';
      },
    );
    expect((await fileTypeFromBuffer(bytes))?.ext).toBe('xlsx');
    const first = await send('/preview', bytes, 'alunos.xlsx', XLSX);
    expect(first.statusCode, first.body).toBe(200);
    const unconfirmed: ImportPreview = first.json();
    expect(unconfirmed.delimiter).toBeNull();
    expect(unconfirmed.turmaSuggestions).toEqual([{ from: '1A', to: '1º EM - Turma A', rows: 1, confirmed: false }]);
    const result = await preview(bytes, allSuggestions(unconfirmed));
    expect(
      result.rows.map(({ line, studentId, name, email, grade, birthDate, valid }) => ({
        line,
        studentId,
        name,
        email,
        grade,
        birthDate,
        valid,
      })),
    ).toEqual([
      {
        line: 2,
        studentId: '8001001',
        name: 'Heloísa Prado',
        email: 'heloisa@escola.test',
        grade: '1º EM - Turma A',
        birthDate: '2011-03-05',
        valid: true,
      },
      { line: 4, studentId: '000123', name: 'Caio Zeros', email: null, grade: '2º EM - Turma B', birthDate: '2010-08-07', valid: true },
      { line: 6, studentId: '8001003', name: 'Ravi Sugerido', email: null, grade: '1º EM - Turma A', birthDate: null, valid: true },
      { line: 7, studentId: '8001004', name: '', email: null, grade: '9º Z', birthDate: null, valid: false },
    ]);

    const imported = await send('', bytes, 'alunos.xlsx', XLSX, allSuggestions(unconfirmed));
    expect(imported.statusCode, imported.body).toBe(201);
    const created: ImportResult = imported.json();
    expect(created.credentials.map((c) => [c.studentId, c.grade])).toEqual([
      ['8001001', '1º EM - Turma A'],
      ['000123', '2º EM - Turma B'],
      ['8001003', '1º EM - Turma A'],
    ]);
    const stored = await selectStudents(t.db).where(inArray(students.studentId, ['8001001', '000123', '8001003', '9999999']));
    expect(stored.map((row) => [row.studentId, row.grade, row.birthDate]).sort()).toEqual([
      ['000123', '2º EM - Turma B', '2010-08-07'],
      ['8001001', '1º EM - Turma A', '2011-03-05'],
      ['8001003', '1º EM - Turma A', null],
    ]);
  });

  test('a suggested turma nobody confirmed is never imported, and a confirmation for another turma changes nothing', async () => {
    const bytes = await workbook([
      ['Matrícula', 'Nome', 'Turma'],
      [8002001, 'Lia Sem Confirmação', '2C'],
      [8002002, 'Téo Exato', '2º EM - Turma C'],
    ]);
    const response = await send('', bytes, 'alunos.xlsx', XLSX, [{ from: '2C', to: '3º EM - Turma D' }]);
    expect(response.statusCode, response.body).toBe(201);
    const result: ImportResult = response.json();
    expect(result.credentials.map((c) => c.studentId)).toEqual(['8002002']);
    expect(csvCells(result.problemsCsv!)).toEqual([
      ['Matrícula', 'Nome', 'Turma', 'Problema'],
      ['8002001', 'Lia Sem Confirmação', '2C', 'Turma "2C" não encontrada; confirme a sugestão "2º EM - Turma C"'],
    ]);
    const again = await send('', bytes, 'alunos.xlsx', XLSX);
    expect(again.json().error.code).toBe('import_nothing_valid');
    expect(await t.db.select().from(students).where(eq(students.studentId, '8002001'))).toEqual([]);
  });

  test('a request with a turmas field that is not the JSON of confirmations is refused', async () => {
    const bytes = await workbook([
      ['Matrícula', 'Nome', 'Turma'],
      [8003001, 'Ana', '1A'],
    ]);
    for (const turmas of ['{', '[{"from":1}]', JSON.stringify(Array.from({ length: 201 }, () => ({ from: 'a', to: 'b' })))]) {
      const response = await send('/preview', bytes, 'alunos.xlsx', XLSX, turmas);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('bad_request');
    }
  });

  test.each([
    [
      'cut short (a download that stopped halfway)',
      async () =>
        (
          await workbook([
            ['Matrícula', 'Nome'],
            ['1', 'A'],
          ])
        ).subarray(0, 3000),
    ],
    [
      'whose sheet is not XML',
      async () =>
        zipOf([
          { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) },
          { name: 'xl/workbook.xml', data: Buffer.from('isto não é XML <<<') },
        ]),
    ],
    [
      // 50 MB of zeros packed into 50 KB, its directory claiming 1 KB.
      'a zip bomb lying about its size',
      async () =>
        zipOf([
          { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) },
          { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(50 * 1024 * 1024), declaredSize: 1024 },
        ]),
    ],
  ])('refuses a malformed workbook: %s', async (_label, make) => {
    const bytes = await make();
    for (const url of ['/preview', '']) {
      const response = await send(url, bytes, 'alunos.xlsx', XLSX);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toBe(ERROR_MESSAGES.import_xlsx_malformed);
      expect(ERROR_MESSAGES.import_xlsx_malformed).toMatch(/^Planilha \.xlsx corrompida ou incompleta/);
    }
  });

  test('refuses a workbook that unzips to more than 12 MB, and one over 2 MB, before reading it', async () => {
    const bomb = zipOf([
      { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) },
      { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(13 * 1024 * 1024) },
    ]);
    expect(bomb.length).toBeLessThan(100 * 1024);
    const tooBig = await send('/preview', bomb, 'alunos.xlsx', XLSX);
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().error.message).toMatch(/^Planilha grande demais \(mais de 12 MB descompactada\)/);

    const random = (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(Math.random() * 256))).toString('base64');
    const large = await workbook([['Matrícula', 'Nome'], ...Array.from({ length: 30000 }, (_, i) => [String(i), random(60)])]);
    expect(large.length).toBeGreaterThan(2 * 1024 * 1024);
    const over = await send('/preview', large, 'alunos.xlsx', XLSX);
    expect(over.statusCode).toBe(413);
    expect(over.json().error.message).toBe('Arquivo muito grande. Máximo 2MB.');
  });

  test('an old .xls or another zip is refused with the formats that are accepted', async () => {
    const zip = zipOf([{ name: 'leiame.txt', data: Buffer.from('olá') }]);
    const response = await send('/preview', zip, 'alunos.zip', 'application/zip');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe('Formato não aceito: envie uma planilha .xlsx ou um CSV UTF-8');
  });
});

describe('the rows with problems', () => {
  test('download as the file had them plus a "Problema" column, and once fixed they import', async () => {
    const file = excelCsv([
      'RA;Nome;Série;Observação',
      '8101001;Bento Certo;1º EM - Turma A;ok',
      ';Sem Matrícula;1º EM - Turma A;falta RA',
      '8101003;Turma Errada;9º Z;',
      '8101004;Coluna a Mais;1º EM - Turma A;;sem cabeçalho',
    ]);
    const result = await preview(file);
    expect(result.validCount).toBe(2);
    expect(csvCells(result.problemsCsv!)).toEqual([
      ['RA', 'Nome', 'Série', 'Observação', 'Problema'],
      ['', 'Sem Matrícula', '1º EM - Turma A', 'falta RA', 'Matrícula não informada'],
      ['8101003', 'Turma Errada', '9º Z', '', 'Turma não reconhecida: "9º Z"'],
    ]);
    expect(result.problemsCsv!.startsWith('\uFEFFRA;Nome;Série;Observação;Problema\r\n')).toBe(true);
    const allValid = await preview(excelCsv(['Matrícula;Nome;Série', '8101009;Tudo Certo;1º EM - Turma A']));
    expect(allValid.problemsCsv).toBeNull();

    const imported: ImportResult = (await send('', file)).json();
    expect(imported.created).toBe(2);
    expect(csvCells(imported.problemsCsv!)).toEqual(csvCells(result.problemsCsv!));

    // The secretary fixes the two rows in the downloaded file and sends it back as it is, 'Problema' column included.
    const fixed = imported.problemsCsv!.replace(';Sem Matrícula;', '8101002;Sem Matrícula;').replace('9º Z', '2º EM - Turma A');
    const again = await send('', Buffer.from(fixed));
    expect(again.statusCode, again.body).toBe(201);
    expect((again.json() as ImportResult).credentials.map((c) => [c.studentId, c.grade])).toEqual([
      ['8101002', '1º EM - Turma A'],
      ['8101003', '2º EM - Turma A'],
    ]);
  });
});

describe('the template', () => {
  const template = (format: string) =>
    t.app.inject({ method: 'GET', url: `/api/admin/students/import/template?format=${format}`, headers: { cookie: adminCookie } });

  test('the CSV has the columns the import reads and an example row the import leaves out', async () => {
    const response = await template('csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toContain('modelo-importacao-alunos.csv');
    const [header, example, ...rest] = csvCells(response.body);
    expect(header).toEqual(['Matrícula', 'Nome', 'Email', 'Turma', 'Data de nascimento']);
    expect(example![0]).toBe('Exemplo (esta linha não é importada)');
    expect(example![3]).toBe('1º EM - Turma A');
    expect(rest).toEqual([]);
    // As downloaded: nothing to import. With a student added under the example: only that student.
    const asIs = await send('/preview', Buffer.from(response.body));
    expect(asIs.json().error.message).toBe('O arquivo não tem nenhuma linha de aluno');
    const filled = await preview(Buffer.from(`${response.body}8201001;Cora Nova;;1º EM - Turma B;02/02/2012\r\n`));
    expect(filled.rows.map((row) => [row.line, row.studentId, row.valid])).toEqual([[3, '8201001', true]]);
  });

  test('the .xlsx keeps matrícula and date as text, lists the turmas, and is read back by the import', async () => {
    const response = await template('xlsx');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(XLSX);
    expect(response.headers['content-disposition']).toContain('modelo-importacao-alunos.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const [sheet, help] = book.worksheets;
    expect(sheet!.getRow(1).values).toEqual([undefined, 'Matrícula', 'Nome', 'Email', 'Turma', 'Data de nascimento']);
    expect(String(sheet!.getCell('A2').value)).toMatch(/^Exemplo/);
    expect(sheet!.getColumn(1).numFmt).toBe('@');
    const helpText = help!.getColumn(1).values.join('\n');
    expect(helpText).toContain('3º EM - Turma D');

    sheet!.addRow(['008202001', 'Davi Planilha', '', '3º EM - Turma D', '09/09/2011']);
    const filled = Buffer.from(await book.xlsx.writeBuffer());
    const result = await preview(filled);
    expect(result.rows.map((row) => [row.line, row.studentId, row.grade, row.birthDate, row.valid])).toEqual([
      [3, '008202001', '3º EM - Turma D', '2011-09-09', true],
    ]);
  });

  test('an unknown format is refused', async () => {
    const response = await template('pdf');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe('Formato de exportação inválido. Use csv ou xlsx.');
  });
});

describe('text PostgreSQL cannot store', () => {
  test('a full-width matrícula is the plain one (and a repeat of it), and a name with an invisible character is flagged', async () => {
    const result = await preview(
      excelCsv([
        'Matrícula;Nome;Email;Série',
        '\uff17\uff10\uff10\uff12\uff10\uff10\uff11;Rita Nunes;;1º EM - Turma A',
        '7002001;Rita Nunes;;1º EM - Turma A',
        '7002002;Sara\u200bTeles;;1º EM - Turma A',
      ]),
    );
    expect(result.rows.map((row) => [row.studentId, row.valid, row.problems[0] ?? null])).toEqual([
      ['7002001', true, null],
      ['7002001', false, 'Matrícula repetida no arquivo (linha 2)'],
      ['7002002', false, 'O texto contém caracteres inválidos'],
    ]);
  });

  test('a NUL inside a cell flags its row (“O texto contém caracteres inválidos”, shown as �) and the other rows still import', async () => {
    const file = excelCsv([
      'Matrícula;Nome;Email;Série',
      '7001001;Nair Queiroz;;1º EM - Turma A',
      '7001002;Otto\u0000Ramos;;1º EM - Turma A',
      '70010\u000003;Paula Reis;;2º EM - Turma B',
      '7001004;Quitéria Sá;quiteria\u0000@escola.test;3º EM - Turma C',
    ]);
    const result = await preview(file);
    expect(result.rows.map((row) => [row.studentId, row.name, row.valid, row.problems[0] ?? null])).toEqual([
      ['7001001', 'Nair Queiroz', true, null],
      ['7001002', 'Otto\uFFFDRamos', false, 'O texto contém caracteres inválidos'],
      ['70010\uFFFD03', 'Paula Reis', false, 'O texto contém caracteres inválidos'],
      ['7001004', 'Quitéria Sá', false, 'O texto contém caracteres inválidos'],
    ]);

    const response = await send('', file);
    expect(response.statusCode, response.body).toBe(201);
    expect((response.json() as ImportResult).credentials.map((c) => c.studentId)).toEqual(['7001001']);
    const stored = await t.db
      .select({ name: students.name })
      .from(students)
      .where(inArray(students.studentId, ['7001001', '7001002', '7001004']));
    expect(stored).toEqual([{ name: 'Nair Queiroz' }]);
  });
});
