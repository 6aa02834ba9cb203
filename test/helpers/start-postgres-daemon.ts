import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { captureLogs } from './capture-logs.js';
import { startSwitchyard, type RunningSwitchyard } from '../../src/main.js';
import { SOURCE_SECRET } from './start-test-daemon.js';

/** The daemon's admin token: /readyz shows what failed only to a caller with it (or a read-scoped key). */
export const POSTGRES_DAEMON_ADMIN_TOKEN = 'postgres-daemon-admin-token-0123456789';

export interface PostgresDaemon {
  readonly running: RunningSwitchyard;
  readonly url: string;
  readonly rawLogs: () => string;
  readonly logs: () => Record<string, unknown>[];
}

/**
 * A real daemon, in-process, on a free port, with `store.postgres` in its config: the URL comes from the
 * environment as in production (`${DATABASE_URL}`), the journal in `schema`. Logs are captured as JSON lines.
 * Several may share one `dir` (the rules file) and one schema: instances behind a load balancer.
 */
export async function startPostgresDaemon(
  dir: string,
  options: { databaseUrl: string; schema: string; rules: string; name?: string },
): Promise<PostgresDaemon> {
  const name = options.name ?? 'switchyard';
  writeFileSync(path.join(dir, 'rules.yaml'), options.rules);
  const configPath = path.join(dir, `${name}.yaml`);
  writeFileSync(
    configPath,
    `listen: { host: 127.0.0.1, port: 0 }
rules: ./rules.yaml
store: { postgres: { url: "\${DATABASE_URL}", schema: ${options.schema}, pool_size: 4 } }
sources:
  monitor:
    secrets: ["\${MONITOR_SECRET}"]
`,
  );
  const captured = captureLogs();
  const running = await startSwitchyard({
    configFile: configPath,
    env: {
      MONITOR_SECRET: SOURCE_SECRET,
      DATABASE_URL: options.databaseUrl,
      SWITCHYARD_ADMIN_TOKEN: POSTGRES_DAEMON_ADMIN_TOKEN,
    },
    cwd: dir,
    logStream: captured.stream,
    random: () => 0,
    deliveryPollMs: 100,
  });
  return {
    running,
    url: `http://127.0.0.1:${running.port}`,
    rawLogs: captured.rawLogs,
    logs: captured.logs,
  };
}
