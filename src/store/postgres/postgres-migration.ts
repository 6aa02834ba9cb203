/**
 * One numbered schema change for PostgreSQL. TypeScript modules rather than .sql files because tsc copies only
 * .ts output into dist/. Never edit a released migration: add the next number instead.
 */
export interface PostgresMigration {
  /** 1, 2, 3, ... without gaps; recorded in `schema_migrations` once applied. */
  readonly version: number;
  readonly name: string;
  /** One or more statements without parameters, run inside the migration run's transaction. */
  readonly sql: string;
}
