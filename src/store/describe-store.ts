import type { StoreConfig } from '../config/config.js';

/**
 * The journal as logs and CLI output name it: the SQLite file, or PostgreSQL's host, database and schema
 * without the user name or password (the URL itself is a secret).
 */
export function describeStore(config: StoreConfig): string {
  if (config.kind === 'sqlite') return config.path;
  const schema = config.schema === null ? '' : ` (schema ${config.schema})`;
  if (!URL.canParse(config.url)) return `postgres${schema}`;
  const url = new URL(config.url);
  return `postgres://${url.host}${url.pathname}${schema}`;
}
