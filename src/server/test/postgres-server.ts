import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const BIN_DIRS = ['/usr/local/bin', '/usr/lib/postgresql/15/bin'];
const PG_USER = 'pgtest';

function findBinary(name: string): string {
  for (const dir of BIN_DIRS) {
    const candidate = path.join(dir, name);
    if (fs.existsSync(candidate)) return candidate;
  }
  throw new Error(
    `PostgreSQL 15 não encontrado (${name}). Instale com "apt-get install -y postgresql-15" ` + 'ou coloque os binários em /usr/local/bin.',
  );
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** PostgreSQL refuses to run as root: run it as an unprivileged user created once. */
function asUser(command: string): void {
  const isRoot = process.getuid?.() === 0;
  const result = isRoot
    ? spawnSync('su', [PG_USER, '-c', command], { encoding: 'utf8' })
    : spawnSync('sh', ['-c', command], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command}\n${result.stdout}\n${result.stderr}`);
}

export type PostgresServer = {
  url: string;
  port: number;
  dir: string;
  /** Stops the server and starts it again on the same port and data after `downMs`: a restart under a running app. */
  restart: (downMs?: number) => Promise<void>;
  /** Stops the server, keeping its port and data, until `up`: a database down under a running app. */
  down: () => Promise<void>;
  /** Starts a server stopped by `down` again. */
  up: () => Promise<void>;
  stop: () => Promise<void>;
};

/**
 * Starts a throw-away PostgreSQL 15 in a temporary folder on a free port. Tests trade
 * durability for speed; benchmarks keep the server's defaults (`durable`).
 */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<PostgresServer> {
  const initdb = findBinary('initdb');
  const pgCtl = findBinary('pg_ctl');
  if (process.getuid?.() === 0) {
    const exists = spawnSync('id', [PG_USER]).status === 0;
    if (!exists) execFileSync('useradd', ['-m', PG_USER]);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-pg-'));
  if (process.getuid?.() === 0) execFileSync('chown', [PG_USER, dir]);
  const dataDir = path.join(dir, 'data');
  const port = await freePort();
  // --no-sync: a throw-away cluster need not wait for initdb's files to reach the disk.
  asUser(`${initdb} -D ${dataDir} -U postgres --auth=trust -E UTF8 --no-locale --no-sync > ${dir}/initdb.log 2>&1`);
  const start = () =>
    asUser(
      `${pgCtl} -D ${dataDir} -l ${dir}/server.log -o "-p ${port} -k /tmp -c listen_addresses=127.0.0.1 -c max_connections=300${
        options.durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off'
      }" -w start`,
    );
  start();
  const halt = () => asUser(`${pgCtl} -D ${dataDir} -m fast -w stop`);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    restart: async (downMs = 0) => {
      halt();
      await new Promise((resolve) => setTimeout(resolve, downMs));
      start();
    },
    down: async () => halt(),
    up: async () => start(),
    stop: async () => {
      try {
        halt();
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
