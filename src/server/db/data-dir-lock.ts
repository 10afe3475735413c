import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * PGlite is a single-process database: a second process on the same data folder would corrupt
 * it. Whoever opens the folder (the server, `admin:create`, `backup`, `restore`) first takes this
 * lock, held by the kernel for as long as the process lives (decision 020):
 *
 * - Linux: a Unix socket bound in the abstract namespace, under a name made from the folder's
 *   device and inode and a random key kept in the folder. Only one socket can be bound to a
 *   name; the kernel unbinds it when the process exits, however it exits (kill -9 included). No
 *   file is left to go stale, and none can be removed by another process to steal the lock.
 * - macOS and the BSDs: flock(2) on DATA_DIR/server.flock, taken as the file is opened (O_EXLOCK),
 *   released by the kernel when the process exits.
 */

export class DatabaseLockedError extends Error {}

/** Kept in the folder: without reading it, another user cannot know (and squat) the lock's name. */
const LOCK_KEY = 'lock.key';
/** The flock file on macOS and the BSDs. */
const FLOCK_FILE = 'server.flock';
/** Where releases before decision 020 wrote the PID of the server holding the folder. */
const LEGACY_LOCK = 'server.lock';
/** <fcntl.h> on macOS and the BSDs: open with an exclusive flock(2); Node does not name it. */
const O_EXLOCK = 0x20;
const FLOCK_PLATFORMS = new Set<NodeJS.Platform>(['darwin', 'freebsd', 'openbsd', 'netbsd']);
/** How long a refused process waits for the holder to say its PID (only for the message; a starting server may be busy for seconds). */
const OWNER_REPLY_MS = 3000;
/** How soon a refused connection to the holder is tried again. */
const OWNER_RETRY_MS = 10;

const inUse = (dataDir: string, pid: number | null) =>
  new DatabaseLockedError(
    `O banco de dados em ${dataDir} já está em uso por outro servidor${pid ? ` (PID ${pid})` : ''}. ` +
      'Encerre-o antes de iniciar outro, ou use DATA_DIR para outra pasta ou DATABASE_URL para um PostgreSQL.',
  );

/** The folder's key, created once by whichever process comes first (linked into place whole, so all read the same). */
function folderKey(dataDir: string): string {
  const file = path.join(dataDir, LOCK_KEY);
  if (!fs.existsSync(file)) {
    const draft = `${file}.${randomBytes(6).toString('hex')}`;
    fs.writeFileSync(draft, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    try {
      fs.linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(draft, { force: true });
    }
  }
  return fs.readFileSync(file, 'utf8').trim();
}

/** The same folder by any path (a symbolic link, a bind mount) has the same name. */
export function lockName(dataDir: string): string {
  const { dev, ino } = fs.statSync(dataDir, { bigint: true });
  const digest = createHash('sha256')
    .update(`${dev}:${ino}:${folderKey(dataDir)}`)
    .digest('hex');
  return `\0meritus-data-${digest.slice(0, 40)}`;
}

/** The PID the holder answers with, or null when it does not answer in time. */
function ownerOf(name: string): Promise<number | null> {
  const deadline = Date.now() + OWNER_REPLY_MS;
  return new Promise((resolve) => {
    const ask = () => {
      const socket = net.createConnection(name);
      let text = '';
      const done = (pid: number | null) => {
        socket.destroy();
        resolve(pid);
      };
      socket.setEncoding('utf8');
      socket.setTimeout(Math.max(deadline - Date.now(), 1), () => done(null));
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('end', () => done(Number.parseInt(text, 10) || null));
      socket.on('error', (error: NodeJS.ErrnoException) => {
        // A holder that has bound the name but not yet listens refuses the connection for an instant: ask again.
        if (error.code === 'ECONNREFUSED' && Date.now() + OWNER_RETRY_MS < deadline) {
          socket.destroy();
          setTimeout(ask, OWNER_RETRY_MS);
        } else done(null);
      });
    };
    ask();
  });
}

async function socketLock(dataDir: string): Promise<() => Promise<void>> {
  const name = lockName(dataDir);
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    socket.end(`${process.pid}\n`);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(name, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    throw inUse(dataDir, await ownerOf(name));
  }
  // The lock alone never keeps a command running.
  server.unref();
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

function flockLock(dataDir: string): () => Promise<void> {
  const file = path.join(dataDir, FLOCK_FILE);
  const { O_RDWR, O_CREAT, O_NONBLOCK } = fs.constants;
  let fd: number;
  try {
    fd = fs.openSync(file, O_RDWR | O_CREAT | O_NONBLOCK | O_EXLOCK, 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EAGAIN' && code !== 'EWOULDBLOCK') throw error;
    throw inUse(dataDir, Number.parseInt(fs.readFileSync(file, 'utf8'), 10) || null);
  }
  fs.ftruncateSync(fd);
  fs.writeSync(fd, `${process.pid}\n`);
  return async () => fs.closeSync(fd);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A server of a release before this lock may still run on the folder (an upgrade started before
 * stopping it): its PID file is honoured while that PID lives, and removed once it does not.
 */
function checkLegacyLock(dataDir: string): void {
  const file = path.join(dataDir, LEGACY_LOCK);
  let pid: number;
  try {
    pid = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (pid && pid !== process.pid && isAlive(pid)) {
    throw new DatabaseLockedError(
      `O banco de dados em ${dataDir} pode estar em uso por um servidor de versão anterior (PID ${pid}, em ${file}). ` +
        `Encerre-o antes de iniciar este; se o PID ${pid} não for um servidor Méritus, apague ${file}.`,
    );
  }
  fs.rmSync(file, { force: true });
}

/**
 * Takes the data folder's lock, or throws DatabaseLockedError (pt-BR, naming the holder's PID
 * when it says it). Resolves with the function that releases it; releasing twice does nothing.
 */
export async function acquireDataDirLock(dataDir: string): Promise<() => Promise<void>> {
  fs.mkdirSync(dataDir, { recursive: true });
  let release: () => Promise<void>;
  if (process.platform === 'linux') release = await socketLock(dataDir);
  else if (FLOCK_PLATFORMS.has(process.platform)) release = flockLock(dataDir);
  else {
    throw new DatabaseLockedError(
      `O banco embutido não tem como garantir um só processo em ${dataDir} neste sistema (${process.platform}): ` +
        'use DATABASE_URL para um PostgreSQL.',
    );
  }
  try {
    checkLegacyLock(dataDir);
  } catch (error) {
    await release();
    throw error;
  }
  let released: Promise<void> | undefined;
  return () => (released ??= release());
}
