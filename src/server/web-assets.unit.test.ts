import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { pruneRetiredAssets, RETIRED_ASSET_KEEP_MS, RETIRED_ASSETS_FILE, webBuildOf } from './web-assets.ts';

let dist: string;
const HOUR = 60 * 60 * 1000;

beforeEach(() => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-assets-'));
  fs.mkdirSync(path.join(dist, 'assets'));
});
afterEach(() => fs.rmSync(dist, { recursive: true, force: true }));

/** Writes a build's files (each with its .br and .gz copies) over dist/, as `vite build` does without emptying it. */
function build(names: string[], at: number): void {
  for (const name of names) for (const suffix of ['', '.br', '.gz']) fs.writeFileSync(path.join(dist, 'assets', name + suffix), name);
  pruneRetiredAssets(dist, new Set(['index.html', ...names.map((name) => `assets/${name}`)]), at);
}

const onDisk = () => fs.readdirSync(path.join(dist, 'assets')).sort();

test("an upgrade keeps the earlier build's files while a tab may still run it, and deletes them once retired for longer", () => {
  const start = Date.UTC(2026, 10, 2, 12);
  build(['index-a.js', 'ranking-a.js', 'shared.css'], start);
  // The upgrade a day later: the entry and the ranking changed, the CSS did not.
  build(['index-b.js', 'ranking-b.js', 'shared.css'], start + 24 * HOUR);
  expect(onDisk()).toEqual(
    ['index-a.js', 'index-b.js', 'ranking-a.js', 'ranking-b.js', 'shared.css'].flatMap((name) => [name, `${name}.br`, `${name}.gz`]).sort(),
  );
  // A rebuild within the retention counts from the upgrade, not from when the old files were written.
  build(['index-b.js', 'ranking-b.js', 'shared.css'], start + 24 * HOUR + RETIRED_ASSET_KEEP_MS);
  expect(onDisk()).toContain('index-a.js.br');
  build(['index-b.js', 'ranking-b.js', 'shared.css'], start + 24 * HOUR + RETIRED_ASSET_KEEP_MS + 1);
  expect(onDisk()).toEqual(['index-b.js', 'ranking-b.js', 'shared.css'].flatMap((name) => [name, `${name}.br`, `${name}.gz`]).sort());
  expect(JSON.parse(fs.readFileSync(path.join(dist, RETIRED_ASSETS_FILE), 'utf8'))).toEqual({});
});

test('a file that comes back in a later build is current again, and retires anew when it leaves', () => {
  const start = Date.UTC(2026, 10, 2, 12);
  build(['index-a.js'], start);
  build(['index-b.js'], start + HOUR);
  build(['index-a.js'], start + 2 * HOUR);
  // Past the retention counted from index-a.js's first retirement: it left again only now, so it stays.
  build(['index-b.js'], start + HOUR + RETIRED_ASSET_KEEP_MS + 1);
  expect(onDisk().filter((name) => name.endsWith('.js'))).toEqual(['index-a.js', 'index-b.js']);
});

test("a build is named by its page, so any change of a chunk's name names another build", () => {
  const page = '<script type="module" src="/assets/index-AbC123.js"></script>';
  expect(webBuildOf(page)).toMatch(/^[0-9a-f]{16}$/);
  expect(webBuildOf(page)).toBe(webBuildOf(page));
  expect(webBuildOf(page.replace('AbC123', 'AbC124'))).not.toBe(webBuildOf(page));
});
