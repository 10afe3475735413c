import { randomUUID } from 'node:crypto';
import { desc, eq, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { fileTypeFromBuffer } from 'file-type';
import { describe, expect, test } from 'vitest';
import { type TestApp, withSharedAdminApp } from '../../test/test-app.ts';
import { auditLog, students } from '../../db/schema.ts';
import type { ImportPreview, ImportResult } from '../../../shared/admin-students.ts';
import { selectStudents } from '../../views/student-views.ts';

let t: TestApp;
let adminCookie: string;

withSharedAdminApp((app, cookie) => ([t, adminCookie] = [app, cookie]));

function send(url: string, bytes: Buffer, fileName = 'alunos.csv', contentType = 'text/csv') {
  const boundary = `----meritus${randomUUID().replace(/-/g, '')}`;
  const payload = Buffer.concat([
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

/** A real .xlsx workbook with these rows. */
async function workbook(rows: string[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.addWorksheet('Alunos').addRows(rows);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function preview(bytes: Buffer): Promise<ImportPreview> {
  const response = await send('/preview', bytes);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('import preview', () => {
  test('marks each row valid or says what is wrong, reading accents, the BOM and ";" as Excel writes them', async () => {
    const before = await t.db.select().from(students);
    const result = await preview(SECRETARY_FILE);
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
    const fromLatin = await preview(latin);
    expect(fromLatin.rows[0]).toMatchObject({ name: 'José Ávila Gonçalves', grade: '1º EM - Turma C', valid: true });

    const commas = Buffer.from('RA,Nome,Email,Turma,Nascimento\n6001002,Iara Tupã,iara@escola.test,3B,2008-09-09\n');
    const fromCommas = await preview(commas);
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
      const result = await preview(bytes);
      expect(result.delimiter).toBe('\t');
      expect(result.rows.map(({ studentId, name, grade, email, valid }) => ({ studentId, name, grade, email, valid }))).toEqual([
        { studentId: '6006001', name: 'João Ângelo Conceição', grade: '1º EM - Turma A', email: 'joao.angelo@escola.test', valid: true },
        { studentId: '6006002', name: 'Souza, Lívia; a Segunda', grade: '2º EM - Turma B', email: null, valid: true },
        { studentId: '6006003', name: 'Maria "Duda" Melo', grade: '3º EM - Turma C', email: null, valid: true },
      ]);
    }

    const imported = await send('', little, 'alunos.txt', 'text/plain');
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
    const result = await preview(excelCsv(['Matrícula;Nome;Série', '1,23457E+11;Tomás Prado;1A', '6004002;Vera Lins;1A']));
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
      '01/02/2024;6002001;Rita Castro;2A;pai@familia.test;10/10/1980;Lúcia Castro',
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

  // What a teacher often sends: the workbook itself, which read as text had only an unknown header.
  test('refuses a workbook saved as .xlsx, saying how to save it as CSV', async () => {
    const bytes = await workbook([
      ['Matrícula', 'Nome', 'Série'],
      ['6005001', 'Ana Lima', '1A'],
    ]);
    for (const url of ['/preview', '']) {
      const response = await send(url, bytes, 'alunos.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toBe(
        'O arquivo não é um CSV: salve a planilha como "CSV UTF-8" (no Excel, em Salvar como) e envie de novo',
      );
    }
    expect(await t.db.select().from(students).where(eq(students.studentId, '6005001'))).toEqual([]);
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
    const response = await send('', SECRETARY_FILE);
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
    const response = await send('', SECRETARY_FILE);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe('Nenhuma linha válida para importar');
    expect(await t.db.select().from(students)).toHaveLength(before);
    const again = await preview(SECRETARY_FILE);
    expect(again.rows.find((row) => row.studentId === '5001002')!.problems).toEqual(['Matrícula já cadastrada']);
  });
});

describe('text PostgreSQL cannot store', () => {
  test('a full-width matrícula is the plain one (and a repeat of it), and a name with an invisible character is flagged', async () => {
    const result = await preview(
      excelCsv([
        'Matrícula;Nome;Email;Série',
        '\uff17\uff10\uff10\uff12\uff10\uff10\uff11;Rita Nunes;;1A',
        '7002001;Rita Nunes;;1A',
        '7002002;Sara\u200bTeles;;1A',
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
      '7001001;Nair Queiroz;;1A',
      '7001002;Otto\u0000Ramos;;1A',
      '70010\u000003;Paula Reis;;2B',
      '7001004;Quitéria Sá;quiteria\u0000@escola.test;3C',
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
