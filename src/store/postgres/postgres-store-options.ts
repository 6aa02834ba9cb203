import type { PoolConfig } from 'pg';
import type { Clock } from '../../clock.js';

export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database`; or leave it out and give `pool.host`, `pool.user`, ... */
  readonly url?: string;
  /** Further `pg.Pool` settings (max, ssl, ...); `url` and the options below win over the same keys here. */
  readonly pool?: PoolConfig;
  /**
   * The schema holding the journal's tables (created by `migrate()` when missing); default: the connection's
   * search_path, usually `public`. Lowercase letters, digits and `_`, so it never needs quoting.
   */
  readonly schema?: string;
  /** How long to wait for a connection before failing as `journal_unavailable`; default 5000. */
  readonly connectionTimeoutMs?: number;
  /** Server-side limit per statement (and per idle open transaction), failing as `journal_unavailable`; default 15000. */
  readonly statementTimeoutMs?: number;
  readonly clock?: Clock;
}
