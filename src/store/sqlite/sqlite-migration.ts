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
}
