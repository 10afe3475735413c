import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addStudents, buildTestApp, type TestApp, type TestStudent } from '../../test/test-app.ts';
import { pdfText } from '../../test/pdf-text.ts';
import { auditLog, ledgerEntries, students, turmas } from '../../db/schema.ts';
import { GRADES } from '../../../shared/constants.ts';
import type { ReportOverview, ReportReasons, ReportTimeline } from '../../../shared/reports.ts';

/**
 * The reports against a small school whose answers this file computes on its own, in plain
 * TypeScript from the rows it inserted: a custom period of two weeks in March 2026 (Brasília,
 * UTC−3 all year), the two weeks before it, and rows before and after both.
 */
let t: TestApp;

const PERIOD = { from: '2026-03-02', to: '2026-03-15' };
const PREVIOUS = { from: '2026-02-16', to: '2026-03-01' };
const HOUR = 3_600_000;
/** The calendar day of an instant in Brasília. */
const dayOf = (at: Date) => new Date(at.getTime() - 3 * HOUR).toISOString().slice(0, 10);
/** An instant of a Brasília calendar day at a given hour. */
const at = (day: string, hour: number) => new Date(Date.parse(`${day}T00:00:00Z`) + (hour + 3) * HOUR);
const endOf = (day: string) => at(day, 24);

type Row = {
  currency: 'meritus' | 'estelecas';
  type: 'transfer' | 'admin_add' | 'admin_remove' | 'reward' | 'penalty' | 'purchase' | 'contribution' | 'refund';
  amount: number;
  description: string;
  from: string | null;
  to: string | null;
  at: Date;
};

let school: (TestStudent & { createdAt: Date; deletedAt: Date | null })[] = [];
const rows: Row[] = [];

/** A small deterministic generator, so the data set is the same on every run. */
function generator(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

beforeAll(async () => {
  t = await buildTestApp();
  const turmaA = GRADES[0];
  const turmaB = GRADES[1];
  const turmaC = GRADES[4];
  const added = await addStudents(t.db, [
    { studentId: '5100001', name: 'Alice Prado', grade: turmaA },
    { studentId: '5100002', name: 'Bernardo Reis', grade: turmaA },
    { studentId: '5100003', name: 'Clara Nunes', grade: turmaA },
    { studentId: '5100004', name: 'Davi Lopes', grade: turmaB },
    { studentId: '5100005', name: 'Elisa Torres', grade: turmaB },
    { studentId: '5100006', name: 'Fábio Dias', grade: turmaC },
    { studentId: '5100007', name: 'Gabriela Melo', grade: turmaC },
    { studentId: '5100008', name: 'Hugo Pires', grade: turmaB },
  ]);
  // Gabriela enrols in the middle of the period; Hugo leaves during it.
  const createdAt = (index: number) => (index === 6 ? at('2026-03-10', 8) : at('2026-01-05', 8));
  const deletedAt = (index: number) => (index === 7 ? at('2026-03-08', 12) : null);
  school = [];
  for (const [index, student] of added.entries()) {
    await t.db
      .update(students)
      .set({ createdAt: createdAt(index), deletedAt: deletedAt(index) })
      .where(eq(students.id, student.id));
    school.push({ ...student, createdAt: createdAt(index), deletedAt: deletedAt(index) });
  }
  // The seeded four were created today: they are not of the school in March.

  const random = generator(13);
  const storeRandom = generator(29);
  const reasons = [
    'Motivo A',
    'Motivo B',
    'Motivo C',
    'Motivo D',
    'Motivo E',
    'Motivo F',
    'Motivo G',
    'Motivo H',
    'Motivo I',
    'Motivo J',
    'Motivo K',
    'Motivo L',
  ];
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const balance = new Map<string, number>();
  // Rows from 2026-02-05 to 2026-03-25, one to six a day, written only while the student is of the school.
  for (let day = '2026-02-05'; day <= '2026-03-25'; day = new Date(Date.parse(`${day}T00:00:00Z`) + 24 * HOUR).toISOString().slice(0, 10)) {
    const count = 1 + Math.floor(random() * 6);
    for (let i = 0; i < count; i++) {
      const when = at(day, 7 + Math.floor(random() * 16) + random() * 0.9);
      const present = school.filter((s) => s.createdAt <= when && (s.deletedAt === null || s.deletedAt > when));
      const student = pick(present);
      const currency = random() < 0.75 ? 'meritus' : 'estelecas';
      const key = `${student.id}:${currency}`;
      const held = balance.get(key) ?? 0;
      const roll = random();
      // Reasons weighted towards the first letters, so the top ten leaves some out.
      const reason = reasons[Math.min(reasons.length - 1, Math.floor(random() * random() * reasons.length))]!;
      let row: Row;
      if (roll < 0.5 || held === 0) {
        row = {
          currency,
          type: random() < 0.5 ? 'reward' : 'admin_add',
          amount: 1 + Math.floor(random() * 120),
          description: reason,
          from: null,
          to: student.id,
          at: when,
        };
      } else if (roll < 0.7) {
        row = {
          currency,
          type: random() < 0.5 ? 'penalty' : 'admin_remove',
          amount: 1 + Math.floor(random() * held),
          description: reason,
          from: student.id,
          to: null,
          at: when,
        };
      } else {
        const recipient = pick(present.filter((s) => s.id !== student.id));
        row = {
          currency,
          type: 'transfer',
          amount: 1 + Math.floor(random() * held),
          description: 'Ajuda',
          from: student.id,
          to: recipient.id,
          at: when,
        };
        // Some become the Loja's (decision 026), from their own generator so the rest of the data set stays as it was:
        // spent, never removed; some purchases are refunded a day later, which gives their spending back.
        if (storeRandom() < 0.35) {
          row = { ...row, type: storeRandom() < 0.7 ? 'purchase' : 'contribution', description: reason, to: null };
          if (row.type === 'purchase' && storeRandom() < 0.6) {
            rows.push(row);
            row = { ...row, type: 'refund', from: null, to: student.id, at: new Date(when.getTime() + 26 * HOUR) };
            balance.set(key, held - row.amount);
          }
        }
      }
      if (row.from) balance.set(`${row.from}:${currency}`, (balance.get(`${row.from}:${currency}`) ?? 0) - row.amount);
      if (row.to) balance.set(`${row.to}:${currency}`, (balance.get(`${row.to}:${currency}`) ?? 0) + row.amount);
      rows.push(row);
    }
  }
  // And in the period, for certain: a purchase refunded two days later, a contribution, a purchase in Estelecas.
  const [alice, , , davi, , fabio] = school;
  const spend = (type: Row['type'], student: TestStudent, currency: Row['currency'], amount: number, day: string, hour: number): Row =>
    type === 'refund'
      ? { currency, type, amount, description: 'Fone de ouvido', from: null, to: student.id, at: at(day, hour) }
      : { currency, type, amount, description: 'Fone de ouvido', from: student.id, to: null, at: at(day, hour) };
  rows.push(
    spend('purchase', alice!, 'meritus', 3, '2026-03-03', 10),
    spend('refund', alice!, 'meritus', 3, '2026-03-05', 9),
    spend('contribution', davi!, 'meritus', 2, '2026-03-10', 11),
    spend('purchase', fabio!, 'estelecas', 1, '2026-03-12', 14),
  );
  await t.db.insert(ledgerEntries).values(
    rows.map((row) => ({
      currency: row.currency,
      type: row.type,
      amount: row.amount,
      description: row.type === 'transfer' ? row.description : ` ${row.description} `,
      fromStudentId: row.from,
      toStudentId: row.to,
      actorKind: row.type === 'transfer' ? ('student' as const) : ('admin' as const),
      actorName: 'Carga de teste',
      createdAt: row.at,
    })),
  );
  // Stored balances that disagree with the ledger: the reports must sum the ledger, never read these.
  await t.db.execute(sql`UPDATE students SET meritus = 777777, estelecas = 777777 WHERE student_id LIKE '51%'`);
  expect((await t.request('POST', '/admin/reason-presets', { payload: { label: 'Motivo C' } })).statusCode).toBe(201);
});
afterAll(async () => t.close());

type Filter = { turmas: string[] };

/** Everything the reports should say, computed from `rows` and `school` alone (the reasons for `reasonPeriod`). */
function expected({ turmas }: Filter, reasonPeriod: { from: string; to: string } = PERIOD) {
  const inFilter = (studentUuid: string | null) => {
    const student = school.find((s) => s.id === studentUuid);
    return student !== undefined && (turmas.length === 0 || turmas.includes(student.grade));
  };
  const within = (row: Row, range: { from: string; to: string }) => dayOf(row.at) >= range.from && dayOf(row.at) <= range.to;
  const party = (row: Row) => row.from ?? row.to;
  const awards = (row: Row) => row.type === 'reward' || row.type === 'admin_add';
  const removals = (row: Row) => row.type === 'penalty' || row.type === 'admin_remove';
  /** What the Loja spent: purchases and contributions, less refunds. */
  const spent = (list: Row[]) =>
    list.reduce(
      (total, row) =>
        total + (row.type === 'refund' ? -row.amount : row.type === 'purchase' || row.type === 'contribution' ? row.amount : 0),
      0,
    );
  const sum = (list: Row[]) => list.reduce((total, row) => total + row.amount, 0);
  const ofFilter = rows.filter((row) => inFilter(party(row)));
  const presentAt = (end: Date) =>
    school.filter((s) => inFilter(s.id) && s.createdAt < end && (s.deletedAt === null || s.deletedAt >= end));
  const rate = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);

  const figuresOf = (range: { from: string; to: string }) => {
    const now = ofFilter.filter((row) => within(row, range));
    const present = presentAt(endOf(range.to));
    const everyRow = rows.filter((row) => within(row, range));
    const participants = present.filter((s) => everyRow.some((row) => row.from === s.id || row.to === s.id)).length;
    return {
      meritusAwarded: sum(now.filter((r) => r.currency === 'meritus' && awards(r))),
      meritusRemoved: sum(now.filter((r) => r.currency === 'meritus' && removals(r))),
      meritusTransferred: sum(now.filter((r) => r.currency === 'meritus' && r.type === 'transfer')),
      estelecasAwarded: sum(now.filter((r) => r.currency === 'estelecas' && awards(r))),
      estelecasRemoved: sum(now.filter((r) => r.currency === 'estelecas' && removals(r))),
      meritusSpent: spent(now.filter((r) => r.currency === 'meritus')),
      estelecasSpent: spent(now.filter((r) => r.currency === 'estelecas')),
      // This school has no reversal (reversal.test.ts reports them).
      meritusReversed: 0,
      estelecasReversed: 0,
      activeStudents: present.filter((s) => everyRow.some((row) => row.type === 'transfer' && row.from === s.id)).length,
      participation: rate(participants, present.length),
      enrolled: present.length,
      participants,
    };
  };
  const current = figuresOf(PERIOD);
  const previous = figuresOf(PREVIOUS);
  const figures = Object.fromEntries(
    Object.keys(current).map((key) => [
      key,
      { current: current[key as keyof typeof current], previous: previous[key as keyof typeof previous] },
    ]),
  );

  const meritusOf = (studentUuid: string, until: Date) =>
    rows
      .filter((row) => row.currency === 'meritus' && row.at < until)
      .reduce((total, row) => total + (row.to === studentUuid ? row.amount : row.from === studentUuid ? -row.amount : 0), 0);
  const periodStart = at(PERIOD.from, 0);
  const periodEnd = endOf(PERIOD.to);
  const present = presentAt(periodEnd);
  const periodRows = rows.filter((row) => within(row, PERIOD));

  const turmaList = turmas.length === 0 ? [...GRADES] : GRADES.filter((grade) => turmas.includes(grade));
  const turmaRows = turmaList.map((turma) => {
    const members = present.filter((s) => s.grade === turma);
    const own = periodRows.filter((row) => row.currency === 'meritus' && school.find((s) => s.id === party(row))?.grade === turma);
    const balance = members.reduce((total, s) => total + meritusOf(s.id, periodEnd), 0);
    const participants = members.filter((s) => periodRows.some((row) => row.from === s.id || row.to === s.id)).length;
    return {
      turma,
      students: members.length,
      awarded: sum(own.filter(awards)),
      removed: sum(own.filter(removals)),
      transferred: sum(own.filter((row) => row.type === 'transfer')),
      spent: spent(own),
      estelecasSpent: spent(
        periodRows.filter((row) => row.currency === 'estelecas' && school.find((s) => s.id === party(row))?.grade === turma),
      ),
      balance,
      averageBalance: members.length === 0 ? 0 : Math.round((balance / members.length) * 10) / 10,
      participants,
      participation: rate(participants, members.length),
    };
  });

  const buckets: [number, number | null][] = [
    [0, 0],
    [1, 99],
    [100, 249],
    [250, 499],
    [500, 999],
    [1000, 1999],
    [2000, null],
  ];
  const balances = buckets.map(([min, max]) => ({
    min,
    max,
    students: present.filter((s) => {
      const held = meritusOf(s.id, periodEnd);
      return held >= min && (max === null || held <= max);
    }).length,
  }));

  const risers = present
    .map((s) => ({
      id: s.id,
      studentId: s.studentId,
      name: s.name,
      grade: s.grade,
      start: meritusOf(s.id, periodStart),
      end: meritusOf(s.id, periodEnd),
    }))
    .map((r) => ({ ...r, change: r.end - r.start }))
    .filter((r) => r.change > 0)
    .sort((a, b) => b.change - a.change || a.name.localeCompare(b.name, 'pt-BR'))
    .slice(0, 10);

  const points: { start: string; awarded: number; removed: number; transferred: number; spent: number }[] = [];
  for (let day = PERIOD.from; day <= PERIOD.to; day = dayOf(at(day, 30))) {
    const ofDay = ofFilter.filter((row) => row.currency === 'meritus' && dayOf(row.at) === day);
    points.push({
      start: day,
      awarded: sum(ofDay.filter(awards)),
      removed: sum(ofDay.filter(removals)),
      transferred: sum(ofDay.filter((row) => row.type === 'transfer')),
      spent: spent(ofDay),
    });
  }

  const reasonsOf = (kind: (row: Row) => boolean) => {
    const groups = new Map<string, { description: string; preset: boolean; operations: number; meritus: number; estelecas: number }>();
    for (const row of ofFilter.filter((r) => within(r, reasonPeriod) && kind(r))) {
      const group = groups.get(row.description) ?? {
        description: row.description,
        preset: row.description === 'Motivo C',
        operations: 0,
        meritus: 0,
        estelecas: 0,
      };
      group.operations += 1;
      group[row.currency] += row.amount;
      groups.set(row.description, group);
    }
    return [...groups.values()]
      .sort(
        (a, b) =>
          b.operations - a.operations || b.meritus - a.meritus || b.estelecas - a.estelecas || (a.description < b.description ? -1 : 1),
      )
      .slice(0, 10);
  };

  return { figures, turmaRows, balances, risers, points, awards: reasonsOf(awards), penalties: reasonsOf(removals) };
}

function query(filter: Filter, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ period: 'custom', ...PERIOD, ...extra });
  for (const turma of filter.turmas) params.append('turma', turma);
  return params.toString();
}

async function getJson<T>(path: string, filter: Filter): Promise<T> {
  const response = await t.request('GET', `${path}?${query(filter)}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('reports', () => {
  test.each([
    ['every turma', { turmas: [] }],
    ['two turmas', { turmas: [GRADES[0], GRADES[4]] }],
  ])('figures with the period before, turmas, balances, risers, timeline and reasons match the rows (%s)', async (_name, filter) => {
    const want = expected(filter);
    const overview = await getJson<ReportOverview>('/admin/reports/overview', filter);
    expect(overview.period).toMatchObject({
      period: 'custom',
      ...PERIOD,
      days: 14,
      previousFrom: PREVIOUS.from,
      previousTo: PREVIOUS.to,
      bucket: 'day',
      turmas: filter.turmas,
    });
    expect(overview.figures).toEqual(want.figures);
    // The data set reaches every case: each figure moves, someone joined, someone left.
    expect(want.figures.meritusTransferred!.current).toBeGreaterThan(0);
    expect(want.figures.estelecasRemoved!.current + want.figures.estelecasRemoved!.previous).toBeGreaterThan(0);
    if (filter.turmas.length === 0) expect(want.figures.meritusSpent!.current).toBeGreaterThan(0);
    expect(
      rows.filter((row) => row.type === 'refund' && dayOf(row.at) >= PERIOD.from && dayOf(row.at) <= PERIOD.to).length,
    ).toBeGreaterThan(0);
    expect(overview.turmas).toEqual(want.turmaRows);
    expect(overview.balances.map(({ min, max, students: count }) => ({ min, max, students: count }))).toEqual(want.balances);
    expect(overview.risers).toEqual(want.risers);
    expect(overview.risers.length).toBeGreaterThan(0);

    const timeline = await getJson<ReportTimeline>('/admin/reports/timeline', filter);
    expect(timeline.points).toEqual(want.points);

    const reasons = await getJson<ReportReasons>('/admin/reports/reasons', filter);
    expect(reasons.awards).toEqual(want.awards);
    expect(reasons.penalties).toEqual(want.penalties);
    expect(reasons.awards.some((reason) => reason.preset)).toBe(true);

    // A period with a whole month in it (February) and days on either side.
    const long = { from: '2026-01-20', to: '2026-03-20' };
    const longWant = expected(filter, long);
    const longResponse = await t.request('GET', `/admin/reports/reasons?${query(filter, long)}`);
    expect(longResponse.statusCode).toBe(200);
    expect(longResponse.json()).toMatchObject({ awards: longWant.awards, penalties: longWant.penalties });
    expect(longWant.awards).not.toEqual(want.awards);
  });

  test('a long period is drawn week by week; presets end today; hostile filters get a pt-BR 400 and change nothing', async () => {
    const weekly = (await t.request('GET', '/admin/reports/timeline?period=custom&from=2026-02-04&to=2026-04-30')).json() as ReportTimeline;
    expect(weekly.period.bucket).toBe('week');
    // The first bucket starts on the period's first day (a Wednesday), then every Monday.
    expect(weekly.points.slice(0, 3).map((point) => point.start)).toEqual(['2026-02-04', '2026-02-09', '2026-02-16']);
    const weeklyTotal = weekly.points.reduce((total, point) => total + point.awarded, 0);
    expect(weeklyTotal).toBe(
      rows
        .filter(
          (r) =>
            r.currency === 'meritus' &&
            (r.type === 'reward' || r.type === 'admin_add') &&
            dayOf(r.at) >= '2026-02-04' &&
            dayOf(r.at) <= '2026-04-30',
        )
        .reduce((s, r) => s + r.amount, 0),
    );

    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    const [first] = await addStudents(t.db, [{ studentId: '5100099', name: 'Ivo Campos', grade: GRADES[10] }]);
    await t.award(first!.id, 37, { description: 'Hoje' });
    const todayReport = (
      await t.request('GET', `/admin/reports/overview?period=today&turma=${encodeURIComponent(GRADES[10])}`)
    ).json() as ReportOverview;
    expect(todayReport.period).toMatchObject({ from: today, to: today, days: 1 });
    expect(todayReport.figures.meritusAwarded.current).toBe(37);
    expect(todayReport.figures.participation.current).toBe(100);
    const week = (await t.request('GET', '/admin/reports/overview?period=7d')).json() as ReportOverview;
    expect(week.period.to).toBe(today);
    expect(week.period.days).toBe(7);

    const audits = async () => (await t.db.select({ n: sql<number>`count(*)::int` }).from(auditLog))[0]!.n;
    const before = await audits();
    const refusals: [string, string, string][] = [
      ['/admin/reports/overview?period=sempre', 'report_invalid_period', 'Período inválido'],
      ['/admin/reports/overview?period=custom&from=2026-03-01', 'report_dates_required', 'Informe a data de início e a data de fim'],
      ['/admin/reports/overview?period=custom&from=2026-03-10&to=2026-03-01', 'report_from_after_to', 'A data de início deve ser anterior'],
      ['/admin/reports/timeline?period=custom&from=1990-01-01&to=2026-03-01', 'report_range_too_long', 'no máximo 366 dias'],
      ['/admin/reports/reasons?period=custom&from=2026-02-30&to=2026-03-01', 'report_invalid_date', 'Data inválida'],
      ['/admin/reports/overview?period=custom&from=2026-03-01&to=99999-01-01', 'report_invalid_date', 'Data inválida'],
      ['/admin/reports/overview?turma=Turma%20Fantasma', 'report_unknown_turma', 'Turma desconhecida: Turma Fantasma'],
      [
        `/admin/reports/overview?${Array.from({ length: 101 }, () => 'turma=x').join('&')}`,
        'report_too_many_turmas',
        'no máximo 100 turmas',
      ],
      ['/admin/reports/export?table=turmas&format=pdf', 'report_unknown_format', 'Formato de exportação inválido'],
      ['/admin/reports/export?table=segredos&format=csv', 'report_unknown_table', 'Tabela de relatório desconhecida'],
      ['/admin/reports/export?table=turmas&format=csv&turma=Nenhuma', 'report_unknown_turma', 'Turma desconhecida: Nenhuma'],
      ['/admin/reports/statement.pdf?student=abc', 'student_not_found', 'Estudante não encontrado'],
    ];
    for (const [url, code, message] of refusals) {
      const response = await t.request('GET', url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error.code, url).toBe(code);
      expect(response.json().error.message, url).toContain(message);
    }
    expect(await audits()).toBe(before);
    const student = await t.loginStudent(t.students[0]!.studentId);
    expect((await t.request('GET', '/admin/reports/overview', { cookie: student })).statusCode).toBe(403);
    expect((await t.request('GET', `/admin/reports/export?table=figures&format=csv`, { cookie: student })).statusCode).toBe(403);
  });

  test("a renamed turma's figures, timeline and reasons follow it to its new name, its students with it; its old name is no turma", async () => {
    const [turma, renamed] = [GRADES[1], '1º EM - Beta'];
    const read = (name: string) =>
      Promise.all(
        ['overview', 'timeline', 'reasons'].map(async (report) => {
          const response = await t.request(
            'GET',
            `/admin/reports/${report}?period=custom&from=${PERIOD.from}&to=${PERIOD.to}&turma=${encodeURIComponent(name)}`,
          );
          expect(response.statusCode).toBe(200);
          return response.json() as unknown;
        }),
      );
    const before = await read(turma);
    expect((before[0] as ReportOverview).figures.meritusAwarded.current).toBeGreaterThan(0);
    const [{ id }] = (await t.db.select({ id: turmas.id }).from(turmas).where(eq(turmas.name, turma))) as [{ id: string }];
    const rename = (name: string) => t.request('PATCH', `/admin/turmas/${id}`, { payload: { name } });
    expect((await rename(renamed)).statusCode).toBe(200);
    try {
      // The same answers, with the new name wherever the old one was (the filter, the list of turmas, the turma's row, its students' série).
      const withNewName = JSON.parse(JSON.stringify(before).replaceAll(JSON.stringify(turma), JSON.stringify(renamed))) as unknown;
      expect(await read(renamed)).toEqual(withNewName);
      expect((await t.request('GET', `/admin/reports/overview?turma=${encodeURIComponent(turma)}`)).json().error.code).toBe(
        'report_unknown_turma',
      );
    } finally {
      await rename(turma);
    }
  });

  test('a statement of a student whose name and matrícula are beyond Latin-1 downloads under its name and prints them whole', async () => {
    const [student] = await addStudents(t.db, [{ studentId: 'MAT-Ő1', name: 'Đặng Thị Ngọc', grade: GRADES[10] }]);
    await t.award(student!.id, 12, { description: 'Olimpíada — Ελληνικά, русский' });
    const statement = await t.request('GET', `/admin/reports/statement.pdf?period=today&student=${student!.id}`);
    expect(statement.statusCode, statement.body).toBe(200);
    const text = await pdfText(statement.rawPayload);
    expect(text).toContain('Aluno: Đặng Thị Ngọc');
    expect(text).toContain('Olimpíada — Ελληνικά, русский');
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    const fileName = `extrato-MAT-Ő1-${today}-a-${today}.pdf`;
    expect(statement.headers['content-disposition']).toBe(
      `attachment; filename="extrato-MAT-O1-${today}-a-${today}.pdf"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    );
  });

  test('a reason is one row however its accents were encoded, and a saved preset marks only the row written as it is', async () => {
    const turma = GRADES[11];
    const [student] = await addStudents(t.db, [{ studentId: 'MOT-NFC-1', name: 'Irene Moura', grade: turma }]);
    expect((await t.request('POST', '/admin/reason-presets', { payload: { label: 'Participação' } })).statusCode).toBe(201);
    for (const description of ['Participação', 'Participac\u0327a\u0303o', 'participação']) await t.award(student!.id, 10, { description });
    const reasons = (
      await t.request('GET', `/admin/reports/reasons?period=today&turma=${encodeURIComponent(turma)}`)
    ).json() as ReportReasons;
    expect(reasons.awards).toEqual([
      { description: 'Participação', preset: true, operations: 2, meritus: 20, estelecas: 0 },
      { description: 'participação', preset: false, operations: 1, meritus: 10, estelecas: 0 },
    ]);
  });

  test(
    'exports: CSV and XLSX give back the tables with numbers and dates as such, ' +
      'audited; the statement and certificate are PDFs with their text',
    async () => {
      const filter = { turmas: [] };
      const want = expected(filter);

      const csv = await t.request('GET', `/admin/reports/export?${query(filter, { table: 'turmas', format: 'csv' })}`);
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toContain('text/csv');
      expect(csv.headers['content-disposition']).toBe(
        `attachment; filename="relatorio-turmas-todas-as-turmas-${PERIOD.from}-a-${PERIOD.to}.csv"; ` +
          `filename*=UTF-8''relatorio-turmas-todas-as-turmas-${PERIOD.from}-a-${PERIOD.to}.csv`,
      );
      expect(csv.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      const lines = Papa.parse<string[]>(csv.body.replace(/^\uFEFF/, ''), { delimiter: ';', skipEmptyLines: true }).data;
      // The file says what it holds, for which turmas and period, above the table.
      expect(lines.slice(0, 2)).toEqual([
        ['Comparação entre turmas'],
        ['Escola Méritus · Turmas: todas · Período: 02/03/2026 a 15/03/2026'],
      ]);
      const parsed = lines.slice(2);
      expect(parsed[0]).toEqual([
        'Turma',
        'Alunos',
        'Méritus concedidos',
        'Méritus removidos',
        'Méritus transferidos',
        'Méritus gastos na Loja',
        'Estelecas gastas na Loja',
        'Saldo no fim do período',
        'Média por aluno',
        'Alunos participantes',
        'Participação (%)',
      ]);
      const comma = (value: number) => String(value).replace('.', ',');
      expect(parsed.slice(1)).toEqual(
        want.turmaRows.map((r) =>
          [
            r.turma,
            r.students,
            r.awarded,
            r.removed,
            r.transferred,
            r.spent,
            r.estelecasSpent,
            r.balance,
            comma(r.averageBalance),
            r.participants,
            comma(r.participation),
          ].map(String),
        ),
      );
      const audit = await t.lastAudit('report.export');
      expect(audit).toMatchObject({
        actorId: t.admin.id,
        details: { table: 'turmas', format: 'csv', from: PERIOD.from, to: PERIOD.to, turmas: [] },
      });

      const xlsx = await t.request('GET', `/admin/reports/export?${query(filter, { table: 'timeline', format: 'xlsx' })}`);
      expect(xlsx.statusCode).toBe(200);
      expect(xlsx.headers['content-type']).toContain('spreadsheetml');
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0]!;
      expect(sheet.name).toBe('Méritus no tempo');
      expect(sheet.getCell('A1').value).toBe('Méritus ao longo do tempo');
      expect(sheet.getCell('A2').value).toBe('Escola Méritus · Turmas: todas · Período: 02/03/2026 a 15/03/2026');
      expect(sheet.getRow(4).values).toEqual([
        undefined,
        'Dia',
        'Méritus concedidos',
        'Méritus removidos',
        'Méritus transferidos',
        'Méritus gastos na Loja',
      ]);
      expect(sheet.rowCount).toBe(4 + want.points.length);
      want.points.forEach((point, index) => {
        const row = sheet.getRow(index + 5);
        expect(row.getCell(1).type).toBe(ExcelJS.ValueType.Date);
        expect((row.getCell(1).value as Date).toISOString().slice(0, 10)).toBe(point.start);
        expect(row.getCell(2).type).toBe(ExcelJS.ValueType.Number);
        expect([row.getCell(2).value, row.getCell(3).value, row.getCell(4).value, row.getCell(5).value]).toEqual([
          point.awarded,
          point.removed,
          point.transferred,
          point.spent,
        ]);
      });

      const figures = await t.request('GET', `/admin/reports/export?${query(filter, { table: 'figures', format: 'xlsx' })}`);
      const figuresBook = new ExcelJS.Workbook();
      await figuresBook.xlsx.load(figures.rawPayload as unknown as ArrayBuffer);
      const spentRow = figuresBook.worksheets[0]!.getRow(10);
      expect([spentRow.getCell(1).value, spentRow.getCell(2).value]).toEqual([
        'Méritus gastos na Loja',
        want.figures.meritusSpent!.current,
      ]);
      const participation = figuresBook.worksheets[0]!.getRow(15);
      expect(participation.getCell(1).value).toBe('Participação (%)');
      expect(participation.getCell(2).type).toBe(ExcelJS.ValueType.Number);
      // Whole figures are not shown with a decimal ('3005,0'); the column fits its longest label.
      expect(figuresBook.worksheets[0]!.getColumn(2).numFmt).toBeUndefined();
      expect(figuresBook.worksheets[0]!.getColumn(1).width).toBeGreaterThanOrEqual('Méritus transferidos'.length + 2);
      expect([participation.getCell(2).value, participation.getCell(3).value]).toEqual([
        want.figures.participation!.current,
        want.figures.participation!.previous,
      ]);

      // The statement of Alice: her balances at the start and end of the period, summed from the rows.
      const alice = school[0]!;
      const statement = await t.request(
        'GET',
        `/admin/reports/statement.pdf?period=custom&from=${PERIOD.from}&to=${PERIOD.to}&student=${alice.id}`,
      );
      expect(statement.statusCode).toBe(200);
      expect(statement.headers['content-type']).toBe('application/pdf');
      expect(statement.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      const meritusAt = (until: Date, currency: Row['currency']) =>
        rows
          .filter((row) => row.currency === currency && row.at < until)
          .reduce((total, row) => total + (row.to === alice.id ? row.amount : row.from === alice.id ? -row.amount : 0), 0);
      const format = (value: number) => value.toLocaleString('pt-BR');
      const text = await pdfText(statement.rawPayload);
      expect(text).toContain('Extrato de Méritus e Estelecas');
      expect(text).toContain(`Aluno: ${alice.name}`);
      expect(text).toContain('Período: 02/03/2026 a 15/03/2026');
      expect(text).toContain(`Saldo no início do período: ${format(meritusAt(at(PERIOD.from, 0), 'meritus'))} M$`);
      expect(text).toContain(`Saldo no fim do período: ${format(meritusAt(endOf(PERIOD.to), 'meritus'))} M$`);
      const aliceRows = rows.filter(
        (row) => dayOf(row.at) >= PERIOD.from && dayOf(row.at) <= PERIOD.to && (row.from === alice.id || row.to === alice.id),
      );
      expect(text.match(/\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}/g)).toHaveLength(aliceRows.length + 1);
      expect(await t.lastAudit('report.statement')).toMatchObject({ details: { student: alice.id, from: PERIOD.from, to: PERIOD.to } });

      // A buyer's statement names each of the Loja's rows by its label ('Compra', 'Devolução', 'Contribuição'), with its sign.
      const inPeriod = rows.filter((row) => dayOf(row.at) >= PERIOD.from && dayOf(row.at) <= PERIOD.to);
      const buyer = school.find((s) => inPeriod.some((row) => row.type === 'refund' && row.to === s.id))!;
      const buyerText = await pdfText(
        (await t.request('GET', `/admin/reports/statement.pdf?period=custom&from=${PERIOD.from}&to=${PERIOD.to}&student=${buyer.id}`))
          .rawPayload,
      );
      const labels = { purchase: 'Compra', refund: 'Devolução', contribution: 'Contribuição' } as const;
      for (const row of inPeriod.filter((r) => (r.from === buyer.id || r.to === buyer.id) && r.type in labels)) {
        const sign = row.type === 'refund' ? '+' : '-';
        expect(buyerText).toMatch(new RegExp(`${labels[row.type as keyof typeof labels]} ${row.description} [${sign}−]`));
      }

      // A certificate for a current weekly tag holder, with the school's name.
      const holder = t.students[1]!;
      expect((await t.request('PUT', `/admin/students/${holder.id}/tags/leader`, { payload: { days: 7 } })).statusCode).toBe(200);
      const tags = (await t.request('GET', '/tags/active')).json() as { id: string; kind: string; student: { id: string } }[];
      const tag = tags.find((item) => item.student.id === holder.id && item.kind === 'leader')!;
      const certificate = await t.request('GET', `/admin/reports/certificate.pdf?tag=${tag.id}`);
      expect(certificate.statusCode).toBe(200);
      expect(certificate.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      const certificateText = await pdfText(certificate.rawPayload);
      for (const expectedText of ['ESCOLA MÉRITUS', 'CERTIFICADO', `${holder.name},`, 'Líder da Semana', `da turma ${holder.grade}`])
        expect(certificateText).toContain(expectedText);
      expect(await t.lastAudit('report.certificate')).toMatchObject({ details: { tag: tag.id, kind: 'leader', student: holder.id } });
      // No logo set: no image. With the school's logo: the certificate draws it.
      const image = /\/Subtype\s*\/Image/;
      expect(certificate.rawPayload.toString('latin1')).not.toMatch(image);
      const sharp = (await import('sharp')).default;
      const logo = await sharp({ create: { width: 120, height: 60, channels: 3, background: '#0f766e' } })
        .png()
        .toBuffer();
      const boundary = 'logo-boundary';
      const uploaded = await t.app.inject({
        method: 'POST',
        url: '/api/admin/settings/logo',
        headers: { cookie: await t.loginAdmin(), 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`,
          ),
          logo,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
      });
      expect(uploaded.statusCode).toBe(200);
      const withLogo = await t.request('GET', `/admin/reports/certificate.pdf?tag=${tag.id}`);
      expect(withLogo.statusCode).toBe(200);
      expect(withLogo.rawPayload.toString('latin1')).toMatch(image);
      expect(await pdfText(withLogo.rawPayload)).toContain('ESCOLA MÉRITUS');
      expect((await t.request('DELETE', '/admin/settings/logo')).statusCode).toBe(200);
      const gone = await t.request('GET', '/admin/reports/certificate.pdf?tag=00000000-0000-4000-8000-000000000000');
      expect(gone.statusCode).toBe(404);
      expect(gone.json().error.message).toBe('Esta tag não está mais ativa');
    },
  );
});
