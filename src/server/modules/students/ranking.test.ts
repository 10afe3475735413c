import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { addStudents, buildTestApp, testConfig, type TestApp } from '../../test/test-app.ts';
import { openPostgres } from '../../db/client.ts';
import { buildApp } from '../../app.ts';
import { students } from '../../db/schema.ts';
import { silentEvents } from '../../realtime/event-bus.ts';
import { createRankingStore } from './ranking-store.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import type { RankingAnswer } from '../../../shared/students.ts';
import type { StudentSummary } from '../../../shared/student-area.ts';

let t: TestApp;
let adminCookie: string;

beforeEach(async () => {
  t = await buildTestApp();
  adminCookie = await t.loginAdmin();
});
afterEach(async () => t.close());

const cookies = new Map<string, string>();
async function cookieOf(studentId: string): Promise<string> {
  const cookie = cookies.get(`${t.config.dataDir} ${studentId}`) ?? (await t.loginStudent(studentId));
  cookies.set(`${t.config.dataDir} ${studentId}`, cookie);
  return cookie;
}

function read(query: string, cookie: string, headers: Record<string, string> = {}, app: FastifyInstance = t.app) {
  return app.inject({ method: 'GET', url: `/api/ranking${query}`, headers: { cookie, ...headers } });
}

async function answer(query: string, cookie: string, app: FastifyInstance = t.app): Promise<RankingAnswer> {
  const response = await read(query, cookie, {}, app);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** Name, position and balance of each row, as compact as the screen reads them. */
const rowsOf = (entries: RankingAnswer['entries']) => entries.map((entry) => `${entry.position} ${entry.name} ${entry.meritus}`);

async function transfer(fromStudentId: string, toUuid: string, amount: number, app: FastifyInstance = t.app) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/meritus/transfers',
    headers: { cookie: await cookieOf(fromStudentId) },
    payload: { recipientId: toUuid, amount },
  });
  expect(response.statusCode, response.body).toBe(201);
}

/**
 * A school of ten: Ana and Bruno tied at 100, Carla 50, then seven at 0 ordered by name (the fixtures' Diego and six
 * more, added before anything reads the ranking).
 */
async function schoolOfTen() {
  await addStudents(
    t.db,
    ['Alice', 'Beatriz', 'Caio', 'Eduardo', 'Fábio', 'Zélia'].map((name, index) => ({ studentId: `40000${index}`, name: `${name} Teste` })),
  );
  const [ana, bruno, carla, diego] = t.students as [
    TestApp['students'][number],
    TestApp['students'][number],
    TestApp['students'][number],
    TestApp['students'][number],
  ];
  await t.award(ana.id, 100);
  await t.award(bruno.id, 100);
  await t.award(carla.id, 50);
  return { ana, bruno, carla, diego };
}

describe('GET /api/ranking', () => {
  test('pages of the ranking with the podium and the asker’s row; ties share a position and go by name', async () => {
    const { carla, diego } = await schoolOfTen();
    const asCarla = await cookieOf(carla.studentId);

    const first = await answer('?size=4', asCarla);
    expect(first).toMatchObject({ total: 10, page: 0, size: 4 });
    expect(rowsOf(first.podium)).toEqual(['1 Ana Beatriz Souza 100', '1 Bruno Henrique Lima 100', '3 Carla Dias Ferreira 50']);
    expect(rowsOf(first.entries)).toEqual([
      '1 Ana Beatriz Souza 100',
      '1 Bruno Henrique Lima 100',
      '3 Carla Dias Ferreira 50',
      '4 Alice Teste 0',
    ]);
    expect(first.me).toMatchObject({ id: carla.id, index: 2, position: 3, meritus: 50, grade: '2º EM - Turma A' });
    expect(Object.keys(first.entries[0]!).sort()).toEqual([
      'estelecas',
      'grade',
      'id',
      'meritus',
      'name',
      'photo',
      'position',
      'studentId',
    ]);

    expect(rowsOf((await answer('?page=1&size=4', asCarla)).entries)).toEqual([
      '4 Beatriz Teste 0',
      '4 Caio Teste 0',
      '4 Diego Martins Rocha 0',
      '4 Eduardo Teste 0',
    ]);
    const last = await answer('?page=2&size=4', asCarla);
    expect(rowsOf(last.entries)).toEqual(['4 Fábio Teste 0', '4 Zélia Teste 0']);
    // Past the end: no rows, the rest as always.
    expect(await answer('?page=7&size=4', asCarla)).toMatchObject({ total: 10, page: 7, entries: [], me: { index: 2 } });

    // around=me: the page that holds the asker's row.
    const aroundDiego = await answer('?around=me&size=4', await cookieOf(diego.studentId));
    expect(aroundDiego).toMatchObject({ page: 1, me: { id: diego.id, index: 6, position: 4 } });
    expect(aroundDiego.entries.map((entry) => entry.id)).toContain(diego.id);
    expect((await answer('?around=me&size=4', asCarla)).page).toBe(0);

    // The default page is the first, 50 rows; staff have no row of their own.
    const staff = await answer('', adminCookie);
    expect(staff).toMatchObject({ total: 10, page: 0, size: 50, me: null });
    expect(staff.entries).toHaveLength(10);
  });

  test.each([
    ['?page=-1', 'ranking_page_invalid'],
    ['?page=abc', 'ranking_page_invalid'],
    ['?page=1.5', 'ranking_page_invalid'],
    ['?page=100001', 'ranking_page_invalid'],
    ['?page=1&page=2', 'ranking_page_invalid'],
    ['?size=0', 'ranking_size_invalid'],
    ['?size=101', 'ranking_size_invalid'],
    ['?around=you', 'ranking_around_invalid'],
    ['?around=me&page=1', 'ranking_around_invalid'],
  ] as const)('%s is refused with a message in Portuguese', async (query, code) => {
    const response = await read(query, await cookieOf(t.students[0]!.studentId));
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code, message: ERROR_MESSAGES[code] });
  });

  test('staff asking for their own row are told they have none', async () => {
    const response = await read('?around=me', adminCookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({ code: 'ranking_no_own_row', message: 'Somente estudantes têm uma posição própria no ranking' });
  });

  test('an unchanged answer costs a 304 without a body; a transfer changes the answer and its tag', async () => {
    const { ana, bruno, diego } = await schoolOfTen();
    const asDiego = await cookieOf(diego.studentId);
    const first = await read('?size=3', asDiego);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');

    const again = await read('?size=3', asDiego, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    // The tag is the content's: another page, or the same page for another asker (another `me`), has another.
    expect((await read('?page=1&size=3', asDiego)).headers.etag).not.toBe(etag);
    expect((await read('?size=3', await cookieOf(ana.studentId), { 'if-none-match': etag })).statusCode).toBe(200);

    await transfer(ana.studentId, bruno.id, 10);
    const changed = await read('?size=3', asDiego, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(rowsOf((changed.json() as RankingAnswer).entries)).toEqual([
      '1 Bruno Henrique Lima 110',
      '2 Ana Beatriz Souza 90',
      '3 Carla Dias Ferreira 50',
    ]);
    expect((await read('?size=3', asDiego, { 'if-none-match': `"x", ${changed.headers.etag as string}` })).statusCode).toBe(304);
  });

  test('a removed student leaves the ranking at once, a new one appears, a renamed one moves', async () => {
    const { ana, bruno, diego } = await schoolOfTen();
    const asDiego = await cookieOf(diego.studentId);
    expect((await answer('?size=2', asDiego)).podium.map((entry) => entry.id).slice(0, 2)).toEqual([ana.id, bruno.id]);

    const removal = await t.request('DELETE', `/admin/students/${ana.id}`);
    expect(removal.statusCode).toBe(200);
    const afterRemoval = await answer('?size=50', asDiego);
    expect(afterRemoval.total).toBe(9);
    expect(afterRemoval.entries.some((entry) => entry.id === ana.id)).toBe(false);
    expect(rowsOf(afterRemoval.podium)).toEqual(['1 Bruno Henrique Lima 100', '2 Carla Dias Ferreira 50', '3 Alice Teste 0']);

    const created = await t.request('POST', '/admin/students', {
      payload: { studentId: '4000099', name: 'Aaron Novo', password: 'segredo-123', grade: '1º EM - Turma A', meritus: 75 },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(rowsOf((await answer('?size=3', asDiego)).entries)).toEqual([
      '1 Bruno Henrique Lima 100',
      '2 Aaron Novo 75',
      '3 Carla Dias Ferreira 50',
    ]);

    const renamed = await t.request('PATCH', `/admin/students/${diego.id}`, { payload: { name: 'Abel Renomeado' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const zeros = (await answer('?page=1&size=3', asDiego)).entries.map((entry) => entry.name);
    expect(zeros).toEqual(['Abel Renomeado', 'Alice Teste', 'Beatriz Teste']);
  });

  test('two server instances on one database both show a change made on either', async () => {
    const { ana, bruno, diego } = await schoolOfTen();
    const otherDatabase = t.database.url ? await openPostgres(t.database.url, { max: 3 }) : undefined;
    const other = await buildApp(testConfig(), otherDatabase ?? t.database);
    try {
      const asDiego = await cookieOf(diego.studentId);
      const podiumOn = async (app: FastifyInstance) => rowsOf((await answer('?size=1', asDiego, app)).podium);
      expect(await podiumOn(other)).toEqual(await podiumOn(t.app));

      // Made on one instance: that one shows it as soon as it answered; the other once it hears the event.
      await transfer(ana.studentId, bruno.id, 30, other);
      const expected = ['1 Bruno Henrique Lima 130', '2 Ana Beatriz Souza 70', '3 Carla Dias Ferreira 50'];
      expect(await podiumOn(other)).toEqual(expected);
      await expect.poll(() => podiumOn(t.app), { timeout: 5_000 }).toEqual(expected);

      const removal = await t.request('DELETE', `/admin/students/${bruno.id}`);
      expect(removal.statusCode).toBe(200);
      await expect.poll(async () => (await answer('?size=1', asDiego, other)).total, { timeout: 5_000 }).toBe(9);
      expect(await podiumOn(other)).toEqual(['1 Ana Beatriz Souza 70', '2 Carla Dias Ferreira 50', '3 Alice Teste 0']);
    } finally {
      await other.close();
      await otherDatabase?.close();
    }
  });
});

describe('the kept ranking', () => {
  test('is read once for any number of readers, again only for what they heard, by key for an operation', async () => {
    const { ana, bruno } = await schoolOfTen();
    let reads = 0;
    const counted = new Proxy(t.db, {
      get(target, property, receiver) {
        if (property === 'select') reads += 1;
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
    const ranking = createRankingStore(counted, silentEvents);
    const readers = async () => (await Promise.all(Array.from({ length: 20 }, () => ranking.current())))[0]!;
    const first = await readers();
    expect([reads, first.rows.length, first.indexOf(ana.id)]).toEqual([1, 10, 0]);

    await readers();
    ranking.hear({ type: 'ledger', studentUuids: [], status: 'failed', lines: 'all' });
    ranking.hear({ type: 'tags', studentUuids: 'all' });
    await readers();
    expect(reads).toBe(1);

    await t.db.update(students).set({ meritus: 500 }).where(eq(students.id, bruno.id));
    ranking.hear({ type: 'ledger', studentUuids: [bruno.id], status: 'completed', lines: 'all' });
    ranking.hear({ type: 'ledger', studentUuids: [bruno.id, ana.id], status: 'completed', lines: 'all' });
    const patched = await readers();
    expect(reads).toBe(2);
    expect(patched.rows.slice(0, 2).map((row) => [row.name, row.position, row.meritus])).toEqual([
      ['Bruno Henrique Lima', 1, 500],
      ['Ana Beatriz Souza', 2, 100],
    ]);
    // The answer a reader holds stays as it was read.
    expect(first.rows[0]!.name).toBe('Ana Beatriz Souza');

    ranking.hear({ type: 'resync' });
    await readers();
    expect(reads).toBe(3);
    ranking.close();
  });
});

describe('the summary’s rank', () => {
  test('agrees with the ranking’s row, ties included, and follows a transfer at once', async () => {
    const { ana, bruno, carla, diego } = await schoolOfTen();
    const summaryOf = async (studentId: string): Promise<StudentSummary['rank']> => {
      const response = await t.app.inject({ method: 'GET', url: '/api/me/summary', headers: { cookie: await cookieOf(studentId) } });
      expect(response.statusCode).toBe(200);
      return (response.json() as StudentSummary).rank;
    };
    for (const student of [ana, bruno, carla, diego]) {
      const cookie = await cookieOf(student.studentId);
      const { me, total } = await answer('?around=me&size=3', cookie);
      expect(await summaryOf(student.studentId)).toMatchObject({ position: me!.position, total });
    }
    await transfer(carla.studentId, diego.id, 50);
    expect(await summaryOf(diego.studentId)).toMatchObject({ position: 3, total: 10 });
    expect(await summaryOf(carla.studentId)).toMatchObject({ position: 4, total: 10 });
    expect((await answer('?around=me', await cookieOf(carla.studentId))).me).toMatchObject({ position: 4, meritus: 0 });
  });

  test('an unchanged summary costs a 304', async () => {
    const cookie = await cookieOf(t.students[0]!.studentId);
    const first = await t.app.inject({ method: 'GET', url: '/api/me/summary', headers: { cookie } });
    const etag = first.headers.etag as string;
    const again = await t.app.inject({ method: 'GET', url: '/api/me/summary', headers: { cookie, 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    await t.award(t.students[0]!.id, 5);
    expect((await t.app.inject({ method: 'GET', url: '/api/me/summary', headers: { cookie, 'if-none-match': etag } })).statusCode).toBe(
      200,
    );
  });
});
