import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const apiPort = process.env.API_PORT ?? '3000';
const vitePort = process.env.VITE_PORT ?? '5173';

/** The API restarts on every server change; Vite hot-reloads the front end and proxies /api to it. */
const processes = [
  spawn(process.execPath, ['--watch', '--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PORT: apiPort, ALLOWED_ORIGINS: `http://localhost:${vitePort}` },
  }),
  spawn(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js')], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, API_PORT: apiPort, VITE_PORT: vitePort },
  }),
];

let stopping = false;
function stopAll(signal, code) {
  if (!stopping) {
    stopping = true;
    process.exitCode = code;
    for (const child of processes) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  }
}

for (const child of processes) {
  // When one of the two stops, the other has no purpose: stop it too.
  child.on('exit', (code) => {
    stopAll('SIGTERM', code ?? 1);
    if (processes.every((p) => p.exitCode !== null || p.signalCode !== null)) process.exit(process.exitCode ?? 0);
  });
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stopAll(signal, 0));
console.log(`Desenvolvimento: abra http://localhost:${vitePort} (API em http://localhost:${apiPort})`);
