/**
 * One numbered schema change. Migrations are TypeScript modules rather than .sql files because tsc copies
 * only .ts output into dist/. Never edit a released migration: add the next number instead.
 */
export interface SqliteMigration {
  /** 1, 2, 3, ... without gaps; recorded in `schema_migrations` once applied. */
  readonly version: number;
  readonly name: string;
  /** One or more statements, run in the migration's own transaction. */
  readonly sql: string;
  /**
   * Rebuilds a table that others reference (SQLite cannot alter a CHECK constraint): foreign keys are switched
   * off around the migration's transaction and checked before it commits, as SQLite's documented procedure for
   * other table changes says. https://www.sqlite.org/lang_altertable.html#otheralter
   */
  readonly rebuildsTables?: boolean;
}
