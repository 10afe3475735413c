import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addAdmin, addStudents, buildTestApp, turmaIdOf, type TestApp, type TestStudent } from '../../test/test-app.ts';
import { pdfText } from '../../test/pdf-text.ts';
import { hallOfFameHonours, students } from '../../db/schema.ts';
import { silentEvents } from '../../realtime/event-bus.ts';
import { schoolToday } from '../school-year/school-year.service.ts';
import { addDays } from '../../../shared/reports.ts';
import type { HallOfFame, Honour } from '../../../shared/hall-of-fame.ts';
import type { SchoolSettings } from '../../../shared/settings.ts';

/**
 * Issue 38, Hall da Fama (decision 035), on both databases: a small school's year closed by the rollover — Diego (3º EM D,
 * graduating) earns 500 M$, Ana (1º EM A) and Bruno (1º EM B) 120 each (a shared 2nd place), Carla's 300 were reversed;
 * Estelecas: Carla and Eva 7 each (a shared 1st), Ana 3; tags: Ana given 'Líder' twice, Diego once, Bruno's taken back;
 * turma goals: one of 1º EM A, one open to every turma with Ana and Bruno contributing.
 */
let t: TestApp;
let ana: TestStudent, bruno: TestStudent, carla: TestStudent, diego: TestStudent, eva: TestStudent;
const cookies: Record<string, string> = {};
let stored: (typeof hallOfFameHonours.$inferSelect)[];

async function setRules(change: Partial<SchoolSettings['rules']>): Promise<void> {
  const { rules } = (await t.request('GET', '/settings')).json<SchoolSettings>();
  const saved = await t.request('PUT', '/admin/settings/rules', { payload: { ...rules, ...change } });
  expect(saved.statusCode, saved.body).toBe(200);
}

async function hall(cookie?: string, query = ''): Promise<HallOfFame> {
  const response = await t.request('GET', `/hall-of-fame${query}`, cookie === undefined ? {} : { cookie });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<HallOfFame>();
}

function honoursOf(answer: HallOfFame, category: string): Honour[] {
  return answer.categories.find((entry) => entry.category === category)!.honours;
}

/** The honours of a category as 'place name figure (turma)' lines. */
function lines(answer: HallOfFame, category: string): string[] {
  return honoursOf(answer, category).map(
    (honour) => `${honour.place} ${honour.student?.name ?? honour.turma} ${honour.amount}${honour.turma ? ` (${honour.turma})` : ''}`,
  );
}

/** A Loja turma goal of 10 M$ for the turmas given (null: every turma). */
async function goal(name: string, turmaIds: string[] | null): Promise<string> {
  const response = await t.request('POST', '/admin/store/items', {
    payload: {
      name,
      currency: 'meritus',
      category: 'turma',
      goal: 10,
      deadline: addDays(await schoolToday({ db: t.db, events: silentEvents }), 7),
      turmaIds,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }>().id;
}

async function contribute(student: TestStudent, itemId: string, amount: number): Promise<void> {
  const response = await t.request('POST', `/store/items/${itemId}/contributions`, {
    cookie: cookies[student.studentId]!,
    payload: { amount },
  });
  expect(response.statusCode, response.body).toBe(201);
}

async function tag(student: TestStudent, method: 'PUT' | 'DELETE', kind = 'leader'): Promise<void> {
  const response = await t.request(method, `/admin/students/${student.id}/tags/${kind}`, method === 'PUT' ? { payload: {} } : {});
  expect(response.statusCode, response.body).toBe(200);
}

function certificate(honourId: string, cookie?: string) {
  return t.request('GET', `/hall-of-fame/honours/${honourId}/certificate.pdf`, cookie === undefined ? {} : { cookie });
}

beforeAll(async () => {
  t = await buildTestApp();
  [ana, bruno, carla, diego] = t.students as [TestStudent, TestStudent, TestStudent, TestStudent];
  [eva] = (await addStudents(t.db, [{ studentId: '3000005', name: 'Eva Moreira Prado' }])) as [TestStudent];
  for (const student of [ana, bruno, carla, diego, eva]) cookies[student.studentId] = await t.loginStudent(student.studentId);
  const today = await schoolToday({ db: t.db, events: silentEvents });
  const from = addDays(today, -60);
  const end = addDays(today, 30);
  const periods = [0, 1, 2, 3].map((n) => ({ startDate: addDays(from, n * 23), endDate: n === 3 ? end : addDays(from, n * 23 + 22) }));
  const year = await t.request('POST', '/admin/school-years', {
    payload: { name: 'Ano letivo 2026', startDate: from, endDate: end, periodKind: 'bimestre', periods },
  });
  expect(year.statusCode, year.body).toBe(201);

  await t.award(diego.id, 500);
  await t.award(ana.id, 120);
  await t.award(bruno.id, 120);
  const mistaken = await t.award(carla.id, 300);
  const reversed = await t.request('POST', `/admin/operations/${(mistaken as { entry: { id: string } }).entry.id}/reversal`, {
    payload: { reason: 'Lançado por engano' },
  });
  expect(reversed.statusCode, reversed.body).toBe(201);
  await t.award(carla.id, 7, { currency: 'estelecas' });
  await t.award(eva.id, 7, { currency: 'estelecas' });
  await t.award(ana.id, 3, { currency: 'estelecas' });
  await tag(ana, 'PUT');
  await tag(ana, 'PUT');
  await tag(diego, 'PUT', 'counselor');
  await tag(bruno, 'PUT');
  await tag(bruno, 'DELETE');
  const ofTurmaA = await goal('Piquenique da turma', [ana.turmaId]);
  const ofSchool = await goal('Cinema da escola', null);
  await contribute(ana, ofTurmaA, 10);
  await contribute(ana, ofSchool, 5);
  await contribute(bruno, ofSchool, 5);

  const body = { balances: { meritus: 'keep', estelecas: 'keep' } };
  const preview = await t.request('POST', '/admin/rollover/preview', { payload: body });
  expect(preview.statusCode, preview.body).toBe(200);
  const applied = await t.request('POST', '/admin/rollover/apply', { payload: { ...body, token: preview.json().token } });
  expect(applied.statusCode, applied.body).toBe(200);
  stored = await t.db.select().from(hallOfFameHonours).orderBy(hallOfFameHonours.id);
}, 60_000);

afterAll(async () => t?.close());

describe('the honours a year keeps at its close', () => {
  test('the most Méritus and Estelecas earned (reversed awards out), tags given less those taken back, ties sharing places', async () => {
    const answer = await hall();
    expect(answer.year).toMatchObject({ name: 'Ano letivo 2026' });
    expect(answer.years.map((year) => year.name)).toEqual(['Ano letivo 2026']);
    expect(lines(answer, 'meritus')).toEqual(['1 Diego Martins Rocha 500', '2 Ana Beatriz Souza 120', '2 Bruno Henrique Lima 120']);
    expect(lines(answer, 'estelecas')).toEqual(['1 Carla Dias Ferreira 7', '1 Eva Moreira Prado 7', '3 Ana Beatriz Souza 3']);
    expect(lines(answer, 'tags')).toEqual(['1 Ana Beatriz Souza 2', '2 Diego Martins Rocha 1']);
  });

  test('each turma’s top is of the turma the student was in at the close, before the rollover moved them', async () => {
    const [row] = await t.db.select({ turmaId: students.turmaId }).from(students).where(eq(students.id, ana.id));
    expect(row!.turmaId).toBe(await turmaIdOf(t.db, '2º EM - Turma A'));
    expect(lines(await hall(), 'turma')).toEqual([
      '1 Ana Beatriz Souza 120 (1º EM - Turma A)',
      '1 Bruno Henrique Lima 120 (1º EM - Turma B)',
      '1 Diego Martins Rocha 500 (3º EM - Turma D)',
    ]);
    // A goal open to every turma counts for each turma that contributed to it.
    expect(lines(await hall(), 'goals')).toEqual(['1 1º EM - Turma A 2 (1º EM - Turma A)']);
  });

  test('the honours stay as stored: later awards, a renamed turma and a second apply change nothing', async () => {
    const before = await hall();
    await t.award(carla.id, 5000);
    await t.award(eva.id, 900, { currency: 'estelecas' });
    const renamed = await t.request('PATCH', `/admin/turmas/${await turmaIdOf(t.db, '1º EM - Turma A')}`, {
      payload: { name: '1º EM - Turma Azul' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const again = await t.request('POST', '/admin/rollover/apply', {
      payload: { balances: { meritus: 'keep', estelecas: 'keep' }, token: 'qualquer' },
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().applied).toBe(false);
    expect(await t.db.select().from(hallOfFameHonours).orderBy(hallOfFameHonours.id)).toEqual(stored);
    expect(await hall()).toEqual(before);
  });

  test('a year given by id answers the same; an unknown year is refused in pt-BR', async () => {
    const latest = await hall();
    expect(await hall(undefined, `?year=${latest.year!.id}`)).toEqual(latest);
    const unknown = await t.request('GET', '/hall-of-fame?year=8f7d3c1e-2b4a-4c5d-9e6f-0a1b2c3d4e5f');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('Este ano letivo não está no Hall da Fama: escolha um ano encerrado');
    expect((await t.request('GET', '/hall-of-fame?year=2026')).statusCode).toBe(400);
  });
});

describe('under the school’s privacy rules (decision 029)', () => {
  test('full names: students see everyone, a photo only with the image consent; staff always see it', async () => {
    await setRules({ rankingNames: 'full', rankingHideAllowed: true });
    await t.db.update(students).set({ photoUrl: '/uploads/ana.jpg', imageConsent: false }).where(eq(students.id, ana.id));
    const byBruno = await hall(cookies[bruno.studentId]);
    const anaRow = honoursOf(byBruno, 'meritus').find((honour) => honour.student?.name === 'Ana Beatriz Souza')!;
    expect(anaRow.student!.photo).toBeNull();
    expect(anaRow.certificate).toBe(false);
    expect(honoursOf(byBruno, 'meritus').find((honour) => honour.self)).toMatchObject({
      student: { name: 'Bruno Henrique Lima' },
      certificate: true,
    });
    const byAna = await hall(cookies[ana.studentId]);
    expect(honoursOf(byAna, 'meritus').find((honour) => honour.self)!.student!.photo).toMatch(/^\/uploads\/ana\.jpg/);
    expect(honoursOf(await hall(), 'meritus').find((honour) => honour.student?.name === 'Ana Beatriz Souza')!.student!.photo).toMatch(
      /^\/uploads\/ana\.jpg/,
    );
  });

  test('anonymous: others are the row’s number, without id, matrícula or turma; a student always sees themself', async () => {
    await setRules({ rankingNames: 'anonymous' });
    const byBruno = await hall(cookies[bruno.studentId]);
    expect(honoursOf(byBruno, 'meritus').map((honour) => honour.student)).toEqual([
      { id: null, studentId: null, name: 'Estudante 1', grade: null, photo: null },
      { id: null, studentId: null, name: 'Estudante 2', grade: null, photo: null },
      { id: bruno.id, studentId: bruno.studentId, name: 'Bruno Henrique Lima', grade: '1º EM - Turma B', photo: null },
    ]);
    expect(JSON.stringify(byBruno)).not.toMatch(/Diego|Ana Beatriz|Carla|Eva/);
    expect(lines(await hall(), 'meritus')[0]).toBe('1 Diego Martins Rocha 500');
  });

  test('first name and initial; a student hidden from the ranking keeps the place without a name', async () => {
    await setRules({ rankingNames: 'firstNameInitial', rankingHideAllowed: true });
    const hide = await t.request('PUT', '/me/ranking-visibility', { cookie: cookies[eva.studentId]!, payload: { hidden: true } });
    expect(hide.statusCode, hide.body).toBe(200);
    try {
      const byBruno = await hall(cookies[bruno.studentId]);
      expect(honoursOf(byBruno, 'estelecas').map((honour) => `${honour.place} ${honour.student!.name}`)).toEqual([
        '1 Carla F.',
        '1 Estudante',
        '3 Ana S.',
      ]);
      const byEva = await hall(cookies[eva.studentId]);
      expect(honoursOf(byEva, 'estelecas')[1]).toMatchObject({ self: true, student: { name: 'Eva Moreira Prado' } });
      expect(lines(await hall(), 'estelecas')[1]).toBe('1 Eva Moreira Prado 7');
    } finally {
      await t.request('PUT', '/me/ranking-visibility', { cookie: cookies[eva.studentId]!, payload: { hidden: false } });
      await setRules({ rankingNames: 'full' });
    }
  });
});

describe('certificates of honours', () => {
  test('staff download any, with the honour written on it; a graduated student’s too', async () => {
    const diegoFirst = honoursOf(await hall(), 'meritus')[0]!;
    const response = await certificate(diegoFirst.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(response.rawPayload);
    expect(text).toContain('Diego Martins Rocha');
    expect(text).toContain('1º lugar em Méritus no Ano letivo 2026');
    expect(text).toContain('3º EM - Turma D');
    expect(await t.lastAudit('hall_of_fame.certificate')).toMatchObject({ details: { honour: diegoFirst.id } });
  });

  test('a student downloads their own only; a turma’s honour has none; a teacher only of their turmas', async () => {
    const meritus = honoursOf(await hall(), 'meritus');
    const anas = meritus.find((honour) => honour.student?.name === 'Ana Beatriz Souza')!;
    const diegos = meritus[0]!;
    expect((await certificate(anas.id, cookies[ana.studentId])).statusCode).toBe(200);
    const refused = await certificate(diegos.id, cookies[ana.studentId]);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe('Você só pode baixar os seus próprios certificados');
    expect((await certificate(honoursOf(await hall(), 'goals')[0]!.id)).statusCode).toBe(404);
    await addAdmin(t.db, { email: 'prof.hall@escola.test', name: 'Prof. Hall', role: 'teacher', turmaIds: [ana.turmaId] });
    const teacher = await t.loginAdmin('prof.hall@escola.test');
    const teacherView = await hall(teacher);
    const anaNow = (await t.db.select({ turmaId: students.turmaId }).from(students).where(eq(students.id, ana.id)))[0]!.turmaId;
    expect(honoursOf(teacherView, 'meritus').find((honour) => honour.id === anas.id)!.certificate).toBe(anaNow === ana.turmaId);
    expect((await certificate(diegos.id, teacher)).statusCode).toBe(403);
  });

  test('a guardian downloads their own child’s only, and sees that child by name under any privacy rule', async () => {
    const code = await t.request('POST', `/admin/students/${ana.id}/guardian-codes`);
    expect(code.statusCode, code.body).toBe(201);
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/auth/guardian/signup',
      payload: { code: code.json<{ code: string }>().code, email: 'mae.ana@exemplo.test', name: 'Mãe da Ana', password: 'senha-familia-1' },
      remoteAddress: '10.9.0.1',
    });
    expect(signup.statusCode, signup.body).toBe(201);
    const guardian = String(signup.headers['set-cookie']).split(';')[0]!;
    const meritus = honoursOf(await hall(guardian), 'meritus');
    const anas = meritus.find((honour) => honour.student?.id === ana.id)!;
    expect(meritus.filter((honour) => honour.certificate).map((honour) => honour.id)).toEqual([anas.id]);
    expect((await certificate(anas.id, guardian)).statusCode).toBe(200);
    const refused = await certificate(meritus.find((honour) => honour.student?.name === 'Bruno Henrique Lima')!.id, guardian);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('honour_certificate_not_own');
    await setRules({ rankingNames: 'anonymous' });
    try {
      const names = honoursOf(await hall(guardian), 'meritus').map((honour) => honour.student?.name);
      expect(names).toContain('Ana Beatriz Souza');
      expect(names).not.toContain('Bruno Henrique Lima');
    } finally {
      await setRules({ rankingNames: 'full' });
    }
  });

  test('an erased student shows as their anonymous name everywhere and has no certificate any more', async () => {
    const erased = await t.request('POST', `/admin/students/${diego.id}/erase`, {
      payload: { confirm: 'Diego Martins Rocha', reason: 'Pedido da família' },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    const [row] = await t.db.select({ name: students.name }).from(students).where(eq(students.id, diego.id));
    expect(row!.name).toMatch(/^Aluno removido #\d+$/);
    for (const cookie of [undefined, cookies[bruno.studentId]]) {
      const first = honoursOf(await hall(cookie), 'meritus')[0]!;
      expect(first).toMatchObject({ place: 1, amount: 500, erased: true, certificate: false });
      expect(first.student).toEqual({ id: null, studentId: null, name: row!.name, grade: '3º EM - Turma D', photo: null });
    }
    expect(JSON.stringify(await hall())).not.toContain('Diego');
    expect((await certificate(honoursOf(await hall(), 'meritus')[0]!.id)).statusCode).toBe(404);
  });
});

test('no year closed yet: no year and no categories, the list of years empty', async () => {
  const fresh = await buildTestApp();
  try {
    const response = await fresh.request('GET', '/hall-of-fame');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ years: [], year: null, categories: [] });
  } finally {
    await fresh.close();
  }
});
