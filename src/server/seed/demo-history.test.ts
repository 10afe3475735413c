import { afterAll, beforeAll, expect, test } from 'vitest';
import { count, eq, gt, sql } from 'drizzle-orm';
import { createTestDatabase, testConfig, type TestDatabase } from '../test/test-app.ts';
import { DEMO_ADMIN, DEMO_TEACHERS, ensureInitialData } from './seed.ts';
import {
  admins,
  auditLog,
  ledgerEntries,
  storeGoalProgress,
  storeItems,
  storeOrders,
  students,
  studentTags,
  turmas,
} from '../db/schema.ts';
import { listStaff } from '../modules/staff/staff.service.ts';
import { verifyPassword } from '../modules/auth/password.ts';
import { reconcile } from '../modules/ledger/reconciliation.service.ts';
import { selectStudents } from '../views/student-views.ts';
import { rowsOf } from '../db/client.ts';
import { silentEvents } from '../realtime/event-bus.ts';
import { listSchoolYears } from '../modules/school-year/school-year.service.ts';
import { GRADES, TAG_KINDS } from '../../shared/constants.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  expect(await ensureInitialData(database.db, testConfig({ DEMO: 'on' }))).toBe('demo');
}, 120_000);
afterAll(async () => database.drop());

test('the demo school: 60 students over the 12 grades, months of history that reconciles', async () => {
  const roster = await selectStudents(database.db);
  expect(roster).toHaveLength(60);
  const perGrade = new Map(GRADES.map((grade) => [grade, roster.filter((s) => s.grade === grade).length]));
  expect(perGrade).toEqual(new Map(GRADES.map((grade) => [grade, 5])));
  expect(roster.map((s) => s.studentId)).toContain('2024001');
  const [entries] = await database.db.select({ n: count() }).from(ledgerEntries);
  expect(entries!.n).toBeGreaterThan(500);
  const oldest = await database.db.select({ at: ledgerEntries.createdAt }).from(ledgerEntries).orderBy(ledgerEntries.createdAt).limit(1);
  expect(Date.now() - oldest[0]!.at.getTime()).toBeGreaterThan(60 * 86_400_000);
  expect(await reconcile(database.db)).toEqual([]);
  const demo = roster.find((s) => s.studentId === '2024001')!;
  expect(demo.meritus).toBeGreaterThan(0);
  expect(demo.estelecas).toBeGreaterThan(0);
  // Every kind of weekly tag is held by someone right now.
  const current = await database.db.select({ kind: studentTags.kind }).from(studentTags).where(gt(studentTags.expiresAt, new Date()));
  expect(new Set(current.map((tag) => tag.kind))).toEqual(new Set(TAG_KINDS));
});

test("the demo student's history holds a reward reversed by the coordination, with its reason", async () => {
  const [demo] = await selectStudents(database.db).where(eq(students.studentId, '2024001'));
  const [reversal] = await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.type, 'reversal'));
  expect(reversal).toMatchObject({
    fromStudentId: demo!.id,
    toStudentId: null,
    amount: 25,
    description: 'Estorno: Monitoria de matemática',
    reversalReason: 'Lançado para o aluno errado',
    actorName: DEMO_ADMIN.name,
  });
  const [reversed] = await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.id, reversal!.reversesEntryId!));
  expect(reversed).toMatchObject({ type: 'reward', toStudentId: demo!.id, amount: 25 });
  expect(reversal!.createdAt.getTime()).toBeGreaterThan(reversed!.createdAt.getTime());
});

test('the demo staff is created as every member is, recorded as admin.create by the seed: the coordinator admin001 and two teachers', async () => {
  const [admin] = await database.db.select().from(admins).where(eq(admins.email, DEMO_ADMIN.email));
  expect(admin).toMatchObject({ adminId: 'admin001', name: DEMO_ADMIN.name, role: 'coordinator' });
  const audit = await database.db.select().from(auditLog).where(eq(auditLog.action, 'admin.create')).orderBy(auditLog.id);
  expect(audit.map((entry) => [entry.actorKind, entry.details.email])).toEqual([
    ['system', DEMO_ADMIN.email],
    ...DEMO_TEACHERS.map((teacher) => ['system', teacher.email]),
  ]);
  const staff = new Map((await listStaff(database.db)).map((member) => [member.email, member]));
  const turmaNames = new Map((await database.db.select().from(turmas)).map((turma) => [turma.id, turma.name]));
  for (const teacher of DEMO_TEACHERS) {
    const member = staff.get(teacher.email)!;
    expect(member).toMatchObject({ name: teacher.name, role: 'teacher', active: true, weeklyBudget: teacher.weeklyBudget });
    expect(member.turmaIds.map((id) => turmaNames.get(id))).toEqual(teacher.turmas);
    const [row] = await database.db.select().from(admins).where(eq(admins.id, member.id));
    expect(await verifyPassword(row!.passwordHash, teacher.password)).toBe(true);
  }
});

test('a second start on the same database seeds nothing', async () => {
  expect(await ensureInitialData(database.db, testConfig({ DEMO: 'on' }))).toBe('none');
});

test("the demo school's Loja: a catalogue of every category, orders delivered, pending and cancelled, a turma goal half funded", async () => {
  const items = await database.db.select().from(storeItems);
  expect(new Set(items.map((item) => item.category))).toEqual(new Set(['privilege', 'material', 'experience', 'turma']));
  expect(items.map((item) => item.name)).toContain('Sentar onde quiser por um dia');
  expect(items.some((item) => item.imageId !== null)).toBe(true);
  const orders = await database.db.select().from(storeOrders);
  const statuses = new Map<string, number>();
  for (const order of orders) statuses.set(order.status, (statuses.get(order.status) ?? 0) + 1);
  expect(statuses.get('delivered')).toBeGreaterThan(3);
  expect(statuses.get('pending')).toBeGreaterThan(1);
  expect(statuses.get('cancelled')).toBe(1);
  const goal = items.find((item) => item.category === 'turma')!;
  const [progress] = await database.db.select().from(storeGoalProgress).where(eq(storeGoalProgress.itemId, goal.id));
  expect(progress!.raised).toBe(goal.goal! / 2);
  // Written through the store's own functions: balances, orders and the ledger reconcile.
  expect(await reconcile(database.db)).toEqual([]);
});

test('the demo school has the current school year in bimestres, and every row of its history, order and tag falls in one of its periods', async () => {
  const { years } = await listSchoolYears({ db: database.db, events: silentEvents });
  const current = years.find((year) => year.current)!;
  expect(current.name).toBe(`Ano letivo ${new Date().getFullYear()}`);
  expect(current.periods.map((period) => period.name)).toEqual(['1º bimestre', '2º bimestre', '3º bimestre', '4º bimestre']);
  const outside = rowsOf<{ n: number }>(
    await database.db.execute(sql`
      SELECT count(*)::int AS n FROM (
        SELECT created_at AS at FROM ledger_entries UNION ALL SELECT created_at FROM store_orders UNION ALL SELECT assigned_at FROM student_tags
      ) dated
      WHERE NOT EXISTS (SELECT 1 FROM school_periods p WHERE (dated.at AT TIME ZONE 'America/Sao_Paulo')::date BETWEEN p.start_date AND p.end_date)`),
  );
  expect(outside).toEqual([{ n: 0 }]);
});
