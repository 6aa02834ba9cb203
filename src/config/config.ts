import type { LogLevel } from '../log/logger.js';

/** One webhook sender, reachable at `POST /webhooks/<name>`. */
export interface SourceConfig {
  readonly name: string;
  /** Active HMAC secrets, current first; any one matching is enough (rotation). */
  readonly secrets: readonly string[];
  /** Reject events whose envelope timestamp is older than this (replay protection); null = off. */
  readonly maxEventAgeMs: number | null;
}

/** The daemon's validated, frozen configuration: every path absolute, every duration in ms. */
export interface Config {
  /** The file it came from, or null when built from defaults and the environment only. */
  readonly file: string | null;
  readonly listen: { readonly host: string; readonly port: number };
  readonly rules: string;
  readonly store: { readonly sqlite: { readonly path: string; readonly busyTimeoutMs: number } };
  readonly sources: ReadonlyMap<string, SourceConfig>;
  readonly dedupeWindowMs: number;
  readonly maxBodyBytes: number;
  /** A client that has not finished sending its body after this long is cut off. */
  readonly bodyTimeoutMs: number;
  readonly log: { readonly level: LogLevel };
  /** Bearer token for /metrics and other admin routes; null keeps them closed. */
  readonly adminToken: string | null;
  /** The source secrets and the admin token: the logger masks them wherever they would appear. */
  readonly secrets: readonly string[];
}
