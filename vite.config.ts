import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { AREAS } from './src/shared/areas.ts';
import { pruneRetiredAssets } from './src/server/web-assets.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
const apiTarget = `http://localhost:${process.env.API_PORT ?? 3000}`;

/**
 * In development the API server does not serve index.html, so this plugin does what the
 * server does in production: it marks demo mode in the page for the login screen.
 * Demo mode is on unless DEMO is switched off or a PostgreSQL DATABASE_URL is set.
 */
function demoMeta(): Plugin {
  const demoFlag = process.env.DEMO?.toLowerCase();
  const demo = demoFlag === undefined ? !process.env.DATABASE_URL : ['on', 'true', '1'].includes(demoFlag);
  return {
    name: 'meritus-demo-meta',
    apply: 'serve',
    transformIndexHtml: (html) =>
      demo ? html.replace('<meta name="meritus-demo" content="off"', '<meta name="meritus-demo" content="on"') : html,
  };
}

/** The folder a build writes to (Vite sets it from build.outDir). */
function outputDirOf(options: { dir?: string | undefined }): string {
  if (!options.dir) throw new Error('the build has no output folder');
  return options.dir;
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Smaller files gain too little from compression to be worth a second request path. */
const PRECOMPRESS_MIN_BYTES = 1024;
const PRECOMPRESSIBLE = /\.(?:js|mjs|css|svg|json|html|txt|map|wasm)$/;

/**
 * Writes a Brotli (.br) and a gzip (.gz) copy beside every hashed asset over 1 KB, at the
 * highest levels: done once per build, so the server only picks the file the browser
 * accepts (@fastify/static's preCompressed) and spends no CPU per request on it.
 */
function precompressAssets(): Plugin {
  return {
    name: 'meritus-precompress-assets',
    apply: 'build',
    writeBundle: async (options, bundle) => {
      const outDir = outputDirOf(options);
      const files = Object.keys(bundle).filter((name) => name.startsWith('assets/') && PRECOMPRESSIBLE.test(name));
      await Promise.all(
        files.map(async (name) => {
          const file = path.join(outDir, name);
          const content = await fs.readFile(file);
          if (content.length < PRECOMPRESS_MIN_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(content, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
            gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}

/**
 * The contract's schema module (src/shared/contract/schemas.ts) is the server's: route.schemas() loads it where a route is
 * registered, and the web never calls it. Left in, the dynamic import would keep every response schema (and all of zod)
 * in the chunks the screens share; the web's build gets an empty module in its place.
 */
function withoutContractSchemas(): Plugin {
  const contractRoute = path.join(root, 'src/shared/contract/route.ts');
  const empty = '\0meritus-contract-schemas';
  return {
    name: 'meritus-without-contract-schemas',
    apply: 'build',
    enforce: 'pre',
    resolveId: (source, importer) => (importer === contractRoute && source === './schemas.ts' ? empty : null),
    load: (id) => (id === empty ? 'export {};' : null),
  };
}

/** Where the signed-in code starts: the shell every signed-in page needs, and each area's routes with its home screen. */
const AREA_ROOTS = {
  signedIn: path.join(root, 'src/web/app/signed-in-app.tsx'),
  student: path.join(root, 'src/web/app/student-routes.tsx'),
  admin: path.join(root, 'src/web/app/admin-routes.tsx'),
  familia: path.join(root, 'src/web/app/family-routes.tsx'),
};

/** Modules both areas import (cards, queries, shared schemas): grouped with the shell, so an area's page never loads the other area's chunk. */
const bothAreas = new Set<string>();

/** Fills bothAreas from the module graph once it is complete, before the chunks are made. */
function findModulesOfBothAreas(): Plugin {
  return {
    name: 'meritus-modules-of-both-areas',
    apply: 'build',
    buildEnd() {
      const staticImports = (start: string) => {
        const seen = new Set<string>();
        const visit = (id: string) => {
          if (seen.has(id)) return;
          seen.add(id);
          for (const next of this.getModuleInfo(id)?.importedIds ?? []) visit(next);
        };
        visit(start);
        return seen;
      };
      const admin = staticImports(AREA_ROOTS.admin);
      bothAreas.clear();
      for (const id of staticImports(AREA_ROOTS.student)) if (admin.has(id)) bothAreas.add(id);
    },
  };
}

/**
 * Writes one page per signed-in area (student.html, admin.html): index.html with <link rel="modulepreload"> for the
 * chunks the area's first screen runs (the signed-in shell, the area's routes and their imports). The server sends an
 * area's page for the area's paths, so the browser fetches those chunks beside the first one instead of only once it has
 * run and asked for them.
 */
function areaPages(): Plugin {
  return {
    name: 'meritus-area-pages',
    apply: 'build',
    writeBundle: async (options, bundle) => {
      const outDir = outputDirOf(options);
      const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
      const chunkWith = (module: string) => chunks.find((chunk) => chunk.moduleIds.includes(module));
      const initial = new Set(chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName));
      const index = await fs.readFile(path.join(outDir, 'index.html'), 'utf8');
      await Promise.all(
        AREAS.map(async (area) => {
          const files = new Set<string>();
          const visit = (fileName: string) => {
            if (files.has(fileName) || initial.has(fileName)) return;
            files.add(fileName);
            for (const next of chunks.find((chunk) => chunk.fileName === fileName)?.imports ?? []) visit(next);
          };
          for (const root of [AREA_ROOTS.signedIn, AREA_ROOTS[area]]) {
            const chunk = chunkWith(root);
            if (!chunk) throw new Error(`no chunk holds ${root}`);
            visit(chunk.fileName);
          }
          const links = [...files].map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('');
          if (!index.includes('</head>')) throw new Error("index.html has no </head> for the area pages' preloads");
          await fs.writeFile(path.join(outDir, `${area}.html`), index.replace('</head>', `${links}</head>`));
        }),
      );
    },
  };
}

/**
 * A build is written over the previous one, not into an emptied folder: a tab opened before an upgrade keeps finding
 * its chunks. The earlier builds' files are deleted once retired for RETIRED_ASSET_KEEP_MS (web-assets.ts).
 */
function retireEarlierAssets(): Plugin {
  return {
    name: 'meritus-retire-earlier-assets',
    apply: 'build',
    writeBundle: (options, bundle) => pruneRetiredAssets(outputDirOf(options), new Set(Object.keys(bundle))),
  };
}

/**
 * React Router 7's package exports name only its development build, in production too (remix-run/react-router#12532,
 * #14102: dev warnings on, and some 3 kB more of gzipped JavaScript on every page). A build takes the production
 * build the package ships beside it; the dev server keeps the development one and its warnings.
 */
const reactRouterProduction = path.join(root, 'node_modules/react-router/dist/production/index.mjs');

export default defineConfig(({ command }) => ({
  root,
  resolve: { alias: command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [] },
  plugins: [
    react(),
    tailwindcss(),
    demoMeta(),
    withoutContractSchemas(),
    precompressAssets(),
    findModulesOfBothAreas(),
    areaPages(),
    retireEarlierAssets(),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    rolldownOptions: {
      output: {
        /*
         * A signed-in page would otherwise wait for some thirty small chunks, fetched in three waves as each one's
         * imports come to light. Here it takes one chunk for what every signed-in page stands on and one for its area
         * (its routes, home screen and their imports). The first load (/login) is grouped first and on its own, so no
         * group takes a module it needs; the other screens stay chunks of their own, loaded when opened.
         */
        codeSplitting: {
          groups: [
            { name: 'index', tags: ['$initial'], priority: 3 },
            { name: 'signed-in', test: (id) => id === AREA_ROOTS.signedIn || bothAreas.has(id), priority: 2 },
            { name: 'student-area', test: (id) => id === AREA_ROOTS.student, priority: 1 },
            { name: 'admin-area', test: (id) => id === AREA_ROOTS.admin, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    strictPort: true,
    proxy: {
      // Not changeOrigin: the API's CSRF check compares Origin with the Host it receives.
      '/api': { target: apiTarget, ws: false },
      '/uploads': { target: apiTarget },
    },
  },
  preview: {
    proxy: {
      '/api': { target: apiTarget },
      '/uploads': { target: apiTarget },
    },
  },
}));
