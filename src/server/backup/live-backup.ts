import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Config } from '../config.ts';
import { BackupError, writeBackup, type BackupSummary, type FileSource } from './archive.ts';
import type { SqlClient } from './sql-client.ts';

/**
 * PGlite serves one process, so a backup of a running embedded server is taken by that server:
 * the command asks over a Unix socket in DATA_DIR, the server writes the archive with its own
 * database handle (one read-only transaction, which PGlite runs alone, so transfers wait and
 * the copy is consistent) and answers with the summary. The socket is 0600: whoever may connect
 * may read DATA_DIR anyway.
 */
export const LIVE_BACKUP_SOCKET = 'backup.sock';

/** sun_path holds 108 bytes on Linux, the last one the terminating NUL. */
const MAX_SOCKET_PATH = 107;

export const liveBackupSocketPath = (dataDir: string) => path.join(dataDir, LIVE_BACKUP_SOCKET);

type Answer = { ok: true; summary: BackupSummary } | { ok: false; message: string };

/** The files a backup of this configuration carries: the local folder, or a note that a bucket is copied with its provider's tool. */
export function fileSourceOf(config: Config): FileSource {
  return config.storage.driver === 's3'
    ? {
        kind: 'object-storage',
        note:
          `os arquivos estão no bucket S3 "${config.storage.s3.bucket}": copie-o com a ferramenta do provedor ` +
          '(por exemplo, rclone sync ou aws s3 sync) junto com esta cópia.',
      }
    : { kind: 'local', root: config.uploadsDir };
}

/** Reads one newline-terminated JSON message from the socket. */
function readLine(socket: net.Socket): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let text = '';
    // Decoded by the socket, so a character split between two reads stays whole.
    socket.setEncoding('utf8');
    const onData = (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end < 0) return;
      socket.off('data', onData);
      try {
        resolve(JSON.parse(text.slice(0, end)));
      } catch (error) {
        reject(error as Error);
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.once('end', () => reject(new BackupError('O servidor encerrou a conexão antes de responder ao pedido de cópia.')));
  });
}

type Log = { info(object: object, message: string): void; error(object: object, message: string): void };

/**
 * Listens on DATA_DIR/backup.sock (replacing one a crashed server left; the data folder's lock
 * says no other server owns it). Returns a function that stops listening and removes the socket,
 * after a backup under way has finished.
 */
export async function serveLiveBackups(dataDir: string, client: SqlClient, files: FileSource, log: Log): Promise<() => Promise<void>> {
  const socketPath = liveBackupSocketPath(dataDir);
  fs.rmSync(socketPath, { force: true });
  const server = net.createServer((socket) => {
    // A command that went away (Ctrl+C) only loses its answer; the archive is still written whole or not at all.
    socket.on('error', () => {});
    void (async () => {
      let answer: Answer;
      try {
        const request = (await readLine(socket)) as { target?: unknown };
        const target = request.target;
        if (typeof target !== 'string' || !path.isAbsolute(target))
          throw new BackupError('Pedido de cópia inválido: falta o caminho absoluto do arquivo.');
        if (fs.existsSync(target))
          throw new BackupError(`${target} já existe: escolha outro nome (por exemplo, com a data) ou apague-o antes.`);
        const summary = await writeBackup(client, target, files);
        log.info(
          { file: target, bytes: summary.archiveBytes, ms: Math.round(summary.ms) },
          'cópia de segurança gravada a pedido de npm run backup',
        );
        answer = { ok: true, summary };
      } catch (error) {
        if (!(error instanceof BackupError)) log.error({ err: error }, 'falha na cópia de segurança pedida por npm run backup');
        answer = {
          ok: false,
          message: error instanceof BackupError ? error.message : `A cópia falhou no servidor: ${(error as Error).message}`,
        };
      }
      socket.end(`${JSON.stringify(answer)}\n`);
    })();
  });
  // Created 0600 from the start (not chmod-ed after), so no other user can connect in between.
  const umask = process.umask(0o177);
  try {
    // Linux cuts a longer path short silently, which would put the socket outside DATA_DIR.
    if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) throw new Error(`o caminho ${socketPath} passa de ${MAX_SOCKET_PATH} bytes`);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
  } catch (error) {
    // The school keeps running (a path over the socket length limit, a folder that refuses sockets); the command then says no server answered.
    log.error({ err: error, socket: socketPath }, 'sem o socket de cópia: npm run backup precisará do servidor parado');
    return async () => {};
  } finally {
    process.umask(umask);
  }
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    fs.rmSync(socketPath, { force: true });
  };
}

/**
 * Asks the server running on `dataDir` to write a backup to `target` (an absolute path).
 * Resolves null when no server answers on the socket (none running, one still starting, or an
 * older release without it).
 */
export async function requestLiveBackup(dataDir: string, target: string): Promise<BackupSummary | null> {
  const socket = net.createConnection(liveBackupSocketPath(dataDir));
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ECONNREFUSED') return null;
    throw error;
  }
  try {
    const reply = readLine(socket);
    socket.write(`${JSON.stringify({ target })}\n`);
    const answer = (await reply) as Answer;
    if (!answer.ok) throw new BackupError(answer.message);
    return answer.summary;
  } finally {
    socket.destroy();
  }
}
