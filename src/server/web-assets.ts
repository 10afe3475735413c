import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** A build of the front end, named by its index.html (which names its entry chunk, whose name changes with any chunk's). */
export function webBuildOf(indexHtml: string): string {
  return createHash('sha256').update(indexHtml).digest('hex').slice(0, 16);
}

/**
 * How long a hashed file of an earlier build stays in dist/assets after a build that no longer has it: longer than a
 * session lives (12 h), so a tab open across an upgrade keeps opening screens with its own code; a tab older than that
 * reloads to the new build when it needs a file that is gone (web/lib/build-version.ts).
 */
export const RETIRED_ASSET_KEEP_MS = 48 * 60 * 60 * 1000;

/** In dist/, when each file of an earlier build left the current one (not served: app.ts serves only what the build wrote). */
export const RETIRED_ASSETS_FILE = 'retired-assets.json';

/**
 * After a build into `outDir` (written over the previous one, not emptied): the files of assets/ the build did not write
 * are noted as retired now, and those retired more than RETIRED_ASSET_KEEP_MS ago are deleted. `current` holds the
 * build's files (assets/…); a file's .br and .gz copies go with it.
 */
export function pruneRetiredAssets(outDir: string, current: ReadonlySet<string>, now = Date.now()): void {
  const recordPath = path.join(outDir, RETIRED_ASSETS_FILE);
  let retired: Record<string, number> = {};
  try {
    retired = JSON.parse(fs.readFileSync(recordPath, 'utf8')) as Record<string, number>;
  } catch {
    // No record yet (the first build over this folder): every file not in the build retires now.
  }
  const kept: Record<string, number> = {};
  const assets = path.join(outDir, 'assets');
  for (const name of fs.existsSync(assets) ? fs.readdirSync(assets) : []) {
    const file = `assets/${name}`;
    const original = file.replace(/\.(?:br|gz)$/, '');
    if (current.has(original)) continue;
    const since = retired[original] ?? now;
    if (now - since > RETIRED_ASSET_KEEP_MS) fs.rmSync(path.join(outDir, file), { force: true });
    else kept[original] = since;
  }
  fs.writeFileSync(recordPath, `${JSON.stringify(kept, null, 1)}\n`);
}
