import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDatabase, seedPgliteDataDir, testConfig, type TestDatabase } from '../test/test-app.ts';
import { runScript } from '../test/processes.ts';
import { openPglite, openPostgres, type Database } from '../db/client.ts';
import { admins, auditLog } from '../db/schema.ts';
import { buildApp } from '../app.ts';

/** `npm run admin:create` as a separate process, against a PGlite folder or the run's PostgreSQL. */
const onPglite = process.env.TEST_DB !== 'postgres';
const CLI = 'src/server/cli/admin-create.ts';

let database: TestDatabase | undefined;
let dataDir: string;
let target: Record<string, string>;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-cli-'));
  if (onPglite) {
    await seedPgliteDataDir(dataDir);
    target = { DATA_DIR: dataDir };
  } else {
    database = await createTestDatabase();
    target = { DATABASE_URL: database.url!, DATA_DIR: dataDir };
  }
});
afterAll(async () => {
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function createAdmin(args: string[], input?: string) {
  return runScript(CLI, args, { env: target, ...(input === undefined ? {} : { input }) });
}

/** Opens the same database the command wrote to (after it has exited and released the folder). */
async function open(): Promise<Database> {
  return onPglite ? openPglite(dataDir) : openPostgres(database!.url!, { max: 2 });
}

async function withDatabase<T>(use: (database: Database) => Promise<T>): Promise<T> {
  const opened = await open();
  try {
    return await use(opened);
  } finally {
    await opened.close();
  }
}

// Each test starts processes that load the whole server (and PGlite's first start runs initdb): slow on a busy machine.
describe.sequential('npm run admin:create', { timeout: 120_000 }, () => {
  test('from flags: the new administrator can sign in, and the creation is audited as every creation is, its email lower-cased', async () => {
    const result = await createAdmin([
      '--email',
      ' Coordenacao@Escola.test',
      '--name',
      'Coordenadora Lúcia',
      '--password',
      'senha-da-lucia',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Administrador Coordenadora Lúcia <coordenacao@escola.test> criado');

    await withDatabase(async (opened) => {
      const config = testConfig({ DEMO: 'off' });
      const app = await buildApp(config, opened);
      try {
        const login = await app.inject({
          method: 'POST',
          url: '/api/auth/admin/login',
          payload: { email: 'coordenacao@escola.test', password: 'senha-da-lucia' },
        });
        expect(login.statusCode).toBe(200);
        expect(login.json()).toMatchObject({ role: 'coordinator', admin: { name: 'Coordenadora Lúcia', adminId: 'admin001' } });
      } finally {
        await app.close();
        fs.rmSync(config.dataDir, { recursive: true, force: true });
      }
      const audit = await opened.db.select().from(auditLog);
      expect(audit.filter((row) => row.action === 'admin.create')).toMatchObject([
        { actorKind: 'system', actorLabel: 'npm run admin:create', details: { email: 'coordenacao@escola.test' } },
      ]);
    });
  });

  test('refuses an email already in use, in any letter case, and writes nothing', async () => {
    const result = await createAdmin(['--email', 'COORDENACAO@escola.test', '--name', 'Outra Pessoa', '--password', 'outra-senha-1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Já existe um administrador com o email coordenacao@escola.test.');
    await withDatabase(async (opened) => expect(await opened.db.select().from(admins)).toHaveLength(1));
  });

  test.each([
    [['--email', 'sem-arroba', '--name', 'Nome', '--password', 'senha-longa'], '--email: Email inválido'],
    [
      ['--email', 'a@escola.test', '--name', 'Nome', '--password', 'curta'],
      '--password: A senha do administrador deve ter pelo menos 8 caracteres',
    ],
    [['--email', 'a@escola.test', '--name', '   ', '--password', 'senha-longa'], '--name: Informe o nome'],
    [['--mail', 'a@escola.test'], "Unknown option '--mail'"],
  ])('refuses bad flags %j with a clear message', async (args, message) => {
    const result = await createAdmin(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
  });

  test('interactively: asks what is missing, repeats a question until the answer is valid, confirms the password', async () => {
    const answers = [
      'professor@escola.test',
      '  Professor Rui Barros  ',
      'curta',
      'senha-do-rui',
      'outra-coisa',
      'senha-do-rui',
      'senha-do-rui',
      '',
    ];
    const result = await createAdmin([], answers.join('\n'));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('A senha do administrador deve ter pelo menos 8 caracteres');
    expect(result.stdout).toContain('As senhas não conferem');
    expect(result.stdout).toContain('Administrador Professor Rui Barros <professor@escola.test> criado (admin002)');
    expect(result.stdout).not.toContain('senha-do-rui');
  });

  test('stops with a message when the input ends before every answer is given', async () => {
    const result = await createAdmin(['--email', 'alguem@escola.test'], 'Alguém\n');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Entrada encerrada');
    await withDatabase(async (opened) => expect(await opened.db.select().from(admins)).toHaveLength(2));
  });

  const whileServing = onPglite
    ? 'with the embedded database in use by a server, asks to stop the server first'
    : 'on PostgreSQL it works while the database is in use';
  test(whileServing, async () => {
    await withDatabase(async () => {
      const result = await createAdmin(['--email', 'vice@escola.test', '--name', 'Vice-diretor', '--password', 'senha-do-vice']);
      if (onPglite) {
        expect(result.code).toBe(1);
        expect(result.stderr).toContain('já está em uso por outro servidor');
        expect(result.stderr).toContain('Pare o servidor');
      } else {
        expect(result.code).toBe(0);
      }
    });
  });
});
