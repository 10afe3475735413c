import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, test } from 'vitest';
import { openPglite, openPostgres, rowsOf, type Database } from '../db/client.ts';
import { acquireDataDirLock } from '../db/data-dir-lock.ts';
import { buildApp } from '../app.ts';
import { localFileStorage } from '../storage/file-storage.ts';
import { reconcile, totalBalances } from '../modules/ledger/reconciliation.service.ts';
import {
  addAdmin,
  addStudents,
  buildTestApp,
  cookieFrom,
  createPostgresDatabase,
  createTestDatabase,
  seedPgliteDataDir,
  TEST_ADMIN,
  TEST_PASSWORD,
  testConfig,
  type TestApp,
} from '../test/test-app.ts';
import { runScript } from '../test/processes.ts';
import { utf8Lines, writeBackup, type FileSource } from './archive.ts';
import { restoreArchive, type RestoreTarget } from './restore.ts';
import { sqlClientOf } from './sql-client.ts';

/**
 * Backup and restore on the test's database: a snapshot taken while transfers run, restored
 * and compared; archives that were damaged refused before anything is written; embedded →
 * PostgreSQL → embedded; and the two commands as an operator runs them. Each restore into a
 * data folder pays PGlite's initdb (about 4 s alone, much more on a busy machine): hence the
 * longer time limits.
 */
const onPostgres = process.env.TEST_DB === 'postgres';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A new PostgreSQL database with nothing in it (not migrated), dropped after the file. */
async function emptyPostgres(): Promise<string> {
  const { url, drop } = await createPostgresDatabase('restore');
  cleanups.push(drop);
  return url;
}

type Target = { target: RestoreTarget; filesRoot: string; open: () => Promise<Database> };

/** An empty place to restore into, of the given kind: a data folder, or a database on the run's PostgreSQL. */
async function emptyTarget(kind: 'pglite' | 'postgres'): Promise<Target> {
  const dataDir = path.join(tempDir('meritus-restore-'), 'data');
  const filesRoot = path.join(dataDir, 'uploads');
  if (kind === 'pglite') return { target: { kind, dataDir }, filesRoot, open: () => openPglite(dataDir) };
  const url = await emptyPostgres();
  return { target: { kind, url }, filesRoot, open: () => openPostgres(url, { max: 2 }) };
}

/** What must come back identical: every row of the kept tables, and each sequence's position. */
async function contents(database: Database) {
  const rows = async (table: string, order: string) =>
    rowsOf<{ line: string }>(
      await database.db.execute(sql.raw(`SELECT row_to_json(t)::text AS line FROM ${table} t ORDER BY ${order}`)),
    ).map((row) => row.line);
  return {
    students: await rows('students', 'id'),
    admins: await rows('admins', 'id'),
    ledger: await rows('ledger_entries', 'id'),
    idempotency: await rows('idempotency_keys', 'actor_key, key'),
    audit: await rows('audit_log', 'id'),
    auditSequence: rowsOf<{ v: string }>(await database.db.execute(sql`SELECT last_value::text AS v FROM audit_log_id_seq`))[0]!.v,
  };
}

async function count(database: Database, table: string): Promise<number> {
  return Number(rowsOf<{ n: string }>(await database.db.execute(sql.raw(`SELECT count(*) AS n FROM ${table}`)))[0]!.n);
}

/** A few stored files, one in a nested folder and one empty, plus a half-written one the storage would never serve. */
async function storeFiles(root: string): Promise<Map<string, Buffer>> {
  const storage = localFileStorage(root);
  const files = new Map<string, Buffer>([
    [`students/${randomUUID()}/${randomBytes(8).toString('hex')}.webp`, randomBytes(40_000)],
    [`students/${randomUUID()}/${randomBytes(8).toString('hex')}.thumb.webp`, randomBytes(3_000)],
    ['archive/originals/vazio.txt', Buffer.alloc(0)],
  ]);
  for (const [key, data] of files) await storage.put(key, data);
  fs.writeFileSync(path.join(root, 'students', 'meio.webp.123.partial'), 'incompleto');
  return files;
}

function expectFiles(root: string, files: Map<string, Buffer>): void {
  const restored = (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[]).filter((entry) => entry.isFile());
  expect(restored.length).toBe(files.size);
  for (const [key, data] of files) expect(fs.readFileSync(path.join(root, key)).equals(data)).toBe(true);
}

/** Students send transfers to each other through the API until `stop()`; `done` counts the ones written. */
function transferWorkload(t: TestApp, cookies: string[]) {
  let running = true;
  let done = 0;
  const loops = cookies.map(async (cookie, index) => {
    while (running) {
      const recipient = t.students[(index + 1) % t.students.length]!;
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/meritus/transfers',
        headers: { cookie, 'idempotency-key': randomUUID() },
        payload: { recipientId: recipient.id, amount: 1 + (done % 5), description: 'durante a cópia' },
      });
      if (response.statusCode === 201) done += 1;
      else if (response.statusCode !== 422 && response.statusCode !== 409)
        throw new Error(`transfer ${response.statusCode}: ${response.body}`);
    }
  });
  return {
    done: () => done,
    /** Resolves once `n` more transfers were written. */
    async after(n: number) {
      const target = done + n;
      while (done < target) await new Promise((resolve) => setImmediate(resolve));
    },
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

test(
  'a backup taken while transfers run restores a consistent snapshot; one taken after restores the same school, files byte for byte',
  { timeout: 240_000 },
  async () => {
    const t = await buildTestApp();
    cleanups.push(() => t.close());
    for (const student of t.students) {
      await t.award(student.id, 500);
      await t.award(student.id, 40, { currency: 'estelecas' });
    }
    const files = await storeFiles(t.config.uploadsDir);
    const source: FileSource = { kind: 'local', root: t.config.uploadsDir };
    const client = await sqlClientOf(t.database);
    cleanups.push(() => client.close());
    const dir = tempDir('meritus-backup-');

    const workload = transferWorkload(t, await Promise.all(t.students.map((student) => t.loginStudent(student.studentId))));
    await workload.after(10);
    const during = await writeBackup(client, path.join(dir, 'durante.tar.gz'), source);
    await workload.after(10);
    await workload.stop();
    const after = await writeBackup(client, path.join(dir, 'depois.tar.gz'), source);

    // The snapshot taken under load: every balance is the sum of its ledger rows, the awards are
    // all there, each of its ledger rows is the source's, and later transfers are not.
    const kind = t.database.kind;
    const first = await emptyTarget(kind);
    await restoreArchive(path.join(dir, 'durante.tar.gz'), first.target, { filesRoot: first.filesRoot, force: false });
    const snapshot = await first.open();
    try {
      expect(await reconcile(snapshot.db)).toEqual([]);
      expect(await totalBalances(snapshot.db)).toEqual({ meritus: 2000, estelecas: 160 });
      const snapshotLedger = (await contents(snapshot)).ledger;
      const sourceLedger = new Set((await contents(t.database)).ledger);
      expect(snapshotLedger.every((line) => sourceLedger.has(line))).toBe(true);
      expect(snapshotLedger.length).toBe(during.manifest.tables.find((table) => table.name === 'ledger_entries')!.rows);
      expect(snapshotLedger.length).toBeGreaterThan(8 + 9);
      expect(snapshotLedger.length).toBeLessThan(sourceLedger.size);
    } finally {
      await snapshot.close();
    }

    // The quiet one: the same rows everywhere, sessions left out, the files byte for byte.
    expect(await count(t.database, 'sessions')).toBeGreaterThan(0);
    expect(after.manifest.tables.map((table) => table.name)).not.toContain('sessions');
    const second = await emptyTarget(kind);
    await restoreArchive(path.join(dir, 'depois.tar.gz'), second.target, { filesRoot: second.filesRoot, force: false });
    const restored = await second.open();
    try {
      expect(await contents(restored)).toEqual(await contents(t.database));
      expect(await count(restored, 'sessions')).toBe(0);
      expectFiles(second.filesRoot, files);
      // The restored school works: a student signs in with the same password and transfers.
      const app = await buildApp(testConfig(), restored);
      try {
        const signIn = await app.inject({
          method: 'POST',
          url: '/api/auth/student/login',
          payload: { studentId: '3000001', password: TEST_PASSWORD },
        });
        const transfer = await app.inject({
          method: 'POST',
          url: '/api/meritus/transfers',
          headers: { cookie: cookieFrom(signIn), 'idempotency-key': randomUUID() },
          payload: { recipientId: t.students[1]!.id, amount: 1 },
        });
        expect(transfer.statusCode).toBe(201);
        expect(await reconcile(restored.db)).toEqual([]);
      } finally {
        await app.close();
      }
    } finally {
      await restored.close();
    }
  },
);

/** The archive with one byte of `entry`'s content changed, packed again as a valid gzip: only the manifest's SHA-256 can tell. */
function withEntryChanged(archive: Buffer, entry: string): Buffer {
  const tar = zlib.gunzipSync(archive);
  for (let offset = 0; offset < tar.length; offset += 512) {
    const name = tar.toString('utf8', offset, offset + 100).replace(/\0.*$/s, '');
    const prefix = tar.toString('utf8', offset + 345, offset + 500).replace(/\0.*$/s, '');
    if ((prefix ? `${prefix}/${name}` : name) === entry) {
      tar[offset + 512 + 10]! ^= 0x01;
      return zlib.gzipSync(tar);
    }
  }
  throw new Error(`${entry} not in the archive`);
}

test("a row is read back whole wherever the archive's bytes are cut: an accent split between two pieces stays one character", async () => {
  const rows = ['{"description":"durante a cópia"}', '{"name":"Conceição"}', '{"emoji":"🏆"}'];
  const bytes = Buffer.from(rows.map((row) => `${row}\n`).join(''));
  for (let cut = 1; cut < bytes.length; cut++) {
    async function* twoPieces() {
      yield bytes.subarray(0, cut);
      yield bytes.subarray(cut);
    }
    const seen: Buffer[] = [];
    const lines: string[] = [];
    for await (const line of utf8Lines(twoPieces(), (piece) => seen.push(piece))) lines.push(line);
    expect(lines, `cut at byte ${cut}`).toEqual(rows);
    expect(Buffer.concat(seen).equals(bytes)).toBe(true);
  }
});

test(
  'a damaged archive is refused with a clear message before anything is written; a target that is not empty needs --force',
  { timeout: 240_000 },
  async () => {
    const t = await buildTestApp();
    cleanups.push(() => t.close());
    await t.award(t.students[0]!.id, 25);
    const files = await storeFiles(t.config.uploadsDir);
    const dir = tempDir('meritus-backup-');
    const file = path.join(dir, 'escola.tar.gz');
    const client = await sqlClientOf(t.database);
    cleanups.push(() => client.close());
    await writeBackup(client, file, { kind: 'local', root: t.config.uploadsDir });
    const archive = fs.readFileSync(file);
    const damaged = {
      'truncada.tar.gz': [
        archive.subarray(0, Math.floor(archive.length * 0.6)),
        /está incompleta \(o arquivo termina antes do fim\).*Nada foi alterado/,
      ],
      'bit-trocado.tar.gz': [Buffer.from(archive).fill(0x55, 200, 201), /está corrompida.*Nada foi alterado/],
      'linha-alterada.tar.gz': [
        withEntryChanged(archive, 'db/students.jsonl'),
        /o conteúdo de db\/students\.jsonl não confere com a soma SHA-256 do manifesto\. Nada foi alterado/,
      ],
      'nao-e-copia.tar.gz': [Buffer.from('isto não é uma cópia'), /não é uma cópia do Méritus/],
    } as const;

    const kind = t.database.kind;
    const { target, filesRoot, open } = await emptyTarget(kind);
    for (const [name, [bytes, message]] of Object.entries(damaged)) {
      fs.writeFileSync(path.join(dir, name), bytes);
      await expect(restoreArchive(path.join(dir, name), target, { filesRoot, force: true }), name).rejects.toThrow(message);
      expect(fs.existsSync(path.dirname(filesRoot)), name).toBe(false);
    }
    if (target.kind === 'postgres') {
      const check = new pg.Client({ connectionString: target.url });
      await check.connect();
      const { rows } = await check.query(
        `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN ('public', 'drizzle')`,
      );
      await check.end();
      expect(rows[0].n).toBe(0);
    }

    await restoreArchive(file, target, { filesRoot, force: false });
    await expect(restoreArchive(file, target, { filesRoot, force: false })).rejects.toThrow(
      /O destino não está vazio: .* já tem dados\. .*--force/,
    );
    await restoreArchive(file, target, { filesRoot, force: true });
    const restored = await open();
    try {
      expect(await contents(restored)).toEqual(await contents(t.database));
      expectFiles(filesRoot, files);
    } finally {
      await restored.close();
    }
  },
);

test.skipIf(!onPostgres)(
  'a restore into a PostgreSQL database another client is connected to is refused, and changes nothing (needs the run’s PostgreSQL: skipped on api-pglite)',
  async () => {
    const t = await buildTestApp();
    cleanups.push(() => t.close());
    const dir = tempDir('meritus-backup-');
    const file = path.join(dir, 'escola.tar.gz');
    const client = await sqlClientOf(t.database);
    cleanups.push(() => client.close());
    await writeBackup(client, file, { kind: 'local', root: t.config.uploadsDir });
    const url = await emptyPostgres();
    const filesRoot = path.join(tempDir('meritus-restore-'), 'data', 'uploads');
    // Another Méritus server on the target database.
    const server = new pg.Client({ connectionString: url });
    await server.connect();
    try {
      await expect(restoreArchive(file, { kind: 'postgres', url }, { filesRoot, force: true })).rejects.toThrow(
        /Há 1 outra\(s\) conexão\(ões\) com o banco de destino/,
      );
      const { rows } = await server.query(
        `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'`,
      );
      expect(rows[0].n).toBe(0);
    } finally {
      await server.end();
    }
  },
);

describe('between the two databases', () => {
  test.skipIf(!onPostgres)(
    'embedded → PostgreSQL → embedded gives back the same school (needs the run’s PostgreSQL: skipped on api-pglite)',
    { timeout: 240_000 },
    async () => {
      const embedded = await openPglite(undefined);
      const config = testConfig();
      cleanups.push(() => fs.rmSync(config.dataDir, { recursive: true, force: true }));
      const app = await buildApp(config, embedded);
      try {
        await addAdmin(embedded.db, TEST_ADMIN);
        const [ana, bruno] = await addStudents(embedded.db, [
          { studentId: '5000001', name: 'Ana Beatriz Souza', email: 'ana@escola.test', birthDate: '2010-03-14' },
          { studentId: '5000002', name: 'Bruno Henrique Lima' },
        ]);
        const admin = cookieFrom(
          await app.inject({ method: 'POST', url: '/api/auth/admin/login', payload: { email: TEST_ADMIN.email, password: TEST_PASSWORD } }),
        );
        for (const [currency, amount] of [
          ['meritus', 300],
          ['estelecas', 30],
        ] as const) {
          const award = await app.inject({
            method: 'POST',
            url: `/api/admin/students/${ana!.id}/${currency}`,
            headers: { cookie: admin, 'idempotency-key': randomUUID() },
            payload: { type: 'reward', amount, description: 'Olimpíada de matemática' },
          });
          expect(award.statusCode).toBe(201);
        }
        const student = cookieFrom(
          await app.inject({ method: 'POST', url: '/api/auth/student/login', payload: { studentId: '5000001', password: TEST_PASSWORD } }),
        );
        const transfer = await app.inject({
          method: 'POST',
          url: '/api/meritus/transfers',
          headers: { cookie: student, 'idempotency-key': randomUUID() },
          payload: { recipientId: bruno!.id, amount: 120, description: 'lanche' },
        });
        expect(transfer.statusCode).toBe(201);
      } finally {
        await app.close();
      }
      const files = await storeFiles(config.uploadsDir);
      const original = await contents(embedded);
      const dir = tempDir('meritus-backup-');
      const client = await sqlClientOf(embedded);
      await writeBackup(client, path.join(dir, 'embutido.tar.gz'), { kind: 'local', root: config.uploadsDir });
      await client.close();
      await embedded.close();

      const server = await emptyTarget('postgres');
      await restoreArchive(path.join(dir, 'embutido.tar.gz'), server.target, { filesRoot: server.filesRoot, force: false });
      const onServer = await server.open();
      try {
        expect(await contents(onServer)).toEqual(original);
        const serverClient = await sqlClientOf({ ...onServer, url: (server.target as { url: string }).url });
        const copy = await writeBackup(serverClient, path.join(dir, 'postgres.tar.gz'), { kind: 'local', root: server.filesRoot });
        await serverClient.close();
        expect(copy.manifest.database.kind).toBe('postgres');
      } finally {
        await onServer.close();
      }

      const back = await emptyTarget('pglite');
      await restoreArchive(path.join(dir, 'postgres.tar.gz'), back.target, { filesRoot: back.filesRoot, force: false });
      const again = await back.open();
      try {
        expect(await contents(again)).toEqual(original);
        expectFiles(back.filesRoot, files);
      } finally {
        await again.close();
      }
    },
  );
});

describe('the commands', () => {
  test.skipIf(onPostgres)(
    'npm run backup refuses an embedded database held by a process that does not answer the backup socket (PGlite only: PostgreSQL is copied live)',
    async () => {
      const dataDir = tempDir('meritus-cli-');
      await seedPgliteDataDir(dataDir);
      // This test process stands for the running server: it holds the folder's lock, as a server does.
      const release = await acquireDataDirLock(dataDir);
      const refused = await runScript('src/server/cli/backup.ts', [path.join(dataDir, 'copia.tar.gz')], { env: { DATA_DIR: dataDir } });
      await release();
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`já está em uso por outro servidor (PID ${process.pid})`);
      expect(refused.stderr).toContain('O servidor não atendeu o pedido de cópia');
      expect(fs.existsSync(path.join(dataDir, 'copia.tar.gz'))).toBe(false);
    },
  );

  test('npm run backup and npm run restore print what they wrote and restored', { timeout: 240_000 }, async () => {
    const dir = tempDir('meritus-cli-');
    const file = path.join(dir, 'escola.tar.gz');
    // The command opens the database as the server would: a data folder, or the test's PostgreSQL.
    const sourceDir = path.join(dir, 'origem');
    let sourceEnv: Record<string, string> = { DATA_DIR: sourceDir };
    let source: Database;
    if (onPostgres) {
      const database = await createTestDatabase();
      cleanups.push(() => database.drop());
      sourceEnv = { ...sourceEnv, DATABASE_URL: database.url! };
      source = database;
    } else {
      fs.mkdirSync(sourceDir);
      await seedPgliteDataDir(sourceDir);
      source = await openPglite(sourceDir);
    }
    try {
      await addAdmin(source.db, TEST_ADMIN);
      await addStudents(source.db, [
        { studentId: '6000001', name: 'Ana Beatriz Souza' },
        { studentId: '6000002', name: 'Bruno Henrique Lima' },
      ]);
    } finally {
      if (!onPostgres) await source.close();
    }
    await storeFiles(path.join(sourceDir, 'uploads'));
    const backup = await runScript('src/server/cli/backup.ts', [file], { env: sourceEnv });
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/^Cópia gravada em .*escola\.tar\.gz \([\d,]+ KB, [\d,]+ s\)/);
    expect(backup.stdout).toMatch(/students: 2 linhas/);
    expect(backup.stdout).toMatch(/Arquivos: 3 arquivos/);
    expect(backup.stdout).toContain('Sessões não incluídas');
    expect((await runScript('src/server/cli/backup.ts', [file], { env: sourceEnv })).stderr).toContain('já existe');

    const targetEnv: Record<string, string> = onPostgres
      ? { DATA_DIR: path.join(dir, 'data'), DATABASE_URL: await emptyPostgres() }
      : { DATA_DIR: path.join(dir, 'data') };
    const restore = await runScript('src/server/cli/restore.ts', [file], { env: targetEnv });
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    expect(restore.stdout).toMatch(/restaurada (no PostgreSQL de DATABASE_URL|no banco embutido em .*) em [\d,]+ s/);
    expect(restore.stdout).toMatch(/admins: 1 linha\b/);
    const again = await runScript('src/server/cli/restore.ts', [file], { env: targetEnv });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('--force');
  });
});
