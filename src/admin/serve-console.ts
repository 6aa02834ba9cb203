import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type Router } from 'express';
import { sendApiError } from './api/send-api-error.js';

/** Vite names its assets by content hash, so a file there never changes: cached for a year, never revalidated. */
const ASSETS = { immutable: true, maxAge: '1y', index: false, redirect: false } as const;

/**
 * The built console (`dir`, Vite's outDir): index.html with `no-cache` (so a new build shows at the next load),
 * hashed assets cached for good, and index.html for every extension-less path under /console/ (the page's
 * own routes, such as /console/events/evt_1). `GET /` leads to the console. When the console was not built
 * (a daemon run from source without `npm run build`), /console/ answers a JSON 404 that says so.
 */
export function serveConsole(dir: string): Router {
  const router = express.Router();
  // sendFile wants an absolute path.
  const index = path.resolve(dir, 'index.html');
  router.get('/', (_req, res) => {
    res.redirect(302, '/console/');
  });
  router.use('/console', (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      next();
      return;
    }
    if (!existsSync(index)) {
      sendApiError(res, 404, 'console_not_built', 'the console was not built (npm run build writes dist/console/)');
      return;
    }
    if (req.originalUrl.split('?')[0] === '/console') res.redirect(301, '/console/');
    else next();
  });
  router.use('/console/assets', express.static(path.join(dir, 'assets'), ASSETS));
  router.use(
    '/console',
    express.static(dir, {
      index: false,
      redirect: false,
      setHeaders: (res) => res.set('cache-control', 'no-cache'),
    }),
  );
  router.get(/^\/console\/.*$/, (req, res, next) => {
    const last = req.path.split('/').at(-1) ?? '';
    if (last.includes('.')) {
      next();
      return;
    }
    res.set('cache-control', 'no-cache');
    res.sendFile(index);
  });
  return router;
}
