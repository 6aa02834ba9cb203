import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Clock } from '../../src/clock.js';
import { captureLogs } from './capture-logs.js';
import { startSwitchyard, type RunningSwitchyard } from '../../src/main.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import type { Store, StoredDelivery } from '../../src/store/store.js';

export const SOURCE_SECRET = 'test-secret-0123456789abcdef'; // the openssl vectors' secret
export const NEXT_SECRET = 'next-secret-abcdefghijklmnop';
// Targets point at loopback port 9, where nothing listens: deliveries fail at once, and no test ever
// sends an event, or even a DNS query, off this machine.
export const SLACK_URL = 'http://127.0.0.1:9/services/T000/B000/PLACEHOLDER';

export const TEST_RULES = `
targets:
  soc-slack: { type: slack, webhook_url: "\${TEST_SLACK_URL}" }
  oncall-mail: { type: email, smtp: { host: 127.0.0.1, port: 9 }, from: switchyard@example.com, to: [oncall@example.com] }
  tickets: { type: http, url: "http://127.0.0.1:9/api/events" }
routes:
  - name: drop-test-agents
    match:
      event: "agent.*"
      where: [{ field: data.hostname, matches: "^test-" }]
    to: []
    stop: true
  - name: serious-incidents
    match:
      event: [incident.created, incident.updated]
      severity: { at_least: high }
    to: [soc-slack, oncall-mail]
  - name: agents
    match: { event: "agent.*" }
    to: [tickets, soc-slack]
fallback: [tickets]
`;

export interface TestDaemon {
  readonly running: RunningSwitchyard;
  readonly url: string;
  readonly dir: string;
  readonly dbPath: string;
  readonly rulesPath: string;
  readonly logs: () => Record<string, unknown>[];
  readonly rawLogs: () => string;
  readonly counts: () => Promise<{ events: number; deliveries: number }>;
  /** Every delivery in the journal, read through a store of its own. */
  readonly deliveries: () => Promise<StoredDelivery[]>;
}

/** A real daemon on a free port with a real SQLite journal in `dir`, logs captured as parsed JSON lines. */
export async function startTestDaemon(
  dir: string,
  options: {
    config?: string;
    rules?: string;
    env?: Record<string, string>;
    clock?: Clock;
    busyTimeout?: string;
    maxEventAge?: string;
    /** `expect_events_within` of the source. */
    expectEventsWithin?: string;
    /** How often watched sources are checked (default: the daemon's 5 s). */
    sourceWatchMs?: number;
    /** How often due digests are sent (default: the daemon's 1 s). */
    digestSendMs?: number;
    /** Retry jitter; 0 makes every retry due at once (absent Retry-After), for fast delivery tests. */
    random?: () => number;
    /** When the first retention pass runs (default: the daemon's one minute). */
    firstPruneAfterMs?: number;
    /** How often ended deliver_unresolved silences are released (default: the daemon's 5 s). */
    silenceReleaseMs?: number;
    /** How often silences are re-read from the journal (default: the daemon's 1 s). */
    silenceRefreshMs?: number;
    /** The built console's folder (default: the package's dist/console/). */
    consoleDir?: string;
    /** How often the activity summary is logged (default: the daemon's minute). */
    activitySummaryMs?: number;
  } = {},
): Promise<TestDaemon> {
  const rulesPath = path.join(dir, 'rules.yaml');
  const dbPath = path.join(dir, 'journal.db');
  writeFileSync(rulesPath, options.rules ?? TEST_RULES);
  const configPath = path.join(dir, 'switchyard.yaml');
  writeFileSync(
    configPath,
    `listen: { host: 127.0.0.1, port: 0 }
rules: ./rules.yaml
store: { sqlite: { path: ./journal.db${options.busyTimeout ? `, busy_timeout: ${options.busyTimeout}` : ''} } }
sources:
  monitor:
    secrets: ["\${MONITOR_SECRET}", "\${MONITOR_NEXT_SECRET}"]
${options.maxEventAge ? `    max_event_age: ${options.maxEventAge}` : ''}
${options.expectEventsWithin ? `    expect_events_within: ${options.expectEventsWithin}` : ''}
${options.config ?? ''}
`,
  );
  const captured = captureLogs();
  const env = {
    MONITOR_SECRET: SOURCE_SECRET,
    MONITOR_NEXT_SECRET: NEXT_SECRET,
    TEST_SLACK_URL: SLACK_URL,
    ...options.env,
  };
  const running = await startSwitchyard({
    configFile: configPath,
    env,
    cwd: dir,
    logStream: captured.stream,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.random ? { random: options.random } : {}),
    deliveryPollMs: 100,
    ...(options.firstPruneAfterMs === undefined ? {} : { firstPruneAfterMs: options.firstPruneAfterMs }),
    ...(options.silenceReleaseMs === undefined ? {} : { silenceReleaseMs: options.silenceReleaseMs }),
    ...(options.silenceRefreshMs === undefined ? {} : { silenceRefreshMs: options.silenceRefreshMs }),
    ...(options.sourceWatchMs === undefined ? {} : { sourceWatchMs: options.sourceWatchMs }),
    ...(options.digestSendMs === undefined ? {} : { digestSendMs: options.digestSendMs }),
    ...(options.consoleDir === undefined ? {} : { consoleDir: options.consoleDir }),
    ...(options.activitySummaryMs === undefined ? {} : { activitySummaryMs: options.activitySummaryMs }),
  });
  const withStore = async <T>(read: (store: Store) => Promise<T>): Promise<T> => {
    const store = createSqliteStore({ path: dbPath });
    try {
      return await read(store);
    } finally {
      await store.close();
    }
  };
  return {
    running,
    url: `http://127.0.0.1:${running.port}`,
    dir,
    dbPath,
    rulesPath,
    rawLogs: captured.rawLogs,
    logs: captured.logs,
    counts: () => withStore((store) => store.counts()),
    deliveries: () => withStore((store) => store.findDeliveries({ limit: 10_000 })),
  };
}
