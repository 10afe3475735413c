import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, expect, test, vi } from 'vitest';
import { openPglite, rowsOf } from '../db/client.ts';
import { reconcile, totalBalances } from '../modules/ledger/reconciliation.service.ts';
import { addAdmin, addStudents, seedPgliteDataDir, TEST_ADMIN, TEST_PASSWORD } from '../test/test-app.ts';
import { runScript, startServer, type RunningServer } from '../test/processes.ts';
import { LIVE_BACKUP_SOCKET, serveLiveBackups } from './live-backup.ts';
import type { SqlClient } from './sql-client.ts';
import { restoreArchive } from './restore.ts';

/**
 * `npm run backup` on an embedded data folder while its server runs and students transfer:
 * the server writes the archive in one transaction, the restored school reconciles, and the
 * counts are those the command printed.
 */
const onPostgres = process.env.TEST_DB === 'postgres';
const AWARD = 500;

const dirs: string[] = [];
let server: RunningServer | undefined;
afterAll(async () => {
  if (server?.child.exitCode === null) server.child.kill('SIGKILL');
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function post(url: string, body: object, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server!.url}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID(), ...headers },
    body: JSON.stringify(body),
  });
}

async function signIn(url: string, body: object): Promise<string> {
  const response = await post(url, body);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.headers.getSetCookie()[0]!.split(';')[0]!;
}

test.skipIf(onPostgres)(
  'npm run backup copies an embedded database while its server runs and takes transfers (PGlite only: PostgreSQL is copied by its own connection)',
  { timeout: 120_000 },
  async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-live-backup-'));
    dirs.push(dir);
    const dataDir = path.join(dir, 'data');
    fs.mkdirSync(dataDir);
    await seedPgliteDataDir(dataDir);
    const seeding = await openPglite(dataDir);
    const students = await (async () => {
      try {
        await addAdmin(seeding.db, TEST_ADMIN);
        return await addStudents(seeding.db, [
          { studentId: '7000001', name: 'Ana Beatriz Souza' },
          { studentId: '7000002', name: 'Bruno Henrique Lima' },
          { studentId: '7000003', name: 'Carla Dias Ferreira' },
        ]);
      } finally {
        await seeding.close();
      }
    })();
    // What a crashed server leaves behind: the next one replaces it.
    const socketPath = path.join(dataDir, LIVE_BACKUP_SOCKET);
    fs.writeFileSync(socketPath, 'sobra de um servidor que caiu');

    server = await startServer({ DATA_DIR: dataDir, DEMO: 'off', API_RATE_LIMIT: '0' });
    expect(fs.statSync(socketPath).isSocket()).toBe(true);
    expect(fs.statSync(socketPath).mode & 0o777).toBe(0o600);
    const admin = await signIn('/api/auth/admin/login', { email: TEST_ADMIN.email, password: TEST_PASSWORD });
    for (const student of students) {
      const award = await post(
        `/api/admin/students/${student.id}/meritus`,
        { type: 'reward', amount: AWARD, description: 'Saldo para o teste' },
        { cookie: admin },
      );
      expect(award.status, await award.clone().text()).toBe(201);
    }
    const cookies = await Promise.all(
      students.map((student) => signIn('/api/auth/student/login', { studentId: student.studentId, password: TEST_PASSWORD })),
    );

    let running = true;
    let written = 0;
    const loops = cookies.map(async (cookie, index) => {
      while (running) {
        const response = await post(
          '/api/meritus/transfers',
          { recipientId: students[(index + 1) % students.length]!.id, amount: 1 + (written % 3), description: 'durante a cópia' },
          { cookie },
        );
        if (response.status === 201) written += 1;
        else if (response.status !== 422) throw new Error(`transfer ${response.status}: ${await response.text()}`);
      }
    });
    const file = path.join(dir, 'copia.tar.gz');
    let backup: Awaited<ReturnType<typeof runScript>>;
    let writtenAtStart: number;
    try {
      while (written < 5) await new Promise((resolve) => setImmediate(resolve));
      writtenAtStart = written;
      backup = await runScript('src/server/cli/backup.ts', [file], { env: { DATA_DIR: dataDir } });
      // Transfers keep being written after the copy: the server never stopped taking them.
      const writtenAtEnd = written;
      while (written < writtenAtEnd + 5) await new Promise((resolve) => setImmediate(resolve));
    } finally {
      running = false;
      await Promise.all(loops);
    }
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/^Cópia gravada em .*copia\.tar\.gz \([\d,]+ KB, [\d,]+ s\)/);
    const printed = (table: string) => Number(new RegExp(`^ {4}${table}: (\\d+) linhas?$`, 'm').exec(backup.stdout)?.[1]);

    expect(await server.stop()).toBe(0);
    expect(fs.existsSync(socketPath)).toBe(false);
    const source = await openPglite(dataDir);
    const sourceLedger = await (async () => {
      try {
        return rowsOf<{ n: string }>(await source.db.execute(sql`SELECT count(*) AS n FROM ledger_entries`))[0]!.n;
      } finally {
        await source.close();
      }
    })();

    const restoredDir = path.join(dir, 'restaurado');
    await restoreArchive(file, { kind: 'pglite', dataDir: restoredDir }, { filesRoot: path.join(restoredDir, 'uploads'), force: false });
    const restored = await openPglite(restoredDir);
    try {
      expect(await reconcile(restored.db)).toEqual([]);
      expect(await totalBalances(restored.db)).toEqual({ meritus: AWARD * students.length, estelecas: 0 });
      const count = async (table: string) =>
        Number(rowsOf<{ n: string }>(await restored.db.execute(sql.raw(`SELECT count(*) AS n FROM ${table}`)))[0]!.n);
      for (const table of ['students', 'admins', 'ledger_entries', 'idempotency_keys'])
        expect(await count(table), table).toBe(printed(table));
      // A snapshot taken between transfers: those before the command are in it, the ones after are not.
      const ledger = await count('ledger_entries');
      expect(ledger).toBeGreaterThanOrEqual(students.length + writtenAtStart);
      expect(ledger).toBeLessThan(Number(sourceLedger));
    } finally {
      await restored.close();
    }
  },
);

test('a data folder too deep for a Unix socket path: the server starts without the socket and logs why, creating nothing elsewhere', async () => {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-live-backup-'));
  dirs.push(parent);
  const dataDir = path.join(parent, 'd'.repeat(100));
  fs.mkdirSync(dataDir);
  const log = { info: vi.fn(), error: vi.fn() };
  const stop = await serveLiveBackups(dataDir, {} as SqlClient, { kind: 'local', root: dataDir }, log);
  expect(log.error).toHaveBeenCalledWith(
    expect.objectContaining({ socket: path.join(dataDir, LIVE_BACKUP_SOCKET) }),
    expect.stringContaining('sem o socket de cópia'),
  );
  // Linux would have cut the path short and put the socket beside the folder.
  expect(fs.readdirSync(parent)).toEqual(['d'.repeat(100)]);
  expect(fs.readdirSync(dataDir)).toEqual([]);
  await stop();
});
