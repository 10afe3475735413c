import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** One stored object: its key ("archive/<key>/original", "students/<uuid>/<name>.webp"), size and last change. */
export type StoredObject = { key: string; size: number; modifiedAt: Date };

/** Bytes `start`…`end` (inclusive) of an object; the whole object when no range was asked. */
export type ByteRange = { start: number; end: number };
export type ObjectRead = { body: Readable; size: number; range: ByteRange | null };

/**
 * Where the server keeps files: a local folder (default) or an S3-compatible bucket
 * (several instances), chosen by the configuration (createFileStorage in storage.ts).
 * Keys are relative paths of safe characters; writes never leave half an object visible.
 */
export interface FileStorage {
  readonly driver: 'local' | 's3';
  /** Stores `data` under `key` (e.g. "students/<id>/<name>.webp") and returns the address it is served at (/uploads/<key>). */
  put(key: string, data: Buffer): Promise<string>;
  /** Streams `body` into `key` without holding it in memory. */
  write(key: string, body: Readable, contentType?: string): Promise<void>;
  /** The object (or a byte range of it, for video seeking), or null when there is none. */
  read(key: string, range?: ByteRange): Promise<ObjectRead | null>;
  stat(key: string): Promise<StoredObject | null>;
  /** Deletes an object; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Every object whose key starts with `prefix` (e.g. "archive/"), for integrity checks and backups. */
  list(prefix: string): Promise<StoredObject[]>;
  /** Deletes a file this storage served by its address (/uploads/<key>); addresses it did not produce are ignored. */
  remove(address: string): Promise<void>;
  /** True when the address points at a file this storage keeps. */
  owns(address: string): boolean;
}

export const PUBLIC_PREFIX = '/uploads/';
const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9/_.-]*$/;

export function isSafeKey(key: string): boolean {
  return SAFE_KEY.test(key) && !key.includes('..') && !key.includes('//') && key.length <= 512;
}

export function assertSafeKey(key: string): void {
  if (!isSafeKey(key)) throw new Error(`unsafe storage key: ${key}`);
}

/** The key of an /uploads/ address, or null. */
export function keyOfAddress(address: string): string | null {
  const withoutQuery = address.split('?')[0]!;
  if (!withoutQuery.startsWith(PUBLIC_PREFIX)) return null;
  const key = withoutQuery.slice(PUBLIC_PREFIX.length);
  return isSafeKey(key) ? key : null;
}

/** put/remove/owns for any driver, in terms of write/delete. */
export function addressMethods(storage: Pick<FileStorage, 'write' | 'delete'>): Pick<FileStorage, 'put' | 'remove' | 'owns'> {
  return {
    async put(key, data) {
      await storage.write(key, Readable.from([data]));
      return `${PUBLIC_PREFIX}${key}`;
    },
    async remove(address) {
      const key = keyOfAddress(address);
      if (key) await storage.delete(key);
    },
    owns(address) {
      return keyOfAddress(address) !== null;
    },
  };
}

const PARTIAL = '.partial';

/** Whether a file under a local root is a write still under way, or one a crash cut short: never listed or served. */
export const isPartialWrite = (name: string) => name.endsWith(PARTIAL);

/** Files under `root`; served at /uploads/<key> (storage-routes.ts). */
export function localFileStorage(root: string): FileStorage {
  const resolved = path.resolve(root);

  function fileFor(key: string): string {
    assertSafeKey(key);
    const file = path.resolve(resolved, key);
    if (!file.startsWith(resolved + path.sep)) throw new Error(`storage key escapes the root: ${key}`);
    return file;
  }

  async function walk(folder: string, found: StoredObject[]): Promise<void> {
    let entries;
    try {
      entries = await fs.readdir(path.join(resolved, folder), { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      const key = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(key, found);
      else if (entry.isFile() && !isPartialWrite(entry.name)) {
        const stat = await fs.stat(path.join(resolved, key));
        found.push({ key, size: stat.size, modifiedAt: stat.mtime });
      }
    }
  }

  const storage: Omit<FileStorage, 'put' | 'remove' | 'owns'> = {
    driver: 'local',
    async write(key, body) {
      const file = fileFor(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Written beside and renamed, so a reader never sees half a file.
      const partial = `${file}.${randomBytes(6).toString('hex')}${PARTIAL}`;
      try {
        await pipeline(body, createWriteStream(partial));
        await fs.rename(partial, file);
      } catch (error) {
        await fs.rm(partial, { force: true });
        throw error;
      }
    },
    async read(key, range) {
      const file = fileFor(key);
      let size: number;
      try {
        size = (await fs.stat(file)).size;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      const body = range ? createReadStream(file, { start: range.start, end: range.end }) : createReadStream(file);
      return { body, size, range: range ?? null };
    },
    async stat(key) {
      try {
        const stat = await fs.stat(fileFor(key));
        return { key, size: stat.size, modifiedAt: stat.mtime };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(key) {
      await fs.rm(fileFor(key), { force: true });
    },
    async list(prefix) {
      // Walks only the folder the prefix names; the rest of the prefix filters its entries.
      const folder = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
      if (folder) assertSafeKey(folder);
      const found: StoredObject[] = [];
      await walk(folder, found);
      return found.filter((object) => object.key.startsWith(prefix));
    },
  };
  return { ...storage, ...addressMethods(storage) };
}
