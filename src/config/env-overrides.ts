import path from 'node:path';

/**
 * Environment variables that override the config file, applied before validation so a bad value is
 * reported under the variable's name. Paths given here are relative to the working directory (where the
 * operator typed them), unlike paths in the file, which are relative to the file.
 * SWITCHYARD_DATABASE_URL chooses PostgreSQL (the file's `store.sqlite`, if any, is dropped: the variable wins);
 * SWITCHYARD_SQLITE_PATH only moves the SQLite file and is ignored on PostgreSQL, because the container image
 * sets it by default and it must not turn a PostgreSQL config back into a private SQLite journal.
 */
export const ENV_OVERRIDES = [
  { name: 'SWITCHYARD_HOST', key: ['listen', 'host'], kind: 'string' },
  { name: 'SWITCHYARD_PORT', key: ['listen', 'port'], kind: 'integer' },
  { name: 'SWITCHYARD_RULES', key: ['rules'], kind: 'path' },
  { name: 'SWITCHYARD_DATABASE_URL', key: ['store', 'postgres', 'url'], kind: 'string' },
  { name: 'SWITCHYARD_SQLITE_PATH', key: ['store', 'sqlite', 'path'], kind: 'path' },
  { name: 'SWITCHYARD_DEDUPE_WINDOW', key: ['dedupe_window'], kind: 'string' },
  { name: 'SWITCHYARD_MAX_BODY', key: ['max_body'], kind: 'string' },
  { name: 'SWITCHYARD_BODY_TIMEOUT', key: ['body_timeout'], kind: 'string' },
  { name: 'SWITCHYARD_LOG_LEVEL', key: ['log', 'level'], kind: 'string' },
  { name: 'SWITCHYARD_ADMIN_TOKEN', key: ['admin', 'token'], kind: 'string' },
] as const;

/** Writes the overrides present in `env` into the raw (pre-validation) config object; returns the names applied. */
export function applyEnvOverrides(
  raw: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): string[] {
  const applied: string[] = [];
  for (const override of ENV_OVERRIDES) {
    const text = env[override.name];
    if (text === undefined || text === '') continue;
    const store = raw.store as Record<string, unknown> | undefined;
    if (override.name === 'SWITCHYARD_SQLITE_PATH' && isObject(store?.postgres)) continue;
    if (override.name === 'SWITCHYARD_DATABASE_URL' && isObject(store)) delete store.sqlite;
    let value: unknown = text;
    if (override.kind === 'integer') value = /^\d+$/.test(text.trim()) ? Number(text.trim()) : text;
    if (override.kind === 'path') value = path.resolve(cwd, text);
    setIn(raw, override.key, value);
    applied.push(override.name);
  }
  return applied;
}

function setIn(target: Record<string, unknown>, key: readonly string[], value: unknown): void {
  let node = target;
  for (const part of key.slice(0, -1)) {
    const next = node[part];
    if (!isObject(next)) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[key[key.length - 1] as string] = value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
