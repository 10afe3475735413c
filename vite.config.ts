import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

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
      demo ? html.replace('<meta name="meritus-demo" content="off">', '<meta name="meritus-demo" content="on">') : html,
  };
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
  let outDir = '';
  return {
    name: 'meritus-precompress-assets',
    apply: 'build',
    configResolved: (config) => {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle: async (_options, bundle) => {
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

export default defineConfig({
  root,
  plugins: [react(), tailwindcss(), demoMeta(), precompressAssets()],
  build: { outDir: 'dist', emptyOutDir: true },
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
});
