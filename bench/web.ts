/**
 * npm run bench:web — the web's first load as a phone sees it.
 *
 * Builds the front end, starts the server on a fresh demo school (like playwright.config.ts),
 * signs in through the API for the signed-in pages and runs Lighthouse (mobile preset,
 * simulated slow 4G and a 4× slower CPU) with Debian's Chromium RUNS times per page. Prints
 * the median scores, FCP, LCP, TBT, CLS and the JavaScript each page loaded, gzipped (level 9,
 * as `vite build` reports it) and as served. Targets (issue 14): performance ≥ 95 and
 * accessibility 100. BENCH_PORT (default 3314) and RUNS (default 3) change the defaults;
 * PAGES=/admin,/student measures only those pages, and KEEP_REPORTS=folder keeps Lighthouse's
 * JSON reports there (open them at https://googlechrome.github.io/lighthouse/viewer/).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync, constants as zlib } from 'node:zlib';
import { CHROME_FLAGS, CHROMIUM } from '../src/server/test/chromium.ts';
import { buildWeb, sessionCookie, startServer, stopServer, type SignIn } from './production-server.ts';

const root = path.resolve(import.meta.dirname, '..');
const PORT = Number(process.env.BENCH_PORT ?? 3314);
const RUNS = Number(process.env.RUNS ?? 3);
const BASE = `http://127.0.0.1:${PORT}`;
const TARGET = { performance: 95, accessibility: 100 };

type Page = { path: string; login?: SignIn };
const ALL_PAGES: Page[] = [
  { path: '/login' },
  { path: '/student', login: { url: '/api/auth/student/login', body: { studentId: '2024001', password: 'aluno123' } } },
  { path: '/admin', login: { url: '/api/auth/admin/login', body: { email: 'admin@escola.com', password: 'admin123' } } },
];
const PAGES = (process.env.PAGES?.split(',') ?? ALL_PAGES.map((page) => page.path)).map((asked) => {
  const page = ALL_PAGES.find((known) => known.path === asked);
  if (!page) throw new Error(`PAGES: ${asked} is not one of ${ALL_PAGES.map((known) => known.path).join(', ')}`);
  return page;
});
const KEEP_REPORTS = process.env.KEEP_REPORTS;

type Run = {
  performance: number;
  accessibility: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  jsGzip: number;
  jsServed: number;
  scripts: number;
  failing: string[];
};

type LighthouseResult = {
  finalDisplayedUrl: string;
  categories: Record<'performance' | 'accessibility', { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<
    string,
    {
      id: string;
      score: number | null;
      numericValue?: number;
      details?: { items?: { url: string; resourceType?: string; transferSize?: number }[] };
    }
  >;
};

const gzipSizes = new Map<string, number>();
/** The script's gzipped size from the build (what a server without Brotli sends). */
function gzipSizeOf(dist: string, url: string): number {
  const file = path.join(dist, new URL(url).pathname);
  let size = gzipSizes.get(file);
  if (size === undefined) {
    size = gzipSync(fs.readFileSync(file), { level: zlib.Z_BEST_COMPRESSION }).length;
    gzipSizes.set(file, size);
  }
  return size;
}

function lighthouse(work: string, page: Page, cookie: string | undefined, output: string): Run {
  const args = [
    `${BASE}${page.path}`,
    `--chrome-flags=${CHROME_FLAGS.join(' ')}`,
    '--only-categories=performance,accessibility',
    '--output=json',
    `--output-path=${output}`,
    '--quiet',
    // Lighthouse clears the origin's cookies before a run; a header survives that.
    ...(cookie ? [`--extra-headers=${JSON.stringify({ Cookie: cookie })}`] : []),
  ];
  // On a busy machine Chromium now and then loses the trace (NO_NAVSTART): such a run is repeated.
  for (let attempt = 1; ; attempt++) {
    const result = spawnSync(path.join(root, 'node_modules/.bin/lighthouse'), args, {
      cwd: root,
      env: { ...process.env, CHROME_PATH: CHROMIUM },
      encoding: 'utf8',
    });
    if (result.status === 0) break;
    if (attempt === 3) throw new Error(`lighthouse failed on ${page.path}: ${result.stderr}`);
    console.log(`${page.path}: lighthouse failed (${result.stderr.trim().split('\n').at(-1)}), again`);
  }
  const report = JSON.parse(fs.readFileSync(output, 'utf8')) as LighthouseResult;
  const audit = (id: string) => report.audits[id]?.numericValue ?? Number.NaN;
  const scripts = (report.audits['network-requests']?.details?.items ?? []).filter(
    (item) => item.resourceType === 'Script' && new URL(item.url).origin === BASE,
  );
  const finalPath = new URL(report.finalDisplayedUrl).pathname;
  if (finalPath !== page.path) throw new Error(`${page.path} ended on ${finalPath}: the sign-in did not hold`);
  return {
    performance: Math.round((report.categories.performance.score ?? 0) * 100),
    accessibility: Math.round((report.categories.accessibility.score ?? 0) * 100),
    fcp: audit('first-contentful-paint'),
    lcp: audit('largest-contentful-paint'),
    tbt: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    jsGzip: scripts.reduce((sum, item) => sum + gzipSizeOf(path.join(work, 'dist'), item.url), 0),
    jsServed: scripts.reduce((sum, item) => sum + (item.transferSize ?? 0), 0),
    scripts: scripts.length,
    // The accessibility audits that cost points, to say what to fix.
    failing: report.categories.accessibility.auditRefs
      .filter((ref) => ref.weight > 0 && (report.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => ref.id),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main(): Promise<void> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Lighthouse needs Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-bench-web-'));
  buildWeb(work);
  const server = await startServer(work, PORT, { DEMO: 'on' });
  const rows: string[][] = [];
  let missed = false;
  try {
    for (const page of PAGES) {
      const cookie = page.login ? await sessionCookie(BASE, page.login) : undefined;
      const runs: Run[] = [];
      for (let i = 0; i < RUNS; i++) {
        const run = lighthouse(work, page, cookie, path.join(work, `lh-${page.path.slice(1)}-${i}.json`));
        console.log(
          `${page.path} run ${i + 1}: performance ${run.performance}, accessibility ${run.accessibility}` +
            (run.failing.length ? ` (failing: ${run.failing.join(', ')})` : ''),
        );
        runs.push(run);
      }
      const m = (key: keyof Omit<Run, 'failing'>) => median(runs.map((run) => run[key]));
      if (m('performance') < TARGET.performance || m('accessibility') < TARGET.accessibility) missed = true;
      rows.push([
        page.path,
        String(m('performance')),
        String(m('accessibility')),
        seconds(m('fcp')),
        seconds(m('lcp')),
        `${Math.round(m('tbt'))} ms`,
        m('cls').toFixed(3),
        `${kb(m('jsGzip'))} (${m('scripts')} files)`,
        kb(m('jsServed')),
      ]);
    }
  } finally {
    await stopServer(server);
    if (KEEP_REPORTS) {
      fs.mkdirSync(KEEP_REPORTS, { recursive: true });
      for (const name of fs.readdirSync(work).filter((file) => file.startsWith('lh-')))
        fs.copyFileSync(path.join(work, name), path.join(KEEP_REPORTS, name));
    }
    fs.rmSync(work, { recursive: true, force: true });
  }
  const header = ['page', 'perf', 'a11y', 'FCP', 'LCP', 'TBT', 'CLS', 'JS gzip', 'JS served'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
  console.log(`\nLighthouse ${RUNS}× per page, mobile preset, medians (Chromium ${CHROMIUM}):`);
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  console.log(`\nTargets: performance ≥ ${TARGET.performance}, accessibility ${TARGET.accessibility}: ${missed ? 'NOT met' : 'met'}.`);
  if (missed) process.exitCode = 1;
}

await main();
