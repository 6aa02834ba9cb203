import express, { type Express, type Router } from 'express';
import type { Readiness } from './check-readiness.js';
import type { Metrics } from './metrics.js';
import { requireToken } from './require-token.js';

export interface AdminAppOptions {
  readonly metrics: Metrics;
  readonly adminToken: string | null;
  /** /readyz: 200 when ready, else 503, with every check in the body. */
  readonly readiness: () => Promise<Readiness>;
  /** The admin API, when it is served under /admin on this listener (`admin.listen: null`). */
  readonly api?: Router | undefined;
}

/** Everything but the ingest path: health for orchestrators, metrics behind the admin token. */
export function createAdminApp(options: AdminAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const readiness = await options.readiness();
    res.status(readiness.ready ? 200 : 503).json({ status: readiness.ready ? 'ready' : 'not_ready', ...readiness });
  });
  app.get('/metrics', requireToken(options.adminToken), async (_req, res) => {
    res.type(options.metrics.contentType).send(await options.metrics.render());
  });
  if (options.api !== undefined) app.use('/admin', options.api);
  app.use((_req, res) => {
    res.status(404).json({ error: { code: 'not_found', message: 'no such route' } });
  });
  return app;
}
