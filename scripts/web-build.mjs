import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');

/** Everything the front-end bundle is built from. */
const SOURCES = ['src/web', 'src/shared', 'index.html', 'vite.config.ts', 'public'];

function newestMtime(entry) {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

/** Why dist/ must be rebuilt, or null when it is up to date. */
export function staleReason() {
  const index = path.join(root, 'dist', 'index.html');
  if (!fs.existsSync(index)) return 'dist/index.html não existe';
  const built = fs.statSync(index).mtimeMs;
  const changed = SOURCES.find((source) => newestMtime(path.join(root, source)) > built);
  return changed ? `${changed} mudou depois do último build` : null;
}

/**
 * Runs `vite build` (with any extra arguments for it) when dist/ is missing or older than its
 * sources; exits the process if the build fails.
 */
export function ensureWebBuild(viteArgs = []) {
  const reason = staleReason();
  if (!reason) return;
  console.log(`Gerando o front end (${reason})…`);
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  // Always React's production code, whatever NODE_ENV the caller runs with (the browser tests' server runs as 'test'),
  // since `npm start` later serves this same dist/.
  const env = { ...process.env, NODE_ENV: 'production' };
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn', ...viteArgs], { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) {
    console.error('O build do front end falhou (vite build).');
    process.exit(result.status ?? 1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) ensureWebBuild(process.argv.slice(2));
