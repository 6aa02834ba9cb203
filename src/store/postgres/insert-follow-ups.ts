import type pg from 'pg';
import { reachedTargetsSql } from '../reached-targets-sql.js';
import type { IngestItem } from '../store.js';
import { numbered } from './numbered.js';
import { unnamed } from './prepared.js';

// Planned per call (prepared.ts): it joins deliveries by event, whose best plan depends on the table's size.
const followUps = unnamed(
  `WITH reached AS (${numbered(reachedTargetsSql('d.event_id <> ALL(?::text[])'))})
   INSERT INTO deliveries (event_id, target, state, held_by, correlation_key, next_attempt_at, created_at,
     updated_at, retry_from)
   SELECT $4, c.target, coalesce(c.state, 'pending'), c.held_by, c.key, $5, $5, $5, $5
   FROM unnest($6::text[], $7::text[], $8::text[], $9::text[]) WITH ORDINALITY AS c (target, key, state, held_by, n)
   WHERE c.target IN (SELECT target FROM reached)
   ORDER BY c.n
   RETURNING target`,
);

/**
 * In the ingest transaction, after the group's other rows: each update or resolve's follow-ups to the targets
 * its incident reached (src/lifecycle/follow-targets.ts), one statement per such event, in order. An event
 * sees the deliveries of the events before it in the group, not its own nor those of later ones. The group
 * holds the incident's advisory lock (dedupe-lock-keys.ts), so no other instance adds to the incident meanwhile.
 * Returns the followed targets by event id.
 */
export async function insertFollowUps(
  client: pg.PoolClient,
  fresh: readonly IngestItem[],
): Promise<Map<string, string[]>> {
  const followed = new Map<string, string[]>();
  for (const [index, { event, incident, follow }] of fresh.entries()) {
    if (incident === undefined || follow === undefined) continue;
    const notYet = fresh.slice(index).map((item) => item.event.id);
    const { rows } = await client.query<{ target: string }>(
      followUps([
        event.source,
        incident.key,
        notYet,
        event.id,
        event.receivedAt,
        follow.map((c) => c.target),
        follow.map((c) => c.key),
        follow.map((c) => c.hold?.state ?? null),
        follow.map((c) => c.hold?.by ?? null),
      ]),
    );
    if (rows.length > 0)
      followed.set(
        event.id,
        rows.map((row) => row.target),
      );
  }
  return followed;
}
