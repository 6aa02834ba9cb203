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

/**
 * A statement PostgreSQL plans anew for each call, with the table as it is then, for statements whose plan
 * depends on how big `deliveries` is. A named one may keep a generic plan made when the connection first used
 * it: on a new, nearly empty journal the lease's updated the claimed rows through a sequential scan of
 * `deliveries`, and the record's joined every pending delivery for each record, until an ANALYZE replaced them,
 * so a claim or a record cost more with every delivery since the start (docs/decisions/postgres-plans-per-call.md). Planning costs about 0.5 ms per call.
 */
export function unnamed(text: string): (values: readonly unknown[]) => pg.QueryConfig {
  return (values) => ({ text, values: [...values] });
}
