import Database from 'better-sqlite3';
import pg from 'pg';

/** What the pipeline benchmark reads from a daemon's journal: the events received since a moment. */
export interface PipelineJournal {
  count(since: number): Promise<number>;
  /** Each event's incident id (from its body) and `received_at`. */
  received(since: number): Promise<{ id: string; at: number }[]>;
  /**
   * Reading it is work for the server being measured (Alertmanager's API), so the round reads it only after
   * taking that server's CPU time, once the answered requests were delivered.
   */
  readonly readLoadsServer?: boolean;
  /** PostgreSQL: the pids of the backends whose `application_name` is this (the daemons' connections). */
  backendPids?(applicationName: string): Promise<number[]>;
  close(): Promise<void>;
}

/** The SQLite journal, read-only beside the daemon (WAL lets a reader in while it writes). */
export function sqlitePipelineJournal(path: string): PipelineJournal {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  const count = db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM events WHERE received_at >= ?');
  const received = db.prepare<[number], { id: string; at: number }>(
    `SELECT json_extract(CAST(body AS TEXT), '$.data.incident_id') AS id, received_at AS at FROM events
     WHERE received_at >= ?`,
  );
  return {
    count: async (since) => count.get(since)?.n ?? 0,
    received: async (since) => received.all(since),
    close: async () => void db.close(),
  };
}

/** A PostgreSQL journal: the daemon's schema, through a client of the benchmark's own. */
export async function postgresPipelineJournal(url: string, schema: string): Promise<PipelineJournal> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  return {
    async count(since) {
      const { rows } = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM ${schema}.events WHERE received_at >= $1`,
        [since],
      );
      return Number(rows[0]?.n ?? 0);
    },
    async received(since) {
      const { rows } = await client.query<{ id: string; at: string }>(
        `SELECT convert_from(body, 'UTF8')::json -> 'data' ->> 'incident_id' AS id, received_at AS at
         FROM ${schema}.events WHERE received_at >= $1`,
        [since],
      );
      return rows.map((row) => ({ id: row.id, at: Number(row.at) }));
    },
    async backendPids(applicationName) {
      const { rows } = await client.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE application_name = $1',
        [applicationName],
      );
      return rows.map((row) => row.pid);
    },
    close: () => client.end(),
  };
}
