import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { ADMIN_API_METRICS } from '../../../src/admin/api/admin-api-metrics.js';
import { SWITCHYARD_METRICS } from '../../../src/admin/switchyard-metrics.js';
import { createAdminApi } from '../../../src/admin/api/create-admin-api.js';
import { createAuthRefusals } from '../../../src/admin/api/create-auth-refusals.js';
import { createConsoleSessions } from '../../../src/admin/api/create-console-sessions.js';
import type { AuthThrottleOptions } from '../../../src/admin/auth-throttle.js';
import type { RefusalLogLimitOptions } from '../../../src/admin/refusal-log-limit.js';
import { createMetrics, type Metrics } from '../../../src/admin/metrics.js';
import { manualClock } from '../../../src/clock.js';
import type { AdminKeyConfig } from '../../../src/config/config.js';
import type { TargetStatus } from '../../../src/delivery/target-status.js';
import { createLogger } from '../../../src/log/create-logger.js';
import type { CompiledRules, RulesProblem } from '../../../src/rules/rules.js';
import type { Store } from '../../../src/store/store.js';
import { candidateRulesCompiler } from '../../../src/rules/compile-candidate-rules.js';
import type { RulesHistory } from '../../../src/rules/create-live-rules.js';
import { T0 } from '../../store/make-ingest-item.js';
import type { TestJournal } from '../../store/store-contract.js';
import { tempSqliteJournal } from '../../store/temp-sqlite-journal.js';
import { ALL_KEYS } from './test-keys.js';

/** The harness clock's time: one hour after the seeded events. */
export const NOW = T0 + 3_600_000;

export interface AdminApiHarness {
  readonly url: string;
  readonly store: Store;
  readonly metrics: Metrics;
  /** Everything logged, as text (JSON lines). */
  readonly logs: () => string;
  readonly wakes: () => number;
  /** The harness's clock (starts at NOW), to move the auth throttle's time. */
  readonly clock: ReturnType<typeof manualClock>;
  /** Replaces the configured keys the console's sessions are checked against (a rotation, a removal). */
  setKeys(keys: readonly AdminKeyConfig[]): void;
  /** Sends a request, with `Authorization: Bearer <key>` when a key is given; answers status, headers and body. */
  request(
    path: string,
    options?: { key?: string; method?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; headers: Headers; body: unknown; text: string }>;
  close(): Promise<void>;
}

/**
 * A real express app with the admin API on a free loopback port, over a real, migrated SQLite journal in a
 * temp folder. `rules` is mutable through `reloadRules`, as in the daemon (without it, a reload is refused).
 */
export async function startAdminApi(options: {
  rules: CompiledRules;
  keys?: readonly AdminKeyConfig[];
  engineStatus?: () => readonly TargetStatus[];
  /** The new rules, or the problems of an invalid file. */
  reloadRules?: () => CompiledRules | readonly RulesProblem[];
  prefix?: string;
  throttle?: AuthThrottleOptions;
  logLimit?: RefusalLogLimitOptions;
  /** The environment candidate rules are compiled with (POST /rules/check); default none. */
  env?: Readonly<Record<string, string>>;
  /** Console sessions of this TTL (none without it: the API as mounted under /admin on the main listener). */
  sessionTtlMs?: number;
  /** The journal to serve; default a temp SQLite one (tempPostgresJournal for PostgreSQL). */
  journal?: () => Promise<TestJournal>;
}): Promise<AdminApiHarness> {
  const journal = await (options.journal ?? (() => tempSqliteJournal()))();
  const store = await journal.open();
  await store.migrate();
  let lines = '';
  const log = createLogger({
    level: 'debug',
    stream: new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines += chunk.toString('utf8');
        done();
      },
    }),
  });
  // As the daemon declares them: the admin API counts skips in the engine's counter.
  const metrics = createMetrics([...SWITCHYARD_METRICS, ...ADMIN_API_METRICS]);
  let rules = options.rules;
  let history: RulesHistory = { loadedAt: NOW - 60_000, lastReload: null };
  let wakes = 0;
  const clock = manualClock(NOW);
  let keys = options.keys ?? ALL_KEYS;
  const sessions =
    options.sessionTtlMs === undefined
      ? undefined
      : createConsoleSessions({ clock, ttlMs: options.sessionTtlMs, keys: () => keys });
  const api = createAdminApi({
    store,
    rules: () => rules,
    engineStatus: options.engineStatus ?? (() => []),
    reloadRules: () => {
      const next = options.reloadRules?.() ?? [];
      const at = clock.now();
      if (Array.isArray(next)) {
        history = { ...history, lastReload: { ok: false, at, problems: next } };
        return { ok: false, problems: next };
      }
      rules = next as CompiledRules;
      history = { loadedAt: at, lastReload: { ok: true, at, problems: [] } };
      return { ok: true };
    },
    rulesHistory: () => history,
    checkRules: candidateRulesCompiler('/nonexistent/rules.yaml', options.env ?? {}),
    keys: options.keys ?? ALL_KEYS,
    refusals: createAuthRefusals({ log, metrics, clock, throttle: options.throttle, logLimit: options.logLimit }),
    log,
    metrics,
    clock,
    wakeDeliveries: () => void (wakes += 1),
    sessions,
  });
  const app = express();
  app.use(options.prefix ?? '/', api);
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${options.prefix ?? ''}`;
  return {
    url,
    store,
    metrics,
    logs: () => lines,
    wakes: () => wakes,
    clock,
    setKeys: (next) => void (keys = next),
    async request(path, { key, method, body, headers } = {}) {
      const response = await fetch(`${url}${path}`, {
        method: method ?? (body === undefined ? 'GET' : 'POST'),
        headers: {
          ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
          ...(body === undefined || typeof body === 'string' ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown = undefined;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      return { status: response.status, headers: response.headers, body: parsed, text };
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await store.close();
      await journal.dispose();
    },
  };
}
