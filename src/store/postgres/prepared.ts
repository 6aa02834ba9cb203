import type pg from 'pg';

/**
 * A named (prepared) statement: each connection parses and analyses it once, on first use, instead of once
 * per call; after five executions PostgreSQL keeps a generic plan when it costs no more than the custom ones.
 * Meant for the statements every ingest group, claim and attempt record runs. `name` must be unique in the
 * process and `text` constant (pg refuses a name reused with another text on one connection).
 * https://www.postgresql.org/docs/current/sql-prepare.html
 */
export function prepared(name: string, text: string): (values: readonly unknown[]) => pg.QueryConfig {
  const statement = `switchyard_${name}`;
  return (values) => ({ name: statement, text, values: [...values] });
}
