/**
 * A whole school written straight into a fresh database for bench:school-day, in a few bulk statements (2,000
 * students through the API one by one would take minutes): turmas, students sharing one real password hash, staff
 * accounts, a month of history (an initial grant, awards, Estelecas, transfers, a penalty) with balances that match
 * it, the report sums folded, and some weekly tags.
 */
import { sql } from 'drizzle-orm';
import { openDatabase, rowsOf } from '../src/server/db/client.ts';
import { loadConfig } from '../src/server/config.ts';
import { ensureInitialData } from '../src/server/seed/seed.ts';
import { createStaffMember } from '../src/server/modules/staff/staff.service.ts';
import { hashPassword } from '../src/server/modules/auth/password.ts';
import { foldPendingSums } from '../src/server/modules/reports/reports.queries.ts';

export const STUDENT_PASSWORD = 'bench-aluno-1';
export const STAFF_PASSWORD = 'bench-professor-1';
const FIRST_STUDENT_ID = 7_000_000;

export type School = {
  /** Each student's uuid, matrícula and turma, in matrícula order. */
  students: { id: string; studentId: string; turmaId: string }[];
  turmas: { id: string; studentIds: string[] }[];
  staff: { email: string }[];
};

const FIRST = ['Ana', 'João', 'Lívia', 'Ícaro', 'Beatriz', 'Otávio', 'Júlia', 'Caio', 'Iara', 'Heitor', 'Sofia', 'Davi'];
const LAST = ['Araújo', 'Conceição', 'Souza', 'Gonçalves', 'Lima', 'Brandão', 'Ferreira', 'Dias', 'Rocha', 'Moura'];
const REASONS = ['Participação em aula', 'Tarefa entregue', 'Ajuda a um colega', 'Trabalho em grupo', 'Olimpíada de matemática'];
const textArray = (values: readonly string[]) =>
  sql`ARRAY[${sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )}]::text[]`;

/** Builds the school in the database `env` names (DATABASE_URL or DATA_DIR), as the server started with `env` will find it. */
export async function buildSchool(env: NodeJS.ProcessEnv, size: { students: number; turmas: number; staff: number }): Promise<School> {
  const config = loadConfig(env);
  const database = await openDatabase(config);
  try {
    const { db } = database;
    await ensureInitialData(db, config);
    for (let i = 0; i < size.staff; i++) {
      await createStaffMember(
        { db },
        { role: 'system', name: 'bench:school-day' },
        { name: `Professor Bench ${i + 1}`, email: `professor${i + 1}@escola.test`, password: STAFF_PASSWORD },
      );
    }
    // The default turmas come first; more are added up to the size asked, named as schools name theirs.
    const names = Array.from(
      { length: size.turmas },
      (_, i) => `${1 + (i % 3)}º EM - Turma ${String.fromCharCode(65 + Math.floor(i / 3))}`,
    );
    await db.execute(sql`
      INSERT INTO turmas (name, position)
      SELECT name, (SELECT coalesce(max(position), 0) FROM turmas) + n
        FROM unnest(${textArray(names)}) WITH ORDINALITY AS t(name, n)
      ON CONFLICT DO NOTHING`);
    const turmaIds = rowsOf<{ id: string }>(
      await db.execute(sql`SELECT id FROM turmas WHERE retired_at IS NULL ORDER BY position LIMIT ${size.turmas}`),
    ).map((row) => row.id);
    const passwordHash = await hashPassword(STUDENT_PASSWORD);
    await db.execute(sql`
      INSERT INTO students (student_id, name, turma_id, password_hash, created_at)
      SELECT (${FIRST_STUDENT_ID} + n)::text,
             (${textArray(FIRST)})[1 + n % ${sql.raw(String(FIRST.length))}] || ' ' || (${textArray(LAST)})[1 + (n * 7) % ${sql.raw(String(LAST.length))}]
               || ' ' || (${textArray(LAST)})[1 + (n * 3) % ${sql.raw(String(LAST.length))}] || ' ' || n,
             (${sql`ARRAY[${sql.join(
               turmaIds.map((id) => sql`${id}`),
               sql`, `,
             )}]::uuid[]`})[1 + n % ${sql.raw(String(turmaIds.length))}],
             ${passwordHash}, now() - interval '60 days'
        FROM generate_series(0, ${size.students - 1}) AS n`);
    const [admin] = rowsOf<{ id: string; name: string }>(await db.execute(sql`SELECT id, name FROM admins ORDER BY created_at LIMIT 1`));
    const actor = sql`'admin', ${admin!.id}::uuid, ${admin!.name}::text`;
    // Numbered students, so the history below spreads over them without random(): every run builds the same school.
    const numbered = sql`(SELECT id, name, (row_number() OVER (ORDER BY student_id))::int - 1 AS n FROM students) AS s`;
    const ago = (expression: ReturnType<typeof sql>) => sql`now() - (${expression}) * interval '1 minute'`;
    await db.execute(sql`
      INSERT INTO ledger_entries (currency, type, amount, description, from_student_id, to_student_id, actor_kind, actor_admin_id, actor_name, created_at)
      SELECT 'meritus', 'admin_add', 500, 'Saldo inicial', NULL::uuid, s.id, ${actor}, now() - interval '30 days' FROM ${numbered}
      UNION ALL
      SELECT 'estelecas', 'reward', 5 + s.n % 26, 'Destaque do mês', NULL::uuid, s.id, ${actor}, ${ago(sql`(s.n * 37) % 40000`)} FROM ${numbered}
      UNION ALL
      SELECT 'meritus', 'reward', 1 + (s.n + g * 7) % 15, (${textArray(REASONS)})[1 + (s.n + g) % ${sql.raw(String(REASONS.length))}],
             NULL::uuid, s.id, ${actor},
             ${ago(sql`(s.n * 13 + g * 9973) % 43000`)}
        FROM ${numbered}, generate_series(1, 4) AS g
      UNION ALL
      SELECT 'meritus', 'penalty', 1 + s.n % 5, 'Atraso', s.id, NULL::uuid, ${actor}, ${ago(sql`(s.n * 11) % 43000`)} FROM ${numbered}`);
    await db.execute(sql`
      WITH ids AS (SELECT array_agg(id ORDER BY student_id) AS a, count(*)::int AS c FROM students)
      INSERT INTO ledger_entries (currency, type, amount, description, from_student_id, to_student_id, actor_kind, actor_name, created_at)
      SELECT 'meritus', 'transfer', 1 + (s.n + g) % 20, 'Valeu pela ajuda', s.id, ids.a[1 + (s.n + g * 101) % ids.c], 'student', s.name,
             ${ago(sql`(s.n * 17 + g * 7919) % 43000`)}
        FROM ${numbered}, ids, generate_series(1, 6) AS g`);
    await db.execute(sql`
      WITH flows AS (
        SELECT to_student_id AS student, currency, amount AS delta,
               CASE WHEN currency = 'meritus' AND ledger_type_sign(type) = 1 THEN amount ELSE 0 END AS earned
          FROM ledger_entries WHERE to_student_id IS NOT NULL
        UNION ALL
        SELECT from_student_id, currency, -amount, 0 FROM ledger_entries WHERE from_student_id IS NOT NULL
      ), sums AS (
        SELECT student,
               COALESCE(SUM(delta) FILTER (WHERE currency = 'meritus'), 0) AS m,
               COALESCE(SUM(delta) FILTER (WHERE currency = 'estelecas'), 0) AS e,
               SUM(earned) AS earned
          FROM flows GROUP BY student
      )
      UPDATE students SET meritus = sums.m, estelecas = sums.e, total_earned = sums.earned FROM sums WHERE sums.student = students.id`);
    await foldPendingSums(db, { wait: true });
    await db.execute(sql`
      INSERT INTO student_tags (student_id, kind, expires_at, assigned_by)
      SELECT s.id, (ARRAY['leader', 'counselor', 'angel'])[1 + s.n % 3], now() + interval '5 days', ${admin!.id}::uuid
        FROM ${numbered} WHERE s.n % 67 = 0`);
    await db.execute(sql`ANALYZE`);
    const students = rowsOf<{ id: string; student_id: string; turma_id: string }>(
      await db.execute(sql`SELECT id, student_id, turma_id FROM students ORDER BY student_id`),
    ).map((row) => ({ id: row.id, studentId: row.student_id, turmaId: row.turma_id }));
    const turmas = turmaIds.map((id) => ({
      id,
      studentIds: students.filter((student) => student.turmaId === id).map((student) => student.id),
    }));
    const staff = Array.from({ length: size.staff }, (_, i) => ({ email: `professor${i + 1}@escola.test` }));
    return { students, turmas, staff };
  } finally {
    await database.close();
  }
}
