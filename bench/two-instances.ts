/**
 * npm run bench:two-instances — two Méritus instances on one PostgreSQL behind nginx.
 *
 * Starts PostgreSQL 15 in a temporary folder, two instances on it (TRUST_PROXY=on), and
 * Debian's nginx in front with the settings of deploy/nginx.conf; runs the bank workload
 * (random transfers between signed-in students) through the proxy; then checks the ledger
 * invariants, that a transfer made on either instance reaches event streams open on both,
 * and that a logout on one instance ends the session on the other. Prints the figures and
 * exits 1 on any failure.
 *
 * Options (env): BENCH_STUDENTS (100), BENCH_CLIENTS (8), BENCH_SECONDS (10).
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { startPostgres } from '../src/server/test/postgres-server.ts';
import { freePort, startServer, type RunningServer } from '../src/server/test/processes.ts';
import { openPostgres } from '../src/server/db/client.ts';
import { reconcile, totalBalances } from '../src/server/modules/ledger/reconciliation.service.ts';
import { ADMIN, cookieOf, INITIAL, populate, post, type BenchStudent } from './bench-students.ts';

const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 100);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

function nginxBinary(): string {
  const find = () => ['/usr/sbin/nginx', '/usr/bin/nginx'].find((file) => fs.existsSync(file));
  let binary = find();
  if (!binary && process.getuid?.() === 0) {
    console.log('nginx não encontrado: instalando (apt-get install -y nginx)…');
    spawnSync('apt-get', ['update'], { stdio: 'ignore' });
    spawnSync('apt-get', ['install', '-y', 'nginx'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    binary = find();
  }
  if (!binary) throw new Error('nginx não encontrado. Instale com: sudo apt-get install -y nginx');
  return binary;
}

/** nginx in the foreground with deploy/nginx.conf's proxy settings, everything in a temporary folder. */
async function startNginx(upstreams: string[]): Promise<{ url: string; stop: () => void }> {
  const binary = nginxBinary();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-nginx-'));
  const port = await freePort();
  const conf = `
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  upstream meritus { ${upstreams.map((url) => `server ${new URL(url).host};`).join(' ')} keepalive 32; }
  server {
    listen 127.0.0.1:${port};
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $host;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_next_upstream error timeout http_502 http_503;
    location = /api/events {
      proxy_pass http://meritus; proxy_buffering off; proxy_cache off;
      proxy_read_timeout 1h; proxy_send_timeout 1h; proxy_next_upstream off;
    }
    location / { proxy_pass http://meritus; proxy_read_timeout 60s; }
  }
}`;
  fs.writeFileSync(path.join(dir, 'nginx.conf'), conf);
  const child = spawn(binary, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (attempt > 100 || child.exitCode !== null)
      throw new Error(`nginx não respondeu: ${fs.readFileSync(path.join(dir, 'error.log'), 'utf8')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    stop: () => {
      child.kill('SIGQUIT');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function bank(
  url: string,
  people: BenchStudent[],
): Promise<{ transfers: number; refused: number; errors: number; latencies: number[]; seconds: number }> {
  const pool = new Pool(url, { connections: CLIENTS });
  const result = { transfers: 0, refused: 0, errors: 0, latencies: [] as number[], seconds: 0 };
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < deadline) {
        const from = people[Math.floor(Math.random() * people.length)]!;
        const to = people[(people.indexOf(from) + 1 + Math.floor(Math.random() * (people.length - 1))) % people.length]!;
        const amount = Math.random() < 0.9 ? 1 + Math.floor(Math.random() * 50) : 500 + Math.floor(Math.random() * 2000);
        const t0 = performance.now();
        const response = await pool.request({
          path: '/api/meritus/transfers',
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: from.cookie, 'idempotency-key': randomUUID() },
          body: JSON.stringify({ recipientId: to.id, amount }),
        });
        await response.body.text();
        result.latencies.push(performance.now() - t0);
        if (response.statusCode === 201) result.transfers += 1;
        else if (response.statusCode === 400 || response.statusCode === 422) result.refused += 1;
        else result.errors += 1;
      }
    }),
  );
  result.seconds = (performance.now() - started) / 1000;
  await pool.close();
  return result;
}

/** An event stream as a student sees it; `next` resolves with the next event whose type matches. */
async function openStream(url: string, cookie: string) {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/events`, { headers: { cookie, accept: 'text/event-stream' }, signal: controller.signal });
  if (response.status !== 200 || !response.body) throw new Error(`events: ${response.status}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  return {
    async next(type: RegExp, timeoutMs = 5000): Promise<string> {
      const timer = setTimeout(() => controller.abort(), timeoutMs);
      try {
        for (;;) {
          const match = /event: (\S+)\n/.exec(buffered);
          if (match) {
            buffered = buffered.slice(match.index + match[0].length);
            if (type.test(match[1]!)) return match[1]!;
            continue;
          }
          const { value, done } = await reader.read();
          if (done) throw new Error('stream ended');
          buffered += decoder.decode(value, { stream: true });
        }
      } catch {
        throw new Error(`no ${type} event within ${timeoutMs} ms`);
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => controller.abort(),
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function main(): Promise<void> {
  const postgres = await startPostgres({ durable: true });
  const servers: RunningServer[] = [];
  const dirs: string[] = [];
  let nginx: { url: string; stop: () => void } | undefined;
  const failures: string[] = [];
  try {
    const env = (dir: string) => ({
      DATABASE_URL: postgres.url,
      DATA_DIR: dir,
      DEMO: 'off',
      API_RATE_LIMIT: '0',
      TRUST_PROXY: 'on',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    });
    for (let n = 0; n < 2; n++) dirs.push(fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-instance-')));
    servers.push(...(await Promise.all(dirs.map((dir) => startServer(env(dir), 120_000)))));
    nginx = await startNginx(servers.map((server) => server.url));
    console.log(`PostgreSQL ${postgres.url}; instâncias ${servers.map((server) => server.url).join(' e ')}; nginx ${nginx.url}`);

    const people = await populate(nginx.url, STUDENTS, 8_000_000);
    const result = await bank(nginx.url, people);
    const sorted = [...result.latencies].sort((a, b) => a - b);
    console.log(
      `Transferências pelo proxy: ${result.transfers} em ${result.seconds.toFixed(1)} s (${Math.round(result.transfers / result.seconds)}/s), ` +
        `${result.refused} recusadas, ${result.errors} erros; p50 ${percentile(sorted, 50).toFixed(1)} ms, ` +
        `p95 ${percentile(sorted, 95).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`,
    );
    if (result.errors > 0) failures.push(`${result.errors} transferências com erro`);

    const database = await openPostgres(postgres.url, { max: 2 });
    try {
      const discrepancies = await reconcile(database.db);
      const total = await totalBalances(database.db);
      console.log(`Invariantes: ${discrepancies.length} divergências; total de Méritus ${total.meritus} (esperado ${STUDENTS * INITIAL})`);
      if (discrepancies.length > 0 || total.meritus !== STUDENTS * INITIAL) failures.push('invariantes do razão violados');
    } finally {
      await database.close();
    }

    // Live events: the recipient's streams on both instances hear a transfer made on either.
    const [sender, recipient] = people;
    const streams = await Promise.all(servers.map((server) => openStream(server.url, recipient!.cookie)));
    await Promise.all(streams.map((stream) => stream.next(/^ready$/)));
    for (const [index, server] of servers.entries()) {
      const started = performance.now();
      const sent = await post(
        `${server.url}/api/meritus/transfers`,
        sender!.cookie,
        { recipientId: recipient!.id, amount: 1 },
        { 'idempotency-key': randomUUID() },
      );
      if (sent.status !== 201) failures.push(`transferência na instância ${index + 1}: ${sent.status}`);
      try {
        await Promise.all(streams.map((stream) => stream.next(/^balance$/)));
        console.log(
          `Evento de uma transferência na instância ${index + 1} chegou às duas em ${(performance.now() - started).toFixed(0)} ms`,
        );
      } catch (error) {
        failures.push(`evento da instância ${index + 1}: ${(error as Error).message}`);
      }
    }
    for (const stream of streams) stream.close();

    // A logout on one instance ends the session on the other.
    const cookie = cookieOf(
      await post(`${servers[0]!.url}/api/auth/student/login`, undefined, { studentId: people[2]!.studentId, password: 'bench-aluno-1' }),
    );
    const before = (await fetch(`${servers[1]!.url}/api/auth/me`, { headers: { cookie } })).status;
    const logout = (await fetch(`${servers[0]!.url}/api/auth/logout`, { method: 'POST', headers: { cookie } })).status;
    const after = (await fetch(`${servers[1]!.url}/api/auth/me`, { headers: { cookie } })).status;
    console.log(`Sessão na instância 2: ${before} antes do logout na instância 1 (${logout}), ${after} depois`);
    if (before !== 200 || logout !== 204 || after !== 401) failures.push('logout numa instância não encerrou a sessão na outra');
  } finally {
    nginx?.stop();
    await Promise.all(servers.map((server) => server.stop()));
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    await postgres.stop();
  }
  if (failures.length > 0) {
    console.error(`\nFALHOU:\n  ${failures.join('\n  ')}`);
    process.exit(1);
  }
  console.log('\nTudo certo: invariantes, eventos nas duas instâncias e logout compartilhado.');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
