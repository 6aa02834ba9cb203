import express, { type Express, type RequestHandler, type Router } from 'express';
import type { Readiness } from './check-readiness.js';
import type { Metrics } from './metrics.js';

export interface AdminAppOptions {
  readonly metrics: Metrics;
  /** Guards /metrics (requireMetricsCredential): built once, so both listeners count refusals alike. */
  readonly metricsGuard: RequestHandler;
  /** /readyz: 200 when ready, else 503, with every check in the body. */
  readonly readiness: () => Promise<Readiness>;
  /** Serve /healthz, /readyz and /metrics here (`admin.health_and_metrics` names the listener). */
  readonly healthAndMetrics: boolean;
  /** The admin API, mounted at `apiPrefix` ('/admin' on the main listener, '' on its own). */
  readonly api?: Router | undefined;
  readonly apiPrefix?: string;
}

/**
 * Everything but the ingest path, for either listener: health for orchestrators, metrics behind a read-scoped
 * admin key or the admin token, the admin API behind its keys, and a JSON 404 for the rest.
 */
export function createAdminApp(options: AdminAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  if (options.healthAndMetrics) {
    app.get('/healthz', (_req, res) => {
      res.json({ status: 'ok' });
    });
    app.get('/readyz', async (_req, res) => {
      const readiness = await options.readiness();
      res.status(readiness.ready ? 200 : 503).json({ status: readiness.ready ? 'ready' : 'not_ready', ...readiness });
    });
    app.get('/metrics', options.metricsGuard, async (_req, res) => {
      res.type(options.metrics.contentType).send(await options.metrics.render());
    });
  }
  if (options.api !== undefined) {
    if (options.apiPrefix) app.use(options.apiPrefix, options.api);
    else app.use(options.api);
  }
  app.use((_req, res) => {
    res.status(404).json({ error: { code: 'not_found', message: 'no such route' } });
  });
  return app;
}
