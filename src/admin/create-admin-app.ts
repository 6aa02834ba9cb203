import express, { type Express, type RequestHandler, type Router } from 'express';
import type { Readiness } from './check-readiness.js';
import { compressAnswers } from './compress-answers.js';
import type { Metrics } from './metrics.js';
import { securityHeaders } from './security-headers.js';
import { serveConsole } from './serve-console.js';

export interface AdminAppOptions {
  readonly metrics: Metrics;
  /**
   * Guards /metrics and the details of /readyz (requireMetricsCredential): built once, so both listeners count
   * refusals alike.
   */
  readonly metricsGuard: RequestHandler;
  /** /readyz: 200 when ready, else 503; which check failed, and with a credential what went wrong. */
  readonly readiness: () => Promise<Readiness>;
  /** Serve /healthz, /readyz and /metrics here (`admin.health_and_metrics` names the listener). */
  readonly healthAndMetrics: boolean;
  /** The admin API, mounted at `apiPrefix` ('/admin' on the main listener, '' on its own). */
  readonly api?: Router | undefined;
  readonly apiPrefix?: string;
  /**
   * The admin listener's own app: serves the built console from this folder, and the security headers (CSP)
   * on every answer. Not given on the main listener, which never serves the console.
   */
  readonly consoleDir?: string | undefined;
}

/**
 * Everything but the ingest path, for either listener: health for orchestrators, metrics behind a read-scoped
 * admin key or the admin token, the admin API behind its keys, and a JSON 404 for the rest.
 */
export function createAdminApp(options: AdminAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(compressAnswers);
  if (options.consoleDir !== undefined) app.use(securityHeaders);
  if (options.healthAndMetrics) {
    // Liveness: nothing in the process needs a restart to recover, so serving HTTP is being alive.
    app.get('/healthz', (_req, res) => res.json({ status: 'ok' }));
    const readyz =
      (details: boolean): RequestHandler =>
      async (_req, res) => {
        const readiness = await options.readiness();
        const shown = details ? readiness : withoutDetails(readiness);
        res.status(readiness.ready ? 200 : 503).json({ status: readiness.ready ? 'ready' : 'not_ready', ...shown });
      };
    // Load balancers call it without a credential and get which check failed; error texts and the rules file's
    // path are for a caller with the /metrics credential (a wrong one is refused and counted as on /metrics).
    app.get(
      '/readyz',
      (req, _res, next) => next(req.headers.authorization === undefined ? 'route' : undefined),
      options.metricsGuard,
      readyz(true),
    );
    app.get('/readyz', readyz(false));
    app.get('/metrics', options.metricsGuard, async (_req, res) => {
      res.type(options.metrics.contentType).send(await options.metrics.render());
    });
  }
  if (options.api !== undefined) {
    if (options.apiPrefix) app.use(options.apiPrefix, options.api);
    else app.use(options.api);
  }
  if (options.consoleDir !== undefined) app.use(serveConsole(options.consoleDir));
  app.use((_req, res) => {
    res.status(404).json({ error: { code: 'not_found', message: 'no such route' } });
  });
  return app;
}

/** Each check's name and whether it passed: nothing a stranger could learn the deployment from. */
function withoutDetails(readiness: Readiness) {
  const checks = Object.fromEntries(Object.entries(readiness.checks).map(([name, check]) => [name, { ok: check.ok }]));
  return { ready: readiness.ready, checks };
}
