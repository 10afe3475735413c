import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addStudents, buildTestApp, type TestApp } from '../../test/test-app.ts';
import type { AdminStudentsPage } from '../../../shared/admin-students.ts';
import type { DirectoryPage } from '../../../shared/students.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';

let t: TestApp;
let ana: string;

beforeAll(async () => {
  t = await buildTestApp();
  // 120 more students in 1º EM - Turma C, plus a few names to search for.
  await addStudents(
    t.db,
    Array.from({ length: 120 }, (_, n) => ({
      studentId: String(5100000 + n),
      name: `Aluno Paginado ${String(n).padStart(3, '0')}`,
      grade: '1º EM - Turma C',
    })),
  );
  await addStudents(t.db, [
    { studentId: '5200001', name: 'João Araújo Conceição', grade: '2º EM - Turma B', email: 'joao.araujo@escola.test' },
    { studentId: '5200002', name: 'Maria 100% Silva', grade: '2º EM - Turma B' },
    { studentId: '5200003', name: 'Pedro_Sublinhado', grade: '3º EM - Turma A' },
  ]);
  ana = await t.loginStudent('3000001');
});
afterAll(async () => t.close());

async function adminPage(query: string): Promise<AdminStudentsPage> {
  const response = await t.request('GET', `/admin/students${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function directory(query: string, cookie = ana): Promise<DirectoryPage> {
  const response = await t.request('GET', `/students/directory${query}`, { cookie });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const names = (page: { items: { name: string }[] }) => page.items.map((student) => student.name);

describe('the staff search, a page at a time', () => {
  test('pages in a stable order (name, then matrícula) without repeating or skipping anyone, and counts them all', async () => {
    const first = await adminPage('?size=50');
    expect(first).toMatchObject({ page: 1, size: 50, total: 127, schoolTotal: 127 });
    expect(first.items).toHaveLength(50);
    const seen = [...first.items];
    for (let page = 2; page <= 3; page += 1) seen.push(...(await adminPage(`?size=50&page=${page}`)).items);
    expect(seen).toHaveLength(127);
    expect(new Set(seen.map((student) => student.id)).size).toBe(127);
    expect((await adminPage('?size=50&page=4')).items).toEqual([]);
    // The order is the database's order by name, the same on every page.
    const again = [...(await adminPage('?size=100')).items, ...(await adminPage('?size=100&page=2')).items];
    expect(again.map((student) => student.id)).toEqual(seen.map((student) => student.id));
  });

  test('finds by name without accents, by matrícula, by email and by série; a turma narrows it; the school total stays', async () => {
    expect(names(await adminPage('?q=joao%20araujo'))).toEqual(['João Araújo Conceição']);
    expect(names(await adminPage('?q=CONCEICAO'))).toEqual(['João Araújo Conceição']);
    expect(names(await adminPage('?q=5200001'))).toEqual(['João Araújo Conceição']);
    expect(names(await adminPage('?q=joao.araujo%40'))).toEqual(['João Araújo Conceição']);
    expect((await adminPage(`?q=${encodeURIComponent('1º EM - Turma C')}&size=10`)).total).toBe(120);
    const turma = await adminPage(`?turma=${encodeURIComponent('2º EM - Turma B')}`);
    expect(names(turma)).toEqual(['João Araújo Conceição', 'Maria 100% Silva']);
    expect(turma).toMatchObject({ total: 2, schoolTotal: 127 });
    expect((await adminPage(`?turma=${encodeURIComponent('2º EM - Turma B')}&q=maria`)).total).toBe(1);
    expect((await adminPage('?turma=Turma%20Fantasma')).total).toBe(0);
  });

  test('a search pages too: the second page follows the first', async () => {
    const first = await adminPage('?q=paginado&size=100');
    const second = await adminPage('?q=paginado&size=100&page=2');
    expect([first.total, first.items.length, second.items.length]).toEqual([120, 100, 20]);
    expect(second.items[0]!.name).toBe('Aluno Paginado 100');
  });

  test('only the students holding Estelecas, for the removal dialog', async () => {
    const carla = t.students[2]!;
    await t.award(carla.id, 3, { currency: 'estelecas' });
    const holding = await adminPage('?withEstelecas=true');
    expect(holding.items.map((student) => student.id)).toEqual([carla.id]);
  });

  test('% and _ are not wildcards, and a search of nothing but symbols lists everyone', async () => {
    expect(names(await adminPage('?q=100%25%20silva'))).toEqual(['Maria 100% Silva']);
    expect((await adminPage('?q=%25%25')).total).toBe(127);
    expect(names(await adminPage('?q=pedro_sub'))).toEqual(['Pedro_Sublinhado']);
    expect((await adminPage('?q=_')).total).toBe(127);
    expect((await adminPage('?q=zz_yy')).total).toBe(0);
  });

  test.each([
    ['?page=0', 'invalid_page'],
    ['?page=-1', 'invalid_page'],
    ['?page=1.5', 'invalid_page'],
    ['?page=abc', 'invalid_page'],
    ['?page=100001', 'invalid_page'],
    ['?size=0', 'invalid_page'],
    ['?size=101', 'invalid_page'],
    ['?size=100000', 'invalid_page'],
    [`?q=${'a'.repeat(101)}`, 'search_too_long'],
    ['?withEstelecas=talvez', 'validation'],
  ] as const)('%s is refused in pt-BR, never a 500', async (query, code) => {
    const response = await t.request('GET', `/admin/students${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code, message: ERROR_MESSAGES[code] });
  });

  test('a page far past the end is empty, with the count', async () => {
    expect(await adminPage('?page=100000&size=100')).toMatchObject({ items: [], total: 127 });
  });
});

describe('the order of names', () => {
  test('names sort as a Brazilian reads them on both databases: an accented first letter among its plain ones, not after Z', async () => {
    const own = await buildTestApp();
    try {
      await addStudents(own.db, [
        { studentId: '5300001', name: 'Zuleica Ordem', grade: '3º EM - Turma C' },
        { studentId: '5300002', name: 'Érica Ordem', grade: '3º EM - Turma C' },
        { studentId: '5300003', name: 'Álvaro Ordem', grade: '3º EM - Turma C' },
        { studentId: '5300004', name: 'eduardo Ordem', grade: '3º EM - Turma C' },
      ]);
      const listed = await own.request('GET', '/admin/students?turma=3%C2%BA%20EM%20-%20Turma%20C');
      expect(names(listed.json())).toEqual(['Álvaro Ordem', 'eduardo Ordem', 'Érica Ordem', 'Zuleica Ordem']);
      const searched = await own.request('GET', '/admin/students?q=ordem');
      expect(names(searched.json())).toEqual(['Álvaro Ordem', 'eduardo Ordem', 'Érica Ordem', 'Zuleica Ordem']);
    } finally {
      await own.close();
    }
  });
});

describe('the transfer directory, a page at a time', () => {
  test('leaves the student out, pages and counts the others', async () => {
    const first = await directory('?size=100');
    expect(first).toMatchObject({ total: 126, page: 1, size: 100 });
    const all = [...first.items, ...(await directory('?size=100&page=2')).items];
    expect(all).toHaveLength(126);
    expect(all.some((student) => student.studentId === '3000001')).toBe(false);
    expect((await directory('?q=ana%20beatriz')).total).toBe(0);
  });

  test('searches by name without accents, matrícula and série, never by a classmate’s email', async () => {
    expect(names(await directory('?q=JOAO'))).toEqual(['João Araújo Conceição']);
    expect(names(await directory('?q=5200001'))).toEqual(['João Araújo Conceição']);
    expect(names(await directory(`?q=${encodeURIComponent('3º em')}`))).toEqual(['Diego Martins Rocha', 'Pedro_Sublinhado']);
    expect((await directory('?q=joao.araujo%40escola')).total).toBe(0);
    expect((await directory('?q=escola')).total).toBe(0);
  });

  test('each classmate comes with public fields only', async () => {
    const page = await directory('?q=joao');
    expect(Object.keys(page.items[0]!).sort()).toEqual(['grade', 'id', 'name', 'photo', 'studentId']);
    expect(JSON.stringify(page)).not.toContain('@escola.test');
  });

  test('hostile queries are refused in pt-BR', async () => {
    for (const query of ['?page=-3', '?size=500', `?q=${'%25'.repeat(101)}`]) {
      const response = await t.request('GET', `/students/directory${query}`, { cookie: ana });
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.message, query).toMatch(/Página inválida|A busca deve ter no máximo 100 caracteres/);
    }
  });
});
