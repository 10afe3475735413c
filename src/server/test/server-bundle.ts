import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    serverBundle: string;
  }
}

const root = path.resolve(import.meta.dirname, '../../..');

/** The server's programs, bundled by their path under src/server without '.ts' (main → main.js). */
const ENTRY_POINTS = ['main', 'cli/backup', 'cli/restore', 'cli/admin-create'];

/** A folder for a bundle: inside node_modules, where the bundle's imports of packages resolve. */
export function bundleFolder(name: string): string {
  return path.join(root, 'node_modules', '.cache', `meritus-server-${name}`);
}

/**
 * Bundles the server's programs into `outdir` (see bundleFolder) for the tests that start them as child
 * processes: `node OUTDIR/main.js` starts on about half the CPU of `node --import tsx
 * src/server/main.ts`, which resolves and transpiles hundreds of files at every start.
 * Each source file keeps its own import.meta.url, since the server finds its migrations and SQL
 * files next to its sources.
 */
export async function buildServerBundle(outdir: string): Promise<void> {
  await esbuild.build({
    entryPoints: Object.fromEntries(ENTRY_POINTS.map((entry) => [entry, path.join(root, 'src/server', `${entry}.ts`)])),
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
    plugins: [
      {
        name: 'own-import-meta-url',
        setup(build) {
          build.onLoad({ filter: /\.ts$/ }, (args) => ({
            contents: fs.readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
            loader: 'ts',
          }));
        },
      },
    ],
  });
}

/** Vitest global setup of the API projects: one bundle for the run, removed at its end. */
export default async function setup(project: TestProject): Promise<() => void> {
  const outdir = bundleFolder(`${project.name}-${process.pid}`);
  await buildServerBundle(outdir);
  project.provide('serverBundle', outdir);
  return () => fs.rmSync(outdir, { recursive: true, force: true });
}

// `node --import tsx src/server/test/server-bundle.ts NAME` builds into bundleFolder(NAME), for playwright.config.ts's webServer.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildServerBundle(bundleFolder(process.argv[2] ?? 'cli'));
}
