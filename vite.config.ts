import { fileURLToPath } from 'node:url';
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

export default defineConfig({
  root,
  plugins: [react(), tailwindcss(), demoMeta()],
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
