import fs from 'node:fs/promises';
import path from 'node:path';

/** Where the server keeps files; the local folder is the default, an S3-compatible store can implement the same. */
export interface FileStorage {
  /** Stores `data` under `key` (e.g. "students/<id>/<name>.webp") and returns the address it is served at. */
  put(key: string, data: Buffer): Promise<string>;
  /** Deletes a file this storage served; addresses it did not produce are ignored. */
  remove(address: string): Promise<void>;
  /** True when the address points at a file this storage keeps. */
  owns(address: string): boolean;
}

const PUBLIC_PREFIX = '/uploads/';
const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9/_.-]*$/;

/** Files under `root`, served by the static handler at /uploads/. */
export function localFileStorage(root: string): FileStorage {
  const resolved = path.resolve(root);

  function fileFor(key: string): string {
    if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`unsafe storage key: ${key}`);
    const file = path.resolve(resolved, key);
    if (!file.startsWith(resolved + path.sep)) throw new Error(`storage key escapes the root: ${key}`);
    return file;
  }

  function keyOf(address: string): string | null {
    const withoutQuery = address.split('?')[0]!;
    if (!withoutQuery.startsWith(PUBLIC_PREFIX)) return null;
    const key = withoutQuery.slice(PUBLIC_PREFIX.length);
    return SAFE_KEY.test(key) && !key.includes('..') ? key : null;
  }

  return {
    async put(key, data) {
      const file = fileFor(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Written beside and renamed, so a reader never sees half a file.
      const partial = `${file}.${process.pid}.partial`;
      await fs.writeFile(partial, data);
      await fs.rename(partial, file);
      return `${PUBLIC_PREFIX}${key}`;
    },
    async remove(address) {
      const key = keyOf(address);
      if (key) await fs.rm(fileFor(key), { force: true });
    },
    owns(address) {
      return keyOf(address) !== null;
    },
  };
}
