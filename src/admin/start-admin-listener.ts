import type { Router } from 'express';
import type { Config } from '../config/config.js';
import { createTimedServer } from '../http/create-timed-server.js';
import { startListener, type Listener } from '../http/start-listener.js';
import { createAdminApp, type AdminAppOptions } from './create-admin-app.js';

/**
 * The admin API's own listener, with the console and the security headers: it opens only when something is
 * served there (keys, or health and metrics moved to it), so no port stays open with nothing behind.
 */
export async function startAdminListener(
  config: Config,
  appOptions: Omit<AdminAppOptions, 'healthAndMetrics' | 'api' | 'apiPrefix' | 'consoleDir'>,
  api: Router,
  consoleDir: string,
): Promise<Listener | null> {
  const { listen, healthAndMetrics, keys } = config.admin;
  if (listen === null || (keys.length === 0 && healthAndMetrics !== 'admin')) return null;
  const app = createAdminApp({ ...appOptions, healthAndMetrics: healthAndMetrics === 'admin', api, consoleDir });
  return startListener(
    createTimedServer(app, {
      headersTimeoutMs: config.headerTimeoutMs,
      requestTimeoutMs: config.headerTimeoutMs + config.bodyTimeoutMs + 5_000,
    }),
    listen.host,
    listen.port,
  );
}
