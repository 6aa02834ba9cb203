import { hostname } from 'node:os';
import type { Writable } from 'node:stream';
import { ADMIN_API_METRICS } from './admin/api/admin-api-metrics.js';
import { createAdminApi } from './admin/api/create-admin-api.js';
import { createAuthRefusals } from './admin/api/create-auth-refusals.js';
import { createConsoleSessions } from './admin/api/create-console-sessions.js';
import { checkReadiness } from './admin/check-readiness.js';
import { consoleDir } from './admin/console-dir.js';
import { createAdminApp } from './admin/create-admin-app.js';
import { logActivitySummary } from './admin/log-activity-summary.js';
import { startAdminListener } from './admin/start-admin-listener.js';
import { createMetrics } from './admin/metrics.js';
import { registerScrapeGauges } from './admin/register-scrape-gauges.js';
import { requireMetricsCredential } from './admin/require-metrics-credential.js';
import { SWITCHYARD_METRICS } from './admin/switchyard-metrics.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config/config.js';
import { loadConfig } from './config/load-config.js';
import { createHttpServer } from './http/create-server.js';
import { startListener } from './http/start-listener.js';
import { buildDeliveryEngine } from './delivery/build-delivery-engine.js';
import { sendableTargets } from './delivery/sendable-targets.js';
import { createIngestCommit } from './ingest/create-ingest-commit.js';
import { createBodyBudget } from './ingest/body-budget.js';
import { createIngestHandler } from './ingest/ingest-handler.js';
import { SMALL_BODY_BYTES } from './ingest/read-body.js';
import { createLogger } from './log/create-logger.js';
import type { Logger } from './log/logger.js';
import { startNoiseControl } from './noise/start-noise-control.js';
import { watchSources } from './noise/watch-sources.js';
import { raiseEvent } from './ingest/raise-event.js';
import type { IngestContext } from './ingest/ingest-context.js';
import { candidateRulesCompiler } from './rules/compile-candidate-rules.js';
import { createLiveRules } from './rules/create-live-rules.js';
import { watchRulesFile } from './rules/watch-rules-file.js';
import { createStore } from './store/create-store.js';
import { describeStore } from './store/describe-store.js';
import { journalFreeBytes } from './store/journal-free-bytes.js';
import { migrateAtStart } from './store/migrate-at-start.js';
import { newId } from './store/new-id.js';
import { lockSqliteJournal } from './store/sqlite/lock-sqlite-journal.js';
import { RETENTION_METRICS } from './retention/retention-metrics.js';
import { startPruner } from './retention/start-pruner.js';

export interface StartOptions {
  readonly configFile?: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly logStream?: Writable;
  readonly clock?: Clock;
  /** The jitter source for retries (tests fix it). */
  readonly random?: () => number;
  /** How often the delivery engine looks for due deliveries when nothing wakes it (tests shorten it). */
  readonly deliveryPollMs?: number;
  /** How often due digests are looked for (default 1 s; tests shorten it). */
  readonly digestSendMs?: number;
  /** How often watched sources are checked for silence (default 5 s; tests shorten it). */
  readonly sourceWatchMs?: number;
  /** How often ended `deliver_unresolved` silences are looked for (default 5 s; tests shorten it). */
  readonly silenceReleaseMs?: number;
  /** How often silences are re-read from the journal (default 1 s; a test lengthens it). */
  readonly silenceRefreshMs?: number;
  /** When the first retention pass runs after start (default one minute; tests shorten it). */
  readonly firstPruneAfterMs?: number;
  /** How often the activity summary is logged (default one minute; tests shorten it). */
  readonly activitySummaryMs?: number;
  /** The built console's folder (default dist/console/ of the package; tests pass a folder of fake files). */
  readonly consoleDir?: string;
}

export interface RunningSwitchyard {
  readonly config: Config;
  readonly log: Logger;
  /** The port actually bound (useful with `port: 0`). */
  readonly port: number;
  /** The admin API listener's port, or null when it has none (no keys, or served under /admin). */
  readonly adminPort: number | null;
  /** Re-reads the rules file; on any error the rules in force stay and the problems are logged. */
  reloadRules(): boolean;
  /** Stops accepting, finishes in-flight requests and commits, then closes the journal. Idempotent. */
  close(): Promise<void>;
}

/**
 * The composition root: builds every piece from the config and wires them together. It does not touch
 * `process` (signals and exit codes live in the CLI), so tests start real daemons in-process.
 * Each resource registers its own release as it is acquired, so a failure half-way through start-up
 * releases exactly what was taken (graphile-worker's pattern).
 */
export async function startSwitchyard(options: StartOptions): Promise<RunningSwitchyard> {
  const config = loadConfig({ file: options.configFile, env: options.env, cwd: options.cwd });
  const clock = options.clock ?? systemClock;
  const logStream = options.logStream ?? process.stdout;
  const log = createLogger({ level: config.log.level, secrets: config.secrets, stream: logStream });
  // An option that was removed loads but does nothing: said at start, where an upgrade is watched.
  for (const { key, message, where } of config.warnings) log.warn(`config ${key}: ${message}`, { where });
  const releases: (() => Promise<void>)[] = [];
  // Every step runs even when one before it fails: a store that fails to close must not keep the journal's
  // lock, the rules watcher or the listeners alive.
  const release = async (): Promise<void> => {
    const failures: unknown[] = [];
    for (const step of releases.splice(0).reverse()) await step().catch((error: unknown) => failures.push(error));
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, 'several resources failed to release');
  };
  try {
    const metrics = createMetrics([...SWITCHYARD_METRICS, ...ADMIN_API_METRICS, ...RETENTION_METRICS], {
      processMetrics: true,
    });
    const rules = createLiveRules({ file: config.rules, env: options.env, log, metrics, now: () => clock.now() });
    const stopWatching = watchRulesFile(config.rules, () => rules.reload('watch'));
    releases.push(async () => stopWatching());

    if (config.store.kind === 'sqlite') {
      // One daemon per SQLite journal: a second one would take the first one's in-flight deliveries for a
      // previous run's and send them again. PostgreSQL journals are shared by design (claims, leases).
      const lock = lockSqliteJournal(config.store.path, { pid: process.pid, host: hostname(), startedAt: clock.now() });
      releases.push(async () => lock.release());
      for (const warning of lock.warnings) log.warn(warning, { journal: config.store.path });
    }
    const store = await createStore(config.store, { clock });
    releases.push(() => store.close());
    const migration = await migrateAtStart(store, { log, waitForDatabase: store.sharedTargets !== undefined });
    releases.push(async () => migration.stop());
    const freeBytes = journalFreeBytes(config.store);
    const journal = () => ({ journal: describeStore(config.store), ...(freeBytes && { free_bytes: freeBytes() }) });
    const groupCommit = createIngestCommit({ store, metrics, log, ensureMigrated: () => migration.ensure(), journal });
    releases.push(() => groupCommit.drain());

    const engine = buildDeliveryEngine({ store, log, clock, metrics }, rules.current, config.secrets, {
      random: options.random,
      pollIntervalMs: options.deliveryPollMs,
    });
    await engine.start(); // a start that fails leaves nothing running: no release to register before it
    registerScrapeGauges(metrics, { store, engine, rules });
    releases.push(() => engine.stop(config.shutdownGraceMs));
    const noise = await startNoiseControl({
      store,
      log,
      clock,
      rules: rules.current,
      wake: () => engine.wake(),
      silenceRefreshMs: options.silenceRefreshMs,
      silenceReleaseMs: options.silenceReleaseMs,
      digestSendMs: options.digestSendMs,
    });
    releases.push(() => noise.stop());
    const { silences } = noise;
    const { retention, dedupeWindowMs } = config;
    const pruner = startPruner({
      store,
      log,
      clock,
      metrics,
      retention,
      dedupeWindowMs,
      firstPassAfterMs: options.firstPruneAfterMs,
    });
    releases.push(() => pruner.stop());
    releases.push(logActivitySummary({ metrics, log, clock, intervalMs: options.activitySummaryMs }));
    let accepting = false;
    const ingestContext: IngestContext = {
      config,
      log,
      clock,
      metrics,
      rules: rules.current,
      commit: async (item) => {
        const result = await groupCommit.submit(item);
        if (result.deliveries > 0) engine.wake(sendableTargets(item));
        return result;
      },
      newEventId: (now) => newId('evt_', now),
      silences,
      sourceWatch: {
        seen: (source, at) => sourceWatch.seen(source, at),
        rejected: (source) => sourceWatch.rejected(source),
      },
      bodyBudget: createBodyBudget(config.maxBodyInFlightBytes, SMALL_BODY_BYTES),
    };
    // Events Switchyard raises itself go through the same route-and-journal path as the upstream's.
    const sourceWatch = watchSources({
      sources: [...config.sources.values()],
      store,
      log,
      clock,
      highestSeverity: () => rules.current().severities.at(-1),
      raise: raiseEvent(ingestContext),
      intervalMs: options.sourceWatchMs,
    });
    releases.push(() => sourceWatch.stop());
    const ingest = createIngestHandler(ingestContext);
    // One per daemon: a guesser is slowed down, and its refusals logged, across every admin surface.
    const refusals = createAuthRefusals({ log, metrics, clock });
    releases.push(async () => refusals.close());
    const adminApi = createAdminApi({
      store,
      rules: rules.current,
      engineStatus: () => engine.status(),
      reloadRules: () => rules.reload('admin'),
      rulesHistory: rules.history,
      checkRules: candidateRulesCompiler(config.rules, options.env),
      keys: config.admin.keys,
      refusals,
      log,
      metrics,
      clock,
      wakeDeliveries: () => engine.wake(),
      silences,
      // The console signs in on the admin listener only. Keys change only with a restart today, which empties
      // the sessions anyway; reading them through a function keeps revocation right if they are ever reloaded.
      sessions:
        config.admin.listen === null
          ? undefined
          : createConsoleSessions({ clock, ttlMs: config.admin.console.sessionTtlMs, keys: () => config.admin.keys }),
    });
    const appOptions = {
      metrics,
      metricsGuard: requireMetricsCredential({ token: config.adminToken, keys: config.admin.keys, refusals }),
      readiness: () =>
        checkReadiness({
          accepting: () => accepting,
          store,
          rulesVersion: () => rules.current().version,
          reloadStatus: rules.status,
          lastCommitError: () => groupCommit.lastError(),
          clearCommitError: () => groupCommit.clearError(),
          // Four of the largest events: each is written twice (the WAL, then the checkpoint into the file).
          freeBytes,
          roomBytes: 4 * config.maxBodyBytes,
        }),
    };
    const { listen: adminListen, healthAndMetrics } = config.admin;
    const admin = createAdminApp({
      ...appOptions,
      healthAndMetrics: healthAndMetrics === 'main',
      api: adminListen === null ? adminApi : undefined,
      apiPrefix: '/admin',
    });
    const server = createHttpServer(ingest, admin, {
      headersTimeoutMs: config.headerTimeoutMs,
      bodyTimeoutMs: config.bodyTimeoutMs,
      maxConnections: config.maxConnections,
    });
    const main = await startListener(server, config.listen.host, config.listen.port);
    accepting = true;
    releases.push(() => {
      accepting = false;
      return main.close();
    });
    const port = main.port;
    const adminListener = await startAdminListener(config, appOptions, adminApi, options.consoleDir ?? consoleDir());
    if (adminListener !== null) releases.push(() => adminListener.close());
    const adminPort = adminListener?.port ?? null;
    log.info('switchyard listening', {
      host: config.listen.host,
      port,
      admin_port: adminPort,
      rules: config.rules,
      rules_version: rules.current().version,
      journal: describeStore(config.store),
      sources: [...config.sources.keys()],
    });

    let closing: Promise<void> | undefined;
    return {
      config,
      log,
      port,
      adminPort,
      reloadRules: () => rules.reload('signal').ok,
      close() {
        closing ??= release().then(() => log.info('switchyard stopped'));
        return closing;
      },
    };
  } catch (error) {
    await release();
    throw error;
  }
}
