/**
 * npm run bench:archive — the image archive at 10,000 images.
 *
 * Fills a fresh database (embedded PGlite in a data folder; BENCH_DB=postgres for a PostgreSQL 15)
 * with 10,000 archive records by SQL, then prints
 * - p50/p95 of the list call for the screen's common filter combinations (target: p95 ≤ 50 ms),
 *   and of the summary (tiles + filters);
 * - the time to first cards in the browser: the server as `npm start` runs it on that database
 *   (a production build), Debian's Chromium loading /admin/database signed in as an administrator,
 *   from navigation start to the first card on screen; the median of LOADS loads, each in a fresh
 *   browser context (a first visit: nothing cached). BENCH_PORT (default 3315) sets the port.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { sql } from 'drizzle-orm';
import { openPglite, openPostgres, type Database } from '../src/server/db/client.ts';
import { startPostgres } from '../src/server/test/postgres-server.ts';
import { admins } from '../src/server/db/schema.ts';
import { hashPassword } from '../src/server/modules/auth/password.ts';
import { archiveSummary, listImages } from '../src/server/modules/archive/archive-listing.service.ts';
import { archiveListQuery, type ArchiveListQuery } from '../src/shared/archive.ts';
import { sortedDurations } from './timing.ts';
import { CHROME_FLAGS, CHROMIUM } from '../src/server/test/chromium.ts';
import { buildWeb, sessionCookie, startServer, stopServer } from './production-server.ts';
import { coordinatorActor } from '../src/server/modules/auth/actor.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const RUNS = 40;
const LOADS = 7;
const PORT = Number(process.env.BENCH_PORT ?? 3315);
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN = { email: 'bench@escola.test', password: 'bench-archive-1' };

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-bench-archive-'));
const dataDir = path.join(work, 'data');
const pg = process.env.BENCH_DB === 'postgres' ? await startPostgres() : null;
let database: Database | null = pg ? await openPostgres(pg.url, { max: 4 }) : await openPglite(dataDir);

async function time(label: string, run: () => Promise<unknown>): Promise<number> {
  const samples = await sortedDurations(RUNS, run);
  const p95 = samples[Math.ceil(RUNS * 0.95) - 1]!;
  console.log(
    `  ${label.padEnd(52)} p50 ${samples[Math.floor(RUNS / 2)]!.toFixed(1).padStart(6)} ms · p95 ${p95.toFixed(1).padStart(6)} ms`,
  );
  return p95;
}

/** The machine's 1, 5 and 15 minute load averages: figures from a busy machine read differently (2 cores here). */
function loadAverage(): string {
  return fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

/** Time from navigation start to the first card on screen, each load in a fresh context (a first visit). */
async function firstCards(cookie: string): Promise<number[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS });
  try {
    const [name, value] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
    const times: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await context.addCookies([{ name, value, url: BASE }]);
      // The moment the first card is in the document, then the frame that paints it.
      await context.addInitScript(() => {
        new MutationObserver((_, observer) => {
          if (!document.querySelector('[role="list"] [role="listitem"]')) return;
          observer.disconnect();
          requestAnimationFrame(() => setTimeout(() => ((window as unknown as { firstCardAt: number }).firstCardAt = performance.now())));
        }).observe(document, { childList: true, subtree: true });
      });
      const page = await context.newPage();
      await page.goto(`${BASE}/admin/database`);
      await page.getByRole('list').getByRole('listitem').first().waitFor({ state: 'visible' });
      if (new URL(page.url()).pathname !== '/admin/database') throw new Error(`the page ended on ${page.url()}: the sign-in did not hold`);
      times.push(
        await page
          .waitForFunction(() => (window as unknown as { firstCardAt?: number }).firstCardAt)
          .then((at) => at.jsonValue() as Promise<number>),
      );
      await context.close();
    }
    return times.sort((a, b) => a - b);
  } finally {
    await browser.close();
  }
}

try {
  const { db } = database;
  const [admin] = await db
    .insert(admins)
    .values({ adminId: 'bench', name: 'Bench', email: ADMIN.email, passwordHash: await hashPassword(ADMIN.password) })
    .returning();
  const principal = coordinatorActor(admin!);
  console.log(`filling ${ROWS.toLocaleString('pt-BR')} archive records (${pg ? 'PostgreSQL' : 'PGlite'}; load average ${loadAverage()})…`);
  const t0 = performance.now();
  await db.execute(sql`
    INSERT INTO archive_images (file_key, content_hash, file_name, mime_type, kind, file_size, width, height, has_variants, description, category, tags,
                                album_id, album_name, access_level, is_active, is_featured, usage_count, download_count, uploaded_by, uploader_name,
                                uploader_email, search_text, created_at)
    SELECT substr(md5(n::text) || md5((n + 1)::text), 1, 32), md5('h' || n) || md5('i' || n), 'imagem-' || n || '.jpg',
           CASE WHEN n % 10 = 0 THEN 'application/pdf' ELSE 'image/jpeg' END, CASE WHEN n % 10 = 0 THEN 'document' ELSE 'image' END,
           1000 + (n * 7919) % 5000000, 800, 600, n % 10 <> 0, 'Descrição da imagem ' || n,
           (ARRAY['perfil','banner','icone','ilustracao','documento','biblioteca','galeria','outros'])[1 + n % 8],
           ARRAY['tag' || (n % 50), 'escola'], CASE WHEN n % 5 = 0 THEN 'album' || (n % 20) END, CASE WHEN n % 5 = 0 THEN 'Álbum ' || (n % 20) END,
           (ARRAY['public','public','restricted','private','admin'])[1 + n % 5], n % 17 <> 0, n % 13 = 0, (n * 31) % 200, (n * 17) % 90,
           CASE WHEN n % 3 = 0 THEN 'unknown' ELSE 'prof-' || (n % 6) END, CASE WHEN n % 3 = 0 THEN NULL ELSE 'Professor ' || (n % 6) END, NULL,
           'imagem-' || n || '.jpg descricao da imagem ' || n || ' tag' || (n % 50) || ' escola professor ' || (n % 6),
           now() - (n || ' minutes')::interval
      FROM generate_series(1, ${ROWS}) AS n`);
  await db.execute(sql`ANALYZE archive_images`);
  console.log(`filled in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);

  const list = (query: ArchiveListQuery) => () => listImages(db, principal, archiveListQuery.parse(query));
  const cases: [string, ArchiveListQuery][] = [
    ['first page, newest first (60)', {}],
    ['search "imagem 4321"', { q: 'imagem-4321' }],
    ['search a tag ("tag7"), by name', { q: 'tag7', sort: 'name', order: 'asc' }],
    ['Destaque', { featured: 'true' }],
    ['Público, by downloads', { public: 'true', sort: 'downloads' }],
    ['category banner, by size', { category: 'banner', sort: 'size' }],
    ['uploader + access level restricted', { uploader: 'prof-1', accessLevel: 'restricted' }],
    ['category perfil + Destaque + Público, by usage', { category: 'perfil', featured: 'true', public: 'true', sort: 'usage' }],
    ['picker: images only (200)', { kind: 'image', limit: 200 }],
    ['favourites', { favourites: 'true' }],
  ];
  let worst = 0;
  for (const [label, query] of cases) worst = Math.max(worst, await time(label, list(query)));
  const firstPage = await listImages(db, principal, archiveListQuery.parse({ sort: 'name', order: 'asc' }));
  worst = Math.max(worst, await time('second page by name (cursor)', list({ sort: 'name', order: 'asc', cursor: firstPage.nextCursor! })));
  await time('summary: seven tiles + category/uploader/album counts', () => archiveSummary(db));
  console.log(
    `\nworst list p95: ${worst.toFixed(1)} ms (target ≤ 50 ms) — ${worst <= 50 ? 'ok' : 'ABOVE TARGET'}; load average ${loadAverage()}`,
  );

  // The server takes the database over (PGlite's folder admits one process).
  await database.close();
  database = null;
  buildWeb(work);
  const server = await startServer(work, PORT, { DEMO: 'off', ...(pg ? { DATABASE_URL: pg.url } : {}) });
  try {
    const times = await firstCards(await sessionCookie(BASE, { url: '/api/auth/admin/login', body: ADMIN }));
    console.log(
      `\nfirst cards in the browser (/admin/database, ${LOADS} first visits, 1440 × 900): median ${times[Math.floor(LOADS / 2)]!.toFixed(0)} ms ` +
        `(min ${times[0]!.toFixed(0)}, max ${times.at(-1)!.toFixed(0)}; load average ${loadAverage()})`,
    );
  } finally {
    await stopServer(server);
  }
} finally {
  await database?.close();
  await pg?.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
