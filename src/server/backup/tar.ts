import type { Writable } from 'node:stream';

/**
 * The few parts of the tar format (POSIX ustar) a backup needs: regular files only, names
 * up to 255 bytes (prefix + name), sizes below 8 GiB. Small enough to own rather than add a
 * dependency; any tar tool (tar -tzf) reads what this writes.
 */
const BLOCK = 512;

export class TarFormatError extends Error {}

/** Splits a path into ustar's prefix (155 bytes) and name (100 bytes) at a slash. */
function splitName(name: string): { prefix: string; name: string } {
  if (Buffer.byteLength(name) <= 100) return { prefix: '', name };
  for (let cut = name.lastIndexOf('/'); cut > 0; cut = name.lastIndexOf('/', cut - 1)) {
    const prefix = name.slice(0, cut);
    const rest = name.slice(cut + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(rest) <= 100) return { prefix, name: rest };
  }
  throw new TarFormatError(`nome longo demais para o arquivo tar: ${name}`);
}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

export function tarHeader(name: string, size: number, mtime: Date = new Date()): Buffer {
  const header = Buffer.alloc(BLOCK);
  const parts = splitName(name);
  header.write(parts.name, 0, 100);
  header.write(octal(0o644, 8), 100);
  header.write(octal(0, 8), 108);
  header.write(octal(0, 8), 116);
  header.write(octal(size, 12), 124);
  header.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136);
  header.write('        ', 148); // the checksum is computed with its own field as spaces
  header.write('0', 156);
  header.write('ustar\u000000', 257);
  header.write(parts.prefix, 345, 155);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(octal(sum, 7) + ' ', 148);
  return header;
}

export function tarPadding(size: number): Buffer {
  return Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);
}

/** Two zero blocks end an archive. */
export const TAR_END = Buffer.alloc(BLOCK * 2);

/** Writes to a stream, waiting when it asks to (so a large entry never piles up in memory). */
export async function writeChunk(out: Writable, chunk: Buffer): Promise<void> {
  if (!out.write(chunk))
    await new Promise<void>((resolve, reject) => {
      const onDrain = () => {
        out.off('error', onError);
        resolve();
      };
      const onError = (error: Error) => {
        out.off('drain', onDrain);
        reject(error);
      };
      out.once('drain', onDrain);
      out.once('error', onError);
    });
}

/** Reads exact byte counts from a stream of chunks; fails with `truncated` when it ends early. */
class ByteReader {
  private buffered: Buffer[] = [];
  private length = 0;
  constructor(
    private readonly source: AsyncIterator<Buffer>,
    private readonly truncated: () => Error,
  ) {}

  private async fill(count: number): Promise<boolean> {
    while (this.length < count) {
      const next = await this.source.next();
      if (next.done) return false;
      this.buffered.push(next.value);
      this.length += next.value.length;
    }
    return true;
  }

  private take(count: number): Buffer {
    const all = this.buffered.length === 1 ? this.buffered[0]! : Buffer.concat(this.buffered);
    this.buffered = count < all.length ? [all.subarray(count)] : [];
    this.length = all.length - count;
    return all.subarray(0, count);
  }

  async read(count: number): Promise<Buffer> {
    if (!(await this.fill(count))) throw this.truncated();
    return this.take(count);
  }

  /** Reads the source to its end, so that a check made there (gzip's checksum) runs. */
  async drain(): Promise<void> {
    while (!(await this.source.next()).done);
  }

  /** The next `count` bytes in pieces as they arrive. */
  async *pieces(count: number): AsyncGenerator<Buffer> {
    let left = count;
    while (left > 0) {
      if (this.length === 0 && !(await this.fill(1))) throw this.truncated();
      const piece = this.take(Math.min(left, this.length));
      left -= piece.length;
      yield piece;
    }
  }
}

export type TarEntry = { name: string; size: number; body: AsyncGenerator<Buffer> };

/**
 * The entries of a tar stream, in order. An entry's body is either read to its end or not
 * started (then skipped) before the next entry is asked for. Ends at the two zero blocks; a
 * stream ending before them is `truncated`.
 */
export async function* readTar(source: AsyncIterable<Buffer>, truncated: () => Error): AsyncGenerator<TarEntry> {
  const reader = new ByteReader(source[Symbol.asyncIterator](), truncated);
  for (;;) {
    const header = await reader.read(BLOCK);
    if (header.every((byte) => byte === 0)) {
      await reader.drain();
      return;
    }
    let sum = 0;
    for (let index = 0; index < BLOCK; index++) sum += index >= 148 && index < 156 ? 32 : header[index]!;
    if (sum !== parseInt(header.toString('latin1', 148, 156).replace(/\0.*$/, '').trim(), 8)) {
      throw new TarFormatError('cabeçalho tar inválido');
    }
    const field = (start: number, end: number) => header.toString('utf8', start, end).replace(/\0.*$/s, '');
    const prefix = field(345, 500);
    const name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
    const size = parseInt(field(124, 136).trim(), 8);
    if (!Number.isSafeInteger(size)) throw new TarFormatError(`tamanho inválido no cabeçalho de ${name}`);
    const body = reader.pieces(size);
    yield { name, size, body };
    // An entry the consumer did not read is skipped, and so is the padding.
    for await (const piece of body) void piece;
    await reader.read(tarPadding(size).length);
  }
}
