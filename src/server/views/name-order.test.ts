import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import ExcelJS from 'exceljs';
import { addAdmin, addStudents, buildTestApp, type TestApp, type TestStudent } from '../test/test-app.ts';
import { png, upload } from '../modules/archive/archive-test-kit.ts';
import type { ArchiveFacets, ArchivePage } from '../../shared/archive.ts';
import type { RankingAnswer } from '../../shared/students.ts';
import type { EntityPage } from '../../shared/system.ts';

/**
 * Every list that shows names or texts reads them in Portuguese order (decision 027): accented initials among their
 * letters, not after 'Z'. The names are written in another order, so neither insertion nor byte order passes.
 */
const ORDER = ['Ângelo', 'Érica', 'Ícaro', 'Ísis', 'Ítalo', 'Lívia', 'Luís', 'Vitória'];
const WRITTEN = ['Vitória', 'Ítalo', 'Luís', 'Ísis', 'Lívia', 'Érica', 'Ícaro', 'Ângelo'];
const TURMA = '2º EM - Turma C';

let t: TestApp;
let pupils: TestStudent[];
/** The names of the list that are among ORDER's, in the list's order. */
const ours = (names: readonly (string | null | undefined)[]) => names.filter((name) => ORDER.includes(name ?? ''));

beforeAll(async () => {
  t = await buildTestApp();
  pupils = await addStudents(
    t.db,
    WRITTEN.map((name, index) => ({ studentId: `81000${index}`, name, grade: TURMA })),
  );
  for (const [index, name] of WRITTEN.entries()) await addAdmin(t.db, { name, email: `ordem${index}@escola.test` });
});
afterAll(async () => t?.close());

describe('students', () => {
  test('the management list, a page at a time and searched, and its CSV export', async () => {
    const names: string[] = [];
    for (const page of [1, 2, 3]) {
      const response = await t.request('GET', `/admin/students?turma=${encodeURIComponent(TURMA)}&size=3&page=${page}`);
      names.push(...(response.json() as { items: { name: string }[] }).items.map((item) => item.name));
    }
    expect(names).toEqual(ORDER);
    const searched = await t.request('GET', `/admin/students?q=81000&turma=${encodeURIComponent(TURMA)}`);
    expect(ours((searched.json() as { items: { name: string }[] }).items.map((item) => item.name))).toEqual(ORDER);

    const csv = (await t.request('GET', '/admin/students/export.csv')).body;
    expect(ours(csv.split('\n').map((line) => line.split(';')[1]))).toEqual(ORDER);
  });

  test("a student's list of recipients, the ranking's ties and the Estelecas top list", async () => {
    const cookie = await t.loginStudent(t.students[0]!.studentId);
    const directory = await t.request('GET', '/students/directory?size=50', { cookie });
    expect(ours((directory.json() as { items: { name: string }[] }).items.map((item) => item.name))).toEqual(ORDER);

    const ranking = (await t.request('GET', '/ranking?page=0&size=50', { cookie })).json() as RankingAnswer;
    expect(ours(ranking.entries.map((row) => row.name))).toEqual(ORDER);

    for (const pupil of pupils) await t.award(pupil.id, 1, { currency: 'estelecas' });
    const top = (await t.request('GET', '/admin/estelecas/ranking')).json() as { name: string }[];
    expect(ours(top.map((row) => row.name))).toEqual(ORDER);
  });

  test('a deduction refused for the whole turma names the students short of it in order', async () => {
    const response = await t.request('POST', '/admin/operations/bulk', {
      payload: { currency: 'meritus', studentUuids: pupils.map((pupil) => pupil.id), type: 'penalty', amount: 5, description: 'Atraso' },
    });
    expect(response.statusCode).toBe(400);
    expect((response.json().error.details.short as { name: string }[]).map((row) => row.name)).toEqual(ORDER);
  });
});

test('staff: the staff list and the backend entities of students and administrators', async () => {
  const staff = (await t.request('GET', '/admin/staff')).json() as { name: string }[];
  expect(ours(staff.map((member) => member.name))).toEqual(ORDER);

  for (const entity of ['students', 'administrators']) {
    const page = (await t.request('GET', `/admin/system/entities/${entity}?pageSize=50`)).json() as EntityPage;
    expect(ours(page.rows.map((row) => row.name as string))).toEqual(ORDER);
    const csv = (await t.request('GET', `/admin/system/entities/${entity}/export.csv`)).body;
    expect(ours(csv.split('\n').map((line) => line.split(';')[1]?.replace(/"/g, '')))).toEqual(ORDER);
  }
});

test('texts: reason presets, the reports’ reasons tied on every figure (screen and XLSX) and the operations’ authors', async () => {
  for (const label of WRITTEN) expect((await t.request('POST', '/admin/reason-presets', { payload: { label } })).statusCode).toBe(201);
  const presets = (await t.request('GET', '/admin/reason-presets')).json() as { label: string }[];
  expect(ours(presets.map((preset) => preset.label))).toEqual(ORDER);

  const pupil = pupils[0]!;
  for (const description of WRITTEN) await t.award(pupil.id, 3, { description });
  const reasons = (await t.request('GET', '/admin/reports/reasons?period=today')).json() as { awards: { description: string }[] };
  expect(ours(reasons.awards.map((row) => row.description))).toEqual(ORDER);
  const xlsx = await t.request('GET', '/admin/reports/export?period=today&table=awards&format=xlsx');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
  const column: string[] = [];
  workbook.worksheets[0]!.getColumn(1).eachCell((cell) => column.push(String(cell.value)));
  expect(ours(column)).toEqual(ORDER);

  for (const [index] of WRITTEN.entries()) {
    const cookie = await t.loginAdmin(`ordem${index}@escola.test`);
    await t.request('POST', `/admin/students/${pupil.id}/meritus`, {
      cookie,
      payload: { type: 'admin_add', amount: 1, description: 'Ajuda' },
    });
  }
  const authors = (await t.request('GET', '/admin/operations/authors')).json() as { name: string }[];
  expect(ours(authors.map((author) => author.name))).toEqual(ORDER);
});

test("the archive sorted by name, both ways and a page at a time, and the albums' names", async () => {
  const cookie = await t.loginAdmin();
  for (const [index, name] of WRITTEN.entries()) {
    const file = { name: `${name}.png`, bytes: await png(4, 4, [index * 20, 10, 10]), type: 'image/png' };
    expect((await upload(t, [file], { albumName: name }, cookie)).json()).toMatchObject({ uploaded: 1 });
  }
  for (const order of ['asc', 'desc'] as const) {
    const names: string[] = [];
    let cursor: string | null = null;
    do {
      const page: ArchivePage = (
        await t.request(
          'GET',
          `/admin/archive/images?sort=name&order=${order}&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        )
      ).json();
      names.push(...page.items.map((item) => item.fileName.replace(/\.png$/, '')));
      cursor = page.nextCursor;
    } while (cursor);
    expect(names).toEqual(order === 'asc' ? ORDER : [...ORDER].reverse());
  }
  const summary = (await t.request('GET', '/admin/archive/summary')).json() as { facets: ArchiveFacets };
  expect(summary.facets.albums.map((album) => album.albumName)).toEqual(ORDER);
});
