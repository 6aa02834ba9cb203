import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import type { LogLevel } from '../log/logger.js';
import { expandEnvRefs } from '../rules/env/expand-env-refs.js';
import { compileSchema } from '../rules/schema/compile-schema.js';
import { parseJsonPointer } from '../rules/schema/parse-json-pointer.js';
import { createLocator } from '../rules/source/locate-path.js';
import { SwitchyardError } from '../switchyard-error.js';
import type { AdminConfig, AdminKeyConfig, Config, SourceConfig, StoreConfig } from './config.js';
import { formatKey, type ConfigProblem } from './config-problem.js';
import { configSchema } from './config-schema.js';
import { crossKeyProblems } from './cross-key-problems.js';
import { describeConfigError } from './describe-config-error.js';
import { databaseUrlSecrets } from './database-url-secrets.js';
import { applyEnvOverrides, ENV_OVERRIDES } from './env-overrides.js';
import { parseDuration } from './parse-duration.js';
import { parseSize } from './parse-size.js';
import { dropRemovedOptions } from './removed-options.js';

export const DEFAULT_CONFIG_FILE = 'config/switchyard.yaml';

const DEFAULTS = {
  host: '0.0.0.0',
  port: 8080,
  rules: './rules.yaml',
  sqlitePath: './data/switchyard.db',
  busyTimeout: '1s',
  // pg's own default.
  poolSize: 10,
  dedupeWindow: '7d',
  maxBody: '1mb',
  bodyTimeout: '10s',
  // With max_connections, bounds what unauthenticated senders can make the daemon hold: 32 MiB plus
  // 2,048 x 16 KiB (each body's first bytes) = 64 MiB of bodies at most (issue 10, item 2).
  maxBodyInFlight: '32mb',
  maxConnections: 2048,
  headerTimeout: '10s',
  shutdownGrace: '10s',
  logLevel: 'info' as LogLevel,
  // Loopback only: the admin API must be exposed on purpose (a reverse proxy, or a host set here).
  adminHost: '127.0.0.1',
  adminPort: 9090,
  // A shift's length: a console left open overnight asks for the key again in the morning.
  sessionTtl: '8h',
  retentionEvents: '30d',
  retentionDead: '90d',
  retentionIncidentsIdle: '30d',
  retentionInterval: '1h',
  retentionBatchSize: 500,
};

// As the rules schema is compiled: `verbose` lets a message suggest the key or value meant.
const validate = compileSchema(configSchema);

export interface LoadConfigOptions {
  /** `--config`; else `SWITCHYARD_CONFIG`; else `config/switchyard.yaml` under `cwd`. */
  readonly file?: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /**
   * False for commands that only read the journal (`switchyard deliveries`, `replay`): a missing `${VAR}`
   * (a webhook secret the operator's shell does not have) is then not an error. Default true.
   */
  readonly requireEnv?: boolean;
}

/**
 * Reads the config file, expands `${VAR}`, applies environment overrides, validates the result against the
 * schema once and returns a frozen `Config`. Every problem is collected and thrown together as one
 * `invalid_config` error, so an operator fixes them in one pass.
 */
export function loadConfig(options: LoadConfigOptions): Config {
  const file = path.resolve(options.cwd, options.file ?? options.env.SWITCHYARD_CONFIG ?? DEFAULT_CONFIG_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new SwitchyardError('invalid_config', `cannot read config file ${file}: ${(error as Error).message}`, {
      where: file,
    });
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    const problems = doc.errors.map((error) => {
      const { line, col } = lines.linePos(error.pos[0]);
      return { key: '', message: error.message.split('\n')[0] ?? error.code, where: `${file}:${line}:${col}` };
    });
    throw toError(problems);
  }
  const raw: unknown = doc.toJS() ?? {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw toError([{ key: '', message: 'the config file must be a YAML mapping', where: file }]);
  }

  const problems: ConfigProblem[] = [];
  const locator = createLocator(doc, lines);
  const locate = (parts: readonly (string | number)[], part?: 'key'): string => {
    const { line, column } = locator(parts, part);
    return `${file}:${line}:${column}`;
  };
  const expanded = expandStrings(raw, [], options.env, (parts, missing, substituted, malformed) => {
    if (malformed !== undefined) {
      problems.push({ key: formatKey(parts), message: malformed, where: locate(parts) });
    }
    for (const name of options.requireEnv === false ? [] : missing) {
      problems.push({
        key: formatKey(parts),
        message: `environment variable ${name} is not set`,
        where: locate(parts),
      });
    }
  }) as Record<string, unknown>;
  const overridden = applyEnvOverrides(expanded, options.env, options.cwd);
  const warnings = dropRemovedOptions(expanded, locate);

  if (!validate(expanded)) {
    for (const error of validate.errors ?? []) {
      const parts = parseJsonPointer(error.instancePath);
      if (error.keyword === 'additionalProperties') parts.push(String(error.params.additionalProperty));
      const key = formatKey(parts);
      const fromEnv = ENV_OVERRIDES.find((o) => overridden.includes(o.name) && formatKey(o.key) === key);
      const message = describeConfigError(error);
      // An unknown key is pointed at itself, as the rules' errors are.
      const part = error.keyword === 'additionalProperties' ? 'key' : undefined;
      problems.push({ key, message, where: fromEnv ? fromEnv.name : locate(parts, part) });
    }
  }
  if (problems.length === 0) problems.push(...crossKeyProblems(expanded as unknown as RawConfig, locate, DEFAULTS));
  if (problems.length > 0) throw toError(problems);
  return build(expanded as unknown as RawConfig, file, options.env.SWITCHYARD_ADMIN_TOKEN, warnings);
}

export interface RawConfig {
  listen?: { host?: string; port?: number };
  rules?: string;
  store?: {
    sqlite?: { path: string; busy_timeout?: string };
    postgres?: { url: string; schema?: string; pool_size?: number };
  };
  sources: Record<string, { secrets: string[]; max_event_age?: string; expect_events_within?: string }>;
  dedupe_window?: string;
  max_body?: string;
  body_timeout?: string;
  max_body_in_flight?: string;
  max_connections?: number;
  header_timeout?: string;
  shutdown_grace?: string;
  log?: { level?: LogLevel };
  admin?: {
    token?: string;
    health_and_metrics?: 'main' | 'admin';
    listen?: { host?: string; port?: number } | null;
    keys?: { name: string; hash: string; scopes: AdminKeyConfig['scopes'] }[];
    console?: { session_ttl?: string };
  };
  retention?: {
    enabled?: boolean;
    events?: string;
    dead?: string;
    incidents_idle?: string;
    interval?: string;
    batch_size?: number;
  };
}

function buildAdmin(raw: RawConfig['admin']): AdminConfig {
  const listen = raw?.listen;
  return Object.freeze({
    listen:
      listen === null
        ? null
        : Object.freeze({ host: listen?.host ?? DEFAULTS.adminHost, port: listen?.port ?? DEFAULTS.adminPort }),
    healthAndMetrics: raw?.health_and_metrics ?? 'main',
    console: Object.freeze({ sessionTtlMs: parseDuration(raw?.console?.session_ttl ?? DEFAULTS.sessionTtl) ?? 0 }),
    keys: Object.freeze(
      (raw?.keys ?? []).map((key) =>
        Object.freeze({ name: key.name, hash: key.hash, scopes: Object.freeze([...key.scopes]) }),
      ),
    ),
  });
}

function build(raw: RawConfig, file: string, envToken: string | undefined, warnings: readonly ConfigProblem[]): Config {
  const dir = path.dirname(file);
  const ms = (text: string): number => parseDuration(text) ?? 0; // the schema already checked the form
  const sources = new Map<string, SourceConfig>();
  for (const [name, source] of Object.entries(raw.sources)) {
    sources.set(
      name,
      Object.freeze({
        name,
        secrets: Object.freeze([...source.secrets]),
        maxEventAgeMs: source.max_event_age === undefined ? null : ms(source.max_event_age),
        expectEventsWithinMs: source.expect_events_within === undefined ? null : ms(source.expect_events_within),
      }),
    );
  }
  const adminToken = raw.admin?.token ?? null;
  const postgres = raw.store?.postgres;
  const store: StoreConfig = Object.freeze(
    postgres === undefined
      ? {
          kind: 'sqlite' as const,
          path: path.resolve(dir, raw.store?.sqlite?.path ?? DEFAULTS.sqlitePath),
          busyTimeoutMs: ms(raw.store?.sqlite?.busy_timeout ?? DEFAULTS.busyTimeout),
        }
      : {
          kind: 'postgres' as const,
          url: postgres.url,
          schema: postgres.schema ?? null,
          poolSize: postgres.pool_size ?? DEFAULTS.poolSize,
        },
  );
  return Object.freeze({
    file,
    listen: Object.freeze({ host: raw.listen?.host ?? DEFAULTS.host, port: raw.listen?.port ?? DEFAULTS.port }),
    rules: path.resolve(dir, raw.rules ?? DEFAULTS.rules),
    store,
    sources,
    dedupeWindowMs: ms(raw.dedupe_window ?? DEFAULTS.dedupeWindow),
    maxBodyBytes: parseSize(raw.max_body ?? DEFAULTS.maxBody) ?? 0,
    bodyTimeoutMs: ms(raw.body_timeout ?? DEFAULTS.bodyTimeout),
    maxBodyInFlightBytes: parseSize(raw.max_body_in_flight ?? DEFAULTS.maxBodyInFlight) ?? 0,
    maxConnections: raw.max_connections ?? DEFAULTS.maxConnections,
    headerTimeoutMs: ms(raw.header_timeout ?? DEFAULTS.headerTimeout),
    shutdownGraceMs: ms(raw.shutdown_grace ?? DEFAULTS.shutdownGrace),
    log: Object.freeze({ level: raw.log?.level ?? DEFAULTS.logLevel }),
    adminToken,
    admin: buildAdmin(raw.admin),
    secrets: Object.freeze(
      [
        ...[...sources.values()].flatMap((s) => s.secrets),
        adminToken ?? '',
        envToken ?? '',
        ...(store.kind === 'postgres' ? databaseUrlSecrets(store.url) : []),
      ].filter(Boolean),
    ),
    warnings: Object.freeze(warnings.map((warning) => Object.freeze(warning))),
    retention: Object.freeze({
      enabled: raw.retention?.enabled ?? true,
      eventsMs: ms(raw.retention?.events ?? DEFAULTS.retentionEvents),
      deadMs: ms(raw.retention?.dead ?? DEFAULTS.retentionDead),
      incidentsIdleMs: ms(raw.retention?.incidents_idle ?? DEFAULTS.retentionIncidentsIdle),
      intervalMs: ms(raw.retention?.interval ?? DEFAULTS.retentionInterval),
      batchSize: raw.retention?.batch_size ?? DEFAULTS.retentionBatchSize,
    }),
  });
}

function expandStrings(
  value: unknown,
  parts: (string | number)[],
  env: Readonly<Record<string, string | undefined>>,
  report: (
    parts: (string | number)[],
    missing: readonly string[],
    substituted: readonly string[],
    malformed?: string,
  ) => void,
): unknown {
  if (typeof value === 'string') {
    // The same `${VAR}` syntax as the rules file; a set-but-empty variable counts as missing there too.
    const result = expandEnvRefs(value, env);
    if (!result.ok) {
      report(parts, [], [], result.reason);
      return value;
    }
    if (result.missing.length > 0 || result.substituted.length > 0) report(parts, result.missing, result.substituted);
    return result.value;
  }
  if (Array.isArray(value)) return value.map((item, index) => expandStrings(item, [...parts, index], env, report));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, expandStrings(item, [...parts, key], env, report)]),
    );
  }
  return value;
}

function toError(problems: readonly ConfigProblem[]): SwitchyardError {
  const lines = problems.map((p) => `${p.where}: ${p.key ? `${p.key}: ` : ''}${p.message}`);
  return new SwitchyardError('invalid_config', `invalid configuration:\n  ${lines.join('\n  ')}`, {
    where: problems[0]?.where,
  });
}
