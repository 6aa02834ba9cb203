import express, { type Express } from 'express';
import type { Metrics } from './metrics.js';
import { requireToken } from './require-token.js';

export interface AdminAppOptions {
  readonly metrics: Metrics;
  readonly adminToken: string | null;
  /** False while starting up or shutting down; /readyz answers 503 then. */
  readonly ready: () => boolean;
}

/** Everything but the ingest path: health for orchestrators, metrics behind the admin token. */
export function createAdminApp(options: AdminAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', (_req, res) => {
    const ready = options.ready();
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready' });
  });
  app.get('/metrics', requireToken(options.adminToken), (_req, res) => {
    res.type('text/plain; version=0.0.4').send(options.metrics.render());
  });
  app.use((_req, res) => {
    res.status(404).json({ error: { code: 'not_found', message: 'no such route' } });
  });
  return app;
}
