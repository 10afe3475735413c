import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The whole suite: API tests on PGlite and on a real PostgreSQL 15, unit tests, then the
 * browser tests in Chromium. Nothing is skipped: a missing tool is installed or named.
 * Every stage runs even after one fails; the time of each is printed at the end.
 */
const root = path.resolve(import.meta.dirname, '..');
const CHROMIUM = '/usr/bin/chromium';
/** Where src/server/test/postgres-server.ts looks for the PostgreSQL 15 binaries. */
const POSTGRES_BIN_DIRS = ['/usr/local/bin', '/usr/lib/postgresql/15/bin'];

function fail(message) {
  console.error(`\n${message}\n`);
  process.exit(1);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.error) fail(`${command}: ${result.error.message}`);
  return result.status ?? 1;
}

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

function ensureChromium() {
  if (fs.existsSync(CHROMIUM)) return;
  if (process.getuid?.() === 0 && hasCommand('apt-get')) {
    console.log('Instalando o Chromium para os testes de navegador (apt-get install -y chromium)…');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    if (
      run('apt-get', ['update'], { env }) === 0 &&
      run('apt-get', ['install', '-y', 'chromium'], { env }) === 0 &&
      fs.existsSync(CHROMIUM)
    ) {
      return;
    }
    fail(`A instalação do Chromium falhou. Instale-o com: apt-get update && apt-get install -y chromium (${CHROMIUM} é necessário).`);
  }
  fail(`Os testes de navegador precisam do Chromium em ${CHROMIUM}. Instale-o com: sudo apt-get install -y chromium`);
}

function ensurePostgres() {
  const missing = ['initdb', 'pg_ctl', 'postgres'].filter((name) => !POSTGRES_BIN_DIRS.some((dir) => fs.existsSync(path.join(dir, name))));
  if (missing.length > 0) {
    fail(
      `Os testes da API em PostgreSQL precisam do PostgreSQL 15 (faltam: ${missing.join(', ')}). ` +
        `Instale com: sudo apt-get install -y postgresql-15 (binários em /usr/lib/postgresql/15/bin) ` +
        'ou coloque initdb, pg_ctl e postgres em /usr/local/bin.',
    );
  }
}

ensureChromium();
ensurePostgres();

const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const stages = [
  // Every project of vitest.config.ts (API on PGlite and on PostgreSQL, unit) in one run: its workers go from one
  // project's files to the next's instead of idling at the end of each, and Vitest starts once.
  { name: 'vitest (API em PGlite e PostgreSQL, unitários)', command: bin('vitest'), args: ['run'] },
  // playwright.config.ts's webServer builds the front end and starts a server on a fresh demo database.
  { name: 'playwright', command: bin('playwright'), args: ['test'] },
];

function duration(ms) {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

const started = performance.now();
const results = stages.map((stage) => {
  console.log(`\n==> ${stage.name}`);
  const at = performance.now();
  const status = run(stage.command, stage.args);
  return { ...stage, ok: status === 0, ms: performance.now() - at };
});

const width = Math.max(...stages.map((stage) => stage.name.length));
console.log('\nTempo por etapa:');
for (const result of results) {
  console.log(`  ${result.name.padEnd(width)}  ${duration(result.ms).padStart(12)}  ${result.ok ? 'ok' : 'FALHOU'}`);
}
console.log(`  ${'total'.padEnd(width)}  ${duration(performance.now() - started).padStart(12)}`);

const failed = results.filter((result) => !result.ok).map((result) => result.name);
if (failed.length > 0) fail(`Testes falharam: ${failed.join(', ')}.`);
console.log('\nTodos os testes passaram (API em PGlite e PostgreSQL, unitários e navegador).');
