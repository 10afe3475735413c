import path from 'node:path';
import { gzipSync, constants as zlib } from 'node:zlib';
import { build, type Rolldown } from 'vite';
import { FIRST_ANSWERS_ID } from '../src/shared/constants.ts';
import { firstReadsOf } from '../src/shared/first-reads.ts';
import { expect, loginViaApi, navigate, test, withoutLiveEvents } from './fixtures.ts';

/** The budget: all the JavaScript the login route downloads, gzipped (kB as Vite prints them). */
const LOGIN_JS_BUDGET_BYTES = 100_000;

const root = path.resolve(import.meta.dirname, '..');
const LOGIN_PAGE = path.join(root, 'src/web/features/auth/login-page.tsx');
/** Where the signed-in code starts: the shell, and each area's routes with its home screen. */
const SIGNED_IN_ROOTS = {
  shell: path.join(root, 'src/web/app/signed-in-app.tsx'),
  student: path.join(root, 'src/web/app/student-routes.tsx'),
  admin: path.join(root, 'src/web/app/admin-routes.tsx'),
};
/** Modules only a signed-in user needs: none of them may be in the login route's chunks. */
const SIGNED_IN_ONLY = [
  /\/src\/web\/app\/signed-in-app\.tsx$/,
  /\/src\/web\/app\/app-layout\.tsx$/,
  /\/src\/web\/lib\/live-events\.ts$/,
  /\/src\/web\/features\/(?!auth\/)/,
  /\/node_modules\/@tanstack\//,
];

/** The front end as `vite build` makes it, kept in memory (the served dist/ is left alone). */
async function buildChunks(): Promise<Map<string, Rolldown.OutputChunk>> {
  // Vite builds React's development code when NODE_ENV is set to anything but production (e.g. 'test').
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  let output: Awaited<ReturnType<typeof build>>;
  try {
    output = await build({ root, logLevel: 'silent', build: { write: false, emptyOutDir: false } });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  const outputs = Array.isArray(output) ? output : [output];
  const chunks = new Map<string, Rolldown.OutputChunk>();
  for (const result of outputs) {
    if (!('output' in result)) throw new Error('vite build returned a watcher');
    for (const item of result.output) if (item.type === 'chunk') chunks.set(item.fileName, item);
  }
  return chunks;
}

/** The chunks `start` pulls in before it runs: itself and its static imports, transitively (not its dynamic imports). */
function staticClosure(chunks: Map<string, Rolldown.OutputChunk>, start: Rolldown.OutputChunk[]): Rolldown.OutputChunk[] {
  const seen = new Map<string, Rolldown.OutputChunk>();
  const visit = (chunk: Rolldown.OutputChunk) => {
    if (seen.has(chunk.fileName)) return;
    seen.set(chunk.fileName, chunk);
    for (const name of chunk.imports) visit(chunks.get(name)!);
  };
  start.forEach(visit);
  return [...seen.values()];
}

const gzipSize = (code: string) => gzipSync(code, { level: zlib.Z_BEST_COMPRESSION }).length;

test.describe('first load', () => {
  test('the login route needs at most 100 kB of gzipped JavaScript and none of the signed-in code', async () => {
    test.slow(); // a full production build on a shared machine
    const chunks = await buildChunks();
    const entries = [...chunks.values()].filter((chunk) => chunk.isEntry);
    expect(entries.map((chunk) => chunk.facadeModuleId)).toEqual([path.join(root, 'index.html')]);
    // The login page may be the entry's or a chunk of its own: either way the route needs that chunk and its imports.
    const loginChunks = staticClosure(chunks, [...entries, ...[...chunks.values()].filter((chunk) => chunk.facadeModuleId === LOGIN_PAGE)]);
    const modules = loginChunks.flatMap((chunk) => chunk.moduleIds);
    expect(modules, 'the walk reaches the login page').toContain(LOGIN_PAGE);
    expect(modules.filter((id) => SIGNED_IN_ONLY.some((pattern) => pattern.test(id.replaceAll('\\', '/'))))).toEqual([]);

    const sizes = loginChunks.map((chunk) => ({ file: chunk.fileName, gzip: gzipSize(chunk.code) }));
    const total = sizes.reduce((sum, chunk) => sum + chunk.gzip, 0);
    console.info(`login route: ${total} B gzipped`);
    expect(total, `login route: ${JSON.stringify(sizes)}`).toBeLessThanOrEqual(LOGIN_JS_BUDGET_BYTES);

    // Every screen of the areas is a chunk of its own, loaded when it is opened.
    const screens = [...chunks.values()].filter(
      (chunk) => chunk.facadeModuleId?.includes('/src/web/features/') && chunk.facadeModuleId !== LOGIN_PAGE,
    );
    expect(screens.length).toBeGreaterThan(0);
    expect(screens.filter((chunk) => !chunk.isDynamicEntry).map((chunk) => chunk.fileName)).toEqual([]);
    const loginFiles = new Set(loginChunks.map((chunk) => chunk.fileName));
    expect(screens.filter((chunk) => loginFiles.has(chunk.fileName)).map((chunk) => chunk.fileName)).toEqual([]);

    // An area's home takes the server's answers as typed (the server checks them against their schemas): zod comes
    // only with the screens that validate a form.
    const holding = (module: string) => [...chunks.values()].filter((chunk) => chunk.moduleIds.includes(module));
    for (const area of ['student', 'admin'] as const) {
      const homeChunks = staticClosure(chunks, [...holding(SIGNED_IN_ROOTS.shell), ...holding(SIGNED_IN_ROOTS[area])]);
      const homeModules = homeChunks.flatMap((chunk) => chunk.moduleIds);
      expect(homeModules, `the walk reaches the ${area} routes`).toContain(SIGNED_IN_ROOTS[area]);
      expect(
        homeModules.filter((id) => id.replaceAll('\\', '/').includes('/node_modules/zod/')),
        `${area} home`,
      ).toEqual([]);
    }
  });

  test('/login shows its form with only the scripts its HTML names, no lazy chunk', async ({ page }) => {
    const html = await (await page.request.get('/login')).text();
    const named = new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((match) => match[1]));
    expect(named.size).toBeGreaterThan(0);
    const requested: string[] = [];
    await page.route(/\/assets\/.+\.js$/, async (route) => {
      const { pathname } = new URL(route.request().url());
      requested.push(pathname);
      // Refused, so a form that needed a lazy chunk would never show.
      if (named.has(pathname)) await route.continue();
      else await route.abort();
    });
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible();
    await expect(page.getByLabel('Matrícula')).toBeEditable();
    expect(requested.filter((pathname) => !named.has(pathname))).toEqual([]);
  });

  for (const [area, other] of [
    ['student', 'admin'],
    ['admin', 'student'],
  ] as const) {
    test(`/${area} opens with three scripts (first load, signed-in shell, its area) and none of the ${other} area`, async ({
      page,
      context,
      school,
    }) => {
      await loginViaApi(context, area === 'admin' ? 'admin' : await school.createStudent());
      // Without the live stream: an operation of a test running beside this one would have the screen read everything
      // again (live-events.ts, a first ready after an event), a second read that is right but not the preload's doing.
      await withoutLiveEvents(page);
      const scripts: string[] = [];
      const reads: string[] = [];
      page.on('request', (request) => {
        const { pathname, search } = new URL(request.url());
        if (/^\/assets\/.+\.js$/.test(pathname)) scripts.push(pathname.replace(/-[\w-]{8}\.js$/, ''));
        if (pathname.startsWith('/api/') && pathname !== '/api/events') reads.push(pathname + search);
      });
      await navigate(page, `/${area}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(scripts.sort()).toEqual([`/assets/${area}-area`, '/assets/index', '/assets/signed-in'].sort());
      // The page comes with the answers of the reads its screen opens with, and the screen takes them: no read goes out.
      const answersIn = async (url: string) => {
        const html = await (await page.request.get(url)).text();
        const json = new RegExp(`<script type="application/json" id="${FIRST_ANSWERS_ID}">(.*?)</script>`).exec(html)?.[1];
        return Object.keys(JSON.parse(json ?? '{}') as object).sort();
      };
      expect(await answersIn(`/${area}`)).toEqual(firstReadsOf(`/${area}`).sort());
      expect(reads).toEqual([]);
      // The area's page names its chunks, so they download beside the first one instead of after it has run.
      const html = await (await page.request.get(`/${area}/ranking`)).text();
      const preloaded = [...html.matchAll(/<link rel="modulepreload"[^>]* href="(\/assets\/[^"]+\.js)"/g)].map((match) =>
        match[1]!.replace(/-[\w-]{8}\.js$/, ''),
      );
      expect(preloaded.sort()).toEqual([`/assets/${area}-area`, '/assets/signed-in'].sort());
      // Another screen of the area comes with what every page reads: the session and the settings.
      expect(await answersIn(`/${area}/ranking`)).toEqual(['/api/auth/me', '/api/settings']);
    });
  }
});
