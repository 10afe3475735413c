import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, inject } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig, type Config } from '../config.ts';
import { openPglite, openPostgres, type Database, type Db } from '../db/client.ts';
import { count, desc, eq } from 'drizzle-orm';
import { admins, auditLog, ledgerSumsPending, staffTurmas, students, turmas } from '../db/schema.ts';
import type { StaffRole } from '../../shared/permissions.ts';
import { hash } from '@node-rs/argon2';
import { ARGON2_OPTIONS } from '../modules/auth/password.ts';
import { coordinatorActor, type AdminActor, type StudentActor } from '../modules/auth/actor.ts';
import { buildApp } from '../app.ts';
import type { FileStorage } from '../storage/file-storage.ts';
import type { StudentRow } from '../views/student-views.ts';
import type { OperationResult } from '../../shared/ledger.ts';
import type { Currency } from '../../shared/ledger-types.ts';

export const TEST_PASSWORD = 'senha-teste-1';
export const TEST_ADMIN = { email: 'prof@escola.test', name: 'Professora Helena Costa' } as const;

/** A student's row with their turma's name as `grade`, as the API shows it. */
export type TestStudent = StudentRow;
export type TestAdmin = typeof admins.$inferSelect;

/** `url` is set on PostgreSQL, so a test can open a second server instance on the same database. */
export type TestDatabase = Database & { drop: () => Promise<void>; url?: string };

let pgliteTemplateBlob: Blob | undefined;
/** The migrated PGlite the api-pglite global setup dumped once for the run. */
function pgliteTemplate(): Blob {
  pgliteTemplateBlob ??= new Blob([fs.readFileSync(inject('pgliteTemplatePath'))]);
  return pgliteTemplateBlob;
}

/**
 * A fresh, migrated, empty database: in-memory PGlite or a new database on the run's PostgreSQL,
 * each a copy of the migrated template the project's global setup made once for the run.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (process.env.TEST_DB !== 'postgres') {
    const database = await openPglite(undefined, pgliteTemplate());
    return { ...database, drop: () => database.close() };
  }
  const { url, drop } = await createPostgresDatabase('t', inject('postgresTemplate'));
  const database = await openPostgres(url, { max: 30 });
  return {
    ...database,
    url,
    drop: async () => {
      await database.close();
      await drop();
    },
  };
}

/**
 * A new database on the run's PostgreSQL: a copy of `template`, or with nothing in it (not even the
 * migrations) for tests of what runs them. `drop` removes it, whoever is still connected.
 */
export async function createPostgresDatabase(prefix: string, template?: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = inject('postgresAdminUrl');
  const name = `${prefix}_${randomUUID().replace(/-/g, '')}`;
  const asAdmin = async (sql: string) => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query(sql);
    } finally {
      await admin.end();
    }
  };
  await asAdmin(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => asAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/**
 * Fills DATA_DIR with the embedded database as a first start leaves it (migrated, empty; in
 * DATA_DIR/pglite, where openPglite keeps it), copied from the run's template: for tests of a
 * program that opens DATA_DIR, which need not wait for initdb.
 */
export async function seedPgliteDataDir(dataDir: string): Promise<void> {
  const client = new PGlite(path.join(dataDir, 'pglite'), { loadDataDir: pgliteTemplate() });
  await client.waitReady;
  await client.close();
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-test-'));
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, DEMO: 'off', API_RATE_LIMIT: '0', ...overrides });
  return { ...config, webDist: undefined };
}

/**
 * The fixtures' password, hashed with argon2id's smallest cost: a hash names its own parameters, so signing in
 * verifies it in microseconds instead of the ~25 ms of CPU that the production cost takes (thousands of sign-ins run
 * in the API tests). Accounts made through the API (imports, new students and teachers) get the production cost,
 * and password.unit.test.ts holds hashPassword to it.
 */
let cachedHash: Promise<string> | undefined;
function testPasswordHash(): Promise<string> {
  cachedHash ??= hash(TEST_PASSWORD, { ...ARGON2_OPTIONS, memoryCost: 8, timeCost: 1 });
  return cachedHash;
}

/** The id of the school's turma of this name. */
export async function turmaIdOf(db: Db, name: string): Promise<string> {
  const [row] = await db.select({ id: turmas.id }).from(turmas).where(eq(turmas.name, name));
  if (!row) throw new Error(`no turma named ${name}`);
  return row.id;
}

/** Adds students with zero balances (balances come only through the ledger), each in the turma named `grade` (1º EM - Turma A by default). */
export async function addStudents(
  db: Db,
  list: { studentId: string; name: string; grade?: string; email?: string; birthDate?: string }[],
): Promise<TestStudent[]> {
  const passwordHash = await testPasswordHash();
  const named = list.map(({ grade = '1º EM - Turma A', ...student }) => ({ ...student, grade }));
  const ids = new Map<string, string>();
  for (const { grade } of named) if (!ids.has(grade)) ids.set(grade, await turmaIdOf(db, grade));
  const names = new Map([...ids].map(([name, id]) => [id, name]));
  const rows = await db
    .insert(students)
    .values(named.map(({ grade, ...student }) => ({ ...student, turmaId: ids.get(grade)!, passwordHash })))
    .returning();
  return rows.map((row) => ({ ...row, grade: names.get(row.turmaId)! }));
}

/** How many ledger rows wait to be added to the reports' sums (ledger_sums_pending). */
export async function pendingSumRows(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(ledgerSumsPending);
  return row!.n;
}

/** An administrator's row as the services take it, for tests that call them directly. */
export function adminActor(row: Pick<TestAdmin, 'id' | 'name' | 'email'>): AdminActor {
  return coordinatorActor(row);
}

export function studentActor(row: Pick<TestStudent, 'id' | 'name' | 'studentId'>): StudentActor {
  return { role: 'student', id: row.id, name: row.name, studentId: row.studentId };
}

/** A staff account (a coordinator unless `role` says teacher, who teaches `turmaIds`), with the test password. */
export async function addAdmin(
  db: Db,
  values: { email: string; name: string; role?: StaffRole; turmaIds?: readonly string[] },
): Promise<TestAdmin> {
  const { turmaIds = [], ...account } = values;
  const [row] = await db
    .insert(admins)
    .values({ adminId: `adm-${randomUUID().slice(0, 8)}`, ...account, passwordHash: await testPasswordHash() })
    .returning();
  if (turmaIds.length > 0) await db.insert(staffTurmas).values(turmaIds.map((turmaId) => ({ adminId: row!.id, turmaId })));
  return row!;
}

export type TestApp = {
  app: FastifyInstance;
  database: TestDatabase;
  db: Db;
  config: Config;
  admin: TestAdmin;
  /** Four students: Ana, Bruno, Carla, Diego (matrículas 3000001…3000004). */
  students: TestStudent[];
  /** Signs in through the API and returns the Cookie header to send. */
  loginStudent(studentId: string, password?: string): Promise<string>;
  loginAdmin(email?: string, password?: string): Promise<string>;
  /** Calls `/api${url}` with a session cookie: the test administrator's unless another is given. */
  request(
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    options?: { payload?: unknown; cookie?: string },
  ): Promise<LightMyRequestResponse>;
  /** Awards a student points through the API, as the administrator would (balances change only through the ledger); throws unless it is written. */
  award(studentUuid: string, amount: number, options?: { currency?: Currency; description?: string }): Promise<OperationResult>;
  /** The newest audit record of an action. */
  lastAudit(action: string): Promise<typeof auditLog.$inferSelect | undefined>;
  close(): Promise<void>;
};

export function cookieFrom(response: LightMyRequestResponse): string {
  const header = response.headers['set-cookie'];
  const first = Array.isArray(header) ? header[0] : header;
  if (!first) throw new Error(`no session cookie (status ${response.statusCode}): ${response.body}`);
  return first.split(';')[0]!;
}

/** The whole app on a fresh database with one administrator and four students. */
export async function buildTestApp(options: { env?: Record<string, string>; storage?: FileStorage } = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = testConfig(options.env);
  const app = await buildApp(config, database, options.storage ? { storage: options.storage } : {});
  const admin = await addAdmin(database.db, TEST_ADMIN);
  const seeded = await addStudents(database.db, [
    { studentId: '3000001', name: 'Ana Beatriz Souza', email: 'ana@escola.test', birthDate: '2010-03-14' },
    { studentId: '3000002', name: 'Bruno Henrique Lima', grade: '1º EM - Turma B' },
    { studentId: '3000003', name: 'Carla Dias Ferreira', grade: '2º EM - Turma A' },
    { studentId: '3000004', name: 'Diego Martins Rocha', grade: '3º EM - Turma D' },
  ]);
  let adminCookie: Promise<string> | undefined;
  const loginAdmin = async (email = TEST_ADMIN.email, password = TEST_PASSWORD) => {
    const response = await app.inject({ method: 'POST', url: '/api/auth/admin/login', payload: { email, password } });
    return cookieFrom(response);
  };
  const request: TestApp['request'] = async (method, url, options = {}) =>
    app.inject({
      method,
      url: `/api${url}`,
      headers: { cookie: options.cookie ?? (await (adminCookie ??= loginAdmin())) },
      ...(options.payload === undefined ? {} : { payload: options.payload as object }),
    });
  return {
    app,
    database,
    db: database.db,
    config,
    admin,
    students: seeded,
    async loginStudent(studentId, password = TEST_PASSWORD) {
      const response = await app.inject({ method: 'POST', url: '/api/auth/student/login', payload: { studentId, password } });
      return cookieFrom(response);
    },
    loginAdmin,
    request,
    async award(studentUuid, amount, { currency = 'meritus', description = 'Saldo para o teste' } = {}) {
      const response = await request('POST', `/admin/students/${studentUuid}/${currency}`, {
        payload: { type: 'admin_add', amount, description },
      });
      if (response.statusCode !== 201) throw new Error(`award refused (${response.statusCode}): ${response.body}`);
      return response.json();
    },
    async lastAudit(action) {
      const [row] = await database.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.id)).limit(1);
      return row;
    },
    async close() {
      await app.close();
      await database.drop();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/** One app for the whole file, signed in as the test administrator: `use` gets both before the first test; the app closes after the last. */
export function withSharedAdminApp(use: (app: TestApp, adminCookie: string) => void): void {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await buildTestApp();
    use(app, await app.loginAdmin());
  });
  afterAll(async () => app?.close());
}
