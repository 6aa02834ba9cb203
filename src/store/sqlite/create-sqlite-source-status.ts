import type Database from 'better-sqlite3';
import type { SourceSighting, SourceSilence } from '../source-status.js';

const RETURNED = 'last_event_at AS lastEventAt, rejected, silent_raised_at AS raisedAt';

/** The source_status table of the SQLite journal (migration 4). */
export function createSqliteSourceStatus(db: Database.Database) {
  // The latest verified event wins; rejections count from it (a newer event resets them).
  const upsert = db.prepare<[{ source: string; at: number; rejected: number; seen: number | null }]>(
    `INSERT INTO source_status (source, last_event_at, rejected) VALUES (@source, @at, @rejected)
     ON CONFLICT (source) DO UPDATE SET
       rejected = CASE WHEN @seen IS NOT NULL AND @seen > last_event_at THEN @rejected ELSE rejected + @rejected END,
       last_event_at = max(last_event_at, coalesce(@seen, last_event_at))`,
  );
  const silent = db.prepare<[now: number, source: string, cutoff: number], SourceSilence>(
    `UPDATE source_status SET silent_raised_at = ?
     WHERE source = ? AND silent_raised_at IS NULL AND last_event_at <= ? RETURNING ${RETURNED}`,
  );
  const findRecovered = db.prepare<[source: string], SourceSilence>(
    `SELECT ${RETURNED} FROM source_status
     WHERE source = ? AND silent_raised_at IS NOT NULL AND last_event_at >= silent_raised_at`,
  );
  const clear = db.prepare<[source: string]>('UPDATE source_status SET silent_raised_at = NULL WHERE source = ?');
  const recovered = db.transaction((source: string): SourceSilence | undefined => {
    const row = findRecovered.get(source);
    if (row !== undefined) clear.run(source);
    return row;
  });
  const record = db.transaction((sightings: readonly SourceSighting[], now: number) => {
    for (const s of sightings) {
      upsert.run({ source: s.source, at: s.lastEventAt ?? now, rejected: s.rejected, seen: s.lastEventAt });
    }
  });
  return {
    recordSourceSightings: (sightings: readonly SourceSighting[], now: number): void =>
      record.immediate(sightings, now),
    markSourceSilent: (source: string, cutoff: number, now: number): SourceSilence | undefined =>
      silent.get(now, source, cutoff),
    markSourceRecovered: (source: string): SourceSilence | undefined => recovered.immediate(source),
  };
}
