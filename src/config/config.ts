import type { LogLevel } from '../log/logger.js';
import type { ConfigProblem } from './config-problem.js';

/** One webhook sender, reachable at `POST /webhooks/<name>`. */
export interface SourceConfig {
  readonly name: string;
  /** Active HMAC secrets, current first; any one matching is enough (rotation). */
  readonly secrets: readonly string[];
  /** Reject events whose envelope timestamp is older than this (replay protection); null = off. */
  readonly maxEventAgeMs: number | null;
  /**
   * Issue 12: raise `switchyard.source_silent` when no verified event came from this source for this long
   * (and `switchyard.source_recovered` once one does); null = not watched.
   */
  readonly expectEventsWithinMs: number | null;
}

/**
 * What an admin API key may do: `read` the journal, rules and status; `replay` deliveries and reload rules;
 * `silence` add and change silences; `repair` skip dead deliveries and set or clear a key's references.
 */
export type AdminScope = 'read' | 'replay' | 'silence' | 'repair';

/** One admin API key as configured: its name (for logs) and the hash of the key, never the key itself. */
export interface AdminKeyConfig {
  readonly name: string;
  /** `sha256:<64 lowercase hex>` of the whole key text (`sy_...`). */
  readonly hash: string;
  readonly scopes: readonly AdminScope[];
}

export interface AdminConfig {
  /** The admin API's own listener (default 127.0.0.1:9090); null = served under /admin on the main listener. */
  readonly listen: { readonly host: string; readonly port: number } | null;
  /** Empty: the admin API's own listener does not open; where the API is served, it answers every request with 403. */
  readonly keys: readonly AdminKeyConfig[];
  /** Where /metrics, /healthz and /readyz are served: the main listener (default, as Alertmanager does) or the admin one. */
  readonly healthAndMetrics: 'main' | 'admin';
  /** The web console's sign-in sessions (`admin.console`). */
  readonly console: { readonly sessionTtlMs: number };
}

/** The embedded journal: one file, one daemon (the default). */
export interface SqliteStoreConfig {
  readonly kind: 'sqlite';
  readonly path: string;
  readonly busyTimeoutMs: number;
}

/** The shared journal: several daemons on one PostgreSQL database. */
export interface PostgresStoreConfig {
  readonly kind: 'postgres';
  /** `postgres://user:password@host:port/database`: a secret (its password), masked in logs. */
  readonly url: string;
  /** The schema holding the journal's tables; null: the connection's search_path (usually `public`). */
  readonly schema: string | null;
  /** Connections per daemon. */
  readonly poolSize: number;
}

/** Which journal the daemon uses: exactly one backend. */
export type StoreConfig = SqliteStoreConfig | PostgresStoreConfig;

/** The daemon's validated, frozen configuration: every path absolute, every duration in ms. */
export interface Config {
  /** The file it came from, or null when built from defaults and the environment only. */
  readonly file: string | null;
  readonly listen: { readonly host: string; readonly port: number };
  readonly rules: string;
  readonly store: StoreConfig;
  readonly sources: ReadonlyMap<string, SourceConfig>;
  readonly dedupeWindowMs: number;
  readonly maxBodyBytes: number;
  /** A client that has not finished sending its body after this long is cut off. */
  readonly bodyTimeoutMs: number;
  /** Request bodies held at once past each body's first 16 KiB; past it ingest answers 503 `ingest_busy`. */
  readonly maxBodyInFlightBytes: number;
  /** Open connections on the main listener; past it new connections are closed at once. */
  readonly maxConnections: number;
  /** A client that has not finished sending its request headers after this long is disconnected. */
  readonly headerTimeoutMs: number;
  /** On SIGTERM/SIGINT, how long attempts in flight may take before they are aborted (and retried after restart). */
  readonly shutdownGraceMs: number;
  readonly log: { readonly level: LogLevel };
  /** Legacy bearer token for /metrics (a `read`-scoped admin key works too); with neither, /metrics stays closed. */
  readonly adminToken: string | null;
  readonly admin: AdminConfig;
  /** The source secrets, the admin token and the database URL (with its password): the logger masks them. */
  readonly secrets: readonly string[];
  readonly retention: RetentionConfig;
  /** What loaded but deserves a look: options that were removed and are ignored (removed-options.ts). */
  readonly warnings: readonly ConfigProblem[];
}

/** How long the journal keeps finished events and dead letters (docs/operations.md#journal-retention). */
export interface RetentionConfig {
  /** False: nothing is ever removed (the journal grows without bound). */
  readonly enabled: boolean;
  /** An event whose deliveries are all delivered goes this long after its receipt and its last delivery. */
  readonly eventsMs: number;
  /** A dead letter goes this long after it died (and never before `eventsMs`). */
  readonly deadMs: number;
  /**
   * An incident record not resolved goes this long after its last event (and never before `eventsMs`), once
   * none of its deliveries is pending (docs/incidents.md#retention). Absent: only resolved records go.
   */
  readonly incidentsIdleMs?: number;
  /** How often the background pruner makes a pass. */
  readonly intervalMs: number;
  /** Events looked at per transaction. */
  readonly batchSize: number;
}
