import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The whole suite: API tests on PGlite and on a real PostgreSQL 15 and unit tests, with the
 * browser tests in Chromium beside them. Nothing is skipped: a missing tool is installed or named.
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
    if (run('apt-get', ['update'], { env }) === 0 && run('apt-get', ['install', '-y', 'chromium'], { env }) === 0 && fs.existsSync(CHROMIUM)) {
      return;
    }
    fail(`A instalação do Chromium falhou. Instale-o com: apt-get update && apt-get install -y chromium (${CHROMIUM} é necessário).`);
  }
  fail(`Os testes de navegador precisam do Chromium em ${CHROMIUM}. Instale-o com: sudo apt-get install -y chromium`);
}

function ensurePostgres() {
  const missing = ['initdb', 'pg_ctl', 'postgres'].filter(
    (name) => !POSTGRES_BIN_DIRS.some((dir) => fs.existsSync(path.join(dir, name))),
  );
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
/**
 * Two lanes run side by side: the Vitest projects one after another (each run its own time), and
 * the browser tests, which spend most of their time waiting (on the server, pushed events, pages
 * settling) while the API tests keep both cores busy. One lane's output would cut through the
 * other's, so the browser tests' output is kept and printed when they end.
 */
const lanes = [
  [
    { name: 'vitest api-pglite', command: bin('vitest'), args: ['run', '--project', 'api-pglite'] },
    { name: 'vitest api-postgres', command: bin('vitest'), args: ['run', '--project', 'api-postgres'] },
    { name: 'vitest unit', command: bin('vitest'), args: ['run', '--project', 'unit', '--project', 'unit-dom'] },
  ],
  // playwright.config.ts's webServer builds the front end when dist is stale and starts a server on a fresh demo database.
  [{ name: 'playwright', command: bin('playwright'), args: ['test'], buffered: true }],
];

function duration(ms) {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

/** Runs one stage to its end; a buffered stage's output is printed in one piece when it ends. */
function runStage(stage) {
  const at = performance.now();
  if (!stage.buffered) console.log(`\n==> ${stage.name}`);
  return new Promise((resolve) => {
    const child = spawn(stage.command, stage.args, { cwd: root, stdio: stage.buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => fail(`${stage.command}: ${error.message}`));
    child.on('close', (status) => {
      if (stage.buffered) {
        console.log(`\n==> ${stage.name} (rodou ao mesmo tempo que o vitest; saída completa)`);
        process.stdout.write(Buffer.concat(output));
      }
      resolve({ ...stage, ok: status === 0, ms: performance.now() - at });
    });
  });
}

async function runLane(stages) {
  const results = [];
  for (const stage of stages) results.push(await runStage(stage));
  return results;
}

const started = performance.now();
const results = (await Promise.all(lanes.map(runLane))).flat();

const width = Math.max(...results.map((result) => result.name.length));
console.log('\nTempo por etapa (playwright roda ao mesmo tempo que as etapas do vitest):');
for (const result of results) {
  console.log(`  ${result.name.padEnd(width)}  ${duration(result.ms).padStart(12)}  ${result.ok ? 'ok' : 'FALHOU'}`);
}
console.log(`  ${'total'.padEnd(width)}  ${duration(performance.now() - started).padStart(12)}`);

const failed = results.filter((result) => !result.ok).map((result) => result.name);
if (failed.length > 0) fail(`Testes falharam: ${failed.join(', ')}.`);
console.log('\nTodos os testes passaram (API em PGlite e PostgreSQL, unitários e navegador).');
