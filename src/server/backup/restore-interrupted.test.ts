import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { openPglite, rowsOf } from '../db/client.ts';
import { addStudents, seedPgliteDataDir } from '../test/test-app.ts';
import { runScript } from '../test/processes.ts';
import { sql } from 'drizzle-orm';

/**
 * A restore with --force over a school, stopped with SIGKILL while it loads: the embedded target is built beside the
 * old one and swapped in at the end, so the old school must come through whole. PostgreSQL drops its schemas first
 * (README), so this is a PGlite test.
 */
const onPostgres = process.env.TEST_DB === 'postgres';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-restore-stop-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A data folder with these students and one stored file. */
async function school(name: string, names: string[]): Promise<string> {
  const dataDir = path.join(dir, name);
  fs.mkdirSync(path.join(dataDir, 'uploads', 'students'), { recursive: true });
  await seedPgliteDataDir(dataDir);
  const database = await openPglite(dataDir);
  try {
    await addStudents(
      database.db,
      names.map((student, index) => ({ studentId: `${name === 'origem' ? 71 : 72}0000${index}`, name: student })),
    );
  } finally {
    await database.close();
  }
  fs.writeFileSync(path.join(dataDir, 'uploads', 'students', `${name}.webp`), name);
  return dataDir;
}

async function studentNames(dataDir: string): Promise<string[]> {
  const database = await openPglite(dataDir);
  try {
    return rowsOf<{ name: string }>(await database.db.execute(sql`SELECT name FROM students ORDER BY name`)).map((row) => row.name);
  } finally {
    await database.close();
  }
}

test.skipIf(onPostgres)(
  'a restore --force stopped by SIGKILL while it loads leaves the school that was there whole; run again, it restores ' +
    '(PGlite only: PostgreSQL drops its schemas first)',
  { timeout: 240_000 },
  async () => {
    const file = path.join(dir, 'origem.tar.gz');
    const source = await school('origem', ['Ana Lúcia Prado', 'Bento Araújo']);
    expect((await runScript('src/server/cli/backup.ts', [file], { env: { DATA_DIR: source } })).code).toBe(0);
    const target = await school('destino', ['Caio Nogueira']);

    const stop = new AbortController();
    const staged = path.join(target, 'pglite.restaurando');
    const watch = setInterval(() => fs.existsSync(staged) && stop.abort(), 5);
    try {
      const stopped = await runScript('src/server/cli/restore.ts', [file, '--force'], { env: { DATA_DIR: target }, kill: stop.signal });
      expect(stop.signal.aborted, `the restore finished before it could be stopped: ${stopped.stdout}${stopped.stderr}`).toBe(true);
      expect(stopped.code).toBeNull();
    } finally {
      clearInterval(watch);
    }
    expect(await studentNames(target)).toEqual(['Caio Nogueira']);
    expect(fs.readFileSync(path.join(target, 'uploads', 'students', 'destino.webp'), 'utf8')).toBe('destino');

    const again = await runScript('src/server/cli/restore.ts', [file, '--force'], { env: { DATA_DIR: target } });
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(await studentNames(target)).toEqual(['Ana Lúcia Prado', 'Bento Araújo']);
    expect(fs.readdirSync(path.join(target, 'uploads', 'students'))).toEqual(['origem.webp']);
    expect(fs.readdirSync(target).filter((entry) => entry.includes('.restaurando') || entry.includes('.substituido'))).toEqual([]);
  },
);
