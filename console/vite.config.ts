import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The SOC console (issue 13): built into dist/console, served by the admin listener under /console/. Every asset
 * is bundled and hashed (no CDN, the page works offline), and nothing is inlined, so the page runs under
 * `Content-Security-Policy: default-src 'self'`.
 */
export default defineConfig({
  root,
  base: '/console/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    // Small assets would be inlined as data: URLs; keep everything a file of its own.
    assetsInlineLimit: 0,
    // The polyfill is code injected into the page; every browser the console supports has modulepreload.
    modulePreload: { polyfill: false },
    sourcemap: false,
    reportCompressedSize: false,
  },
  // `npm run console:dev`: the page with hot reload, its API calls passed to a daemon's admin listener.
  server: {
    port: 5173,
    proxy: { '/api': process.env.SWITCHYARD_ADMIN_URL ?? 'http://127.0.0.1:9090' },
  },
});
