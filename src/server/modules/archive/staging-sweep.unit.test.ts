import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { stageUpload } from './archive-files.ts';
import { STAGING_MAX_AGE_MS, sweepPartialWrites, sweepStaging } from './staging-sweep.ts';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-staging-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A staging file another process left (its name has another mark), last written `ageMs` ago. */
function leftover(name: string, ageMs: number, bytes = 1024): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, Buffer.alloc(bytes));
  const when = new Date(Date.now() - ageMs);
  fs.utimesSync(file, when, when);
  return name;
}

const remaining = () => fs.readdirSync(dir).sort();

describe('the staging sweep', () => {
  test("a folder that is this process's alone: every other process's file goes, however recent; this process's own stay", async () => {
    const own = path.basename((await stageUpload(Readable.from([Buffer.from('em uso')]), dir, () => false)).path);
    const ownStripped = `${own}.stripped`;
    fs.writeFileSync(path.join(dir, ownStripped), 'em uso');
    leftover('0a1b2c3d4e5f-9f8e7d6c5b4a39281706a5b4.upload', 1000, 10 * 1024 * 1024);
    leftover('9f8e7d6c5b4a39281706a5b4.stored', 60_000);
    expect(await sweepStaging(dir, true)).toEqual({ removed: 2, bytes: 10 * 1024 * 1024 + 1024 });
    expect(remaining()).toEqual([own, ownStripped].sort());
  });

  test('a folder other instances may share: only files older than any upload lasts go', async () => {
    const fresh = leftover('aaaaaaaaaaaa-fresh.upload', STAGING_MAX_AGE_MS - 60_000);
    leftover('bbbbbbbbbbbb-old.upload', STAGING_MAX_AGE_MS + 60_000);
    expect(await sweepStaging(dir, false)).toEqual({ removed: 1, bytes: 1024 });
    expect(remaining()).toEqual([fresh]);
  });

  test("the local storage's partial writes, anywhere under its root: all at start of a folder that is ours, else the old ones", async () => {
    fs.mkdirSync(path.join(dir, 'archive', 'k1'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'students', 's1'), { recursive: true });
    const stored = leftover(path.join('archive', 'k1', 'original'), STAGING_MAX_AGE_MS * 2);
    const fresh = leftover(path.join('archive', 'k1', 'original.a1b2c3d4e5f6.partial'), 60_000);
    leftover(path.join('students', 's1', 'f00d.webp.0a1b2c3d4e5f.partial'), STAGING_MAX_AGE_MS + 60_000);
    const all = () => fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    const names = () => all().map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
    expect(await sweepPartialWrites(dir, false)).toEqual({ removed: 1, bytes: 1024 });
    expect(names().sort()).toEqual([stored, fresh].sort());
    expect(await sweepPartialWrites(dir, true)).toEqual({ removed: 1, bytes: 1024 });
    expect(names()).toEqual([stored]);
  });

  test('no staging folder yet: nothing to do', async () => {
    expect(await sweepStaging(path.join(dir, 'ainda-nao-existe'), true)).toEqual({ removed: 0, bytes: 0 });
  });
});
