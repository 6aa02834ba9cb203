import type { Envelope } from '../ingest/envelope.js';
import type { SourceSilence } from '../store/source-status.js';

const iso = (ms: number): string => new Date(ms).toISOString();
const minutes = (ms: number): string => `${Math.round(ms / 60_000)}m`;

/**
 * The events Switchyard raises about a watched source (`expect_events_within`): `switchyard.source_silent`,
 * with the highest configured severity (a source gone quiet hides every incident it would have sent), and
 * `switchyard.source_recovered`, with none. `rejected_requests` tells a rotated secret (requests arrive but
 * fail verification) from a dead subscription (nothing arrives).
 */
export function sourceSignalEvent(
  signal: 'silent' | 'recovered',
  source: string,
  status: SourceSilence,
  context: { readonly now: number; readonly windowMs: number; readonly highestSeverity: string | undefined },
): Envelope {
  const { now, windowMs } = context;
  const common = { source, last_event_at: iso(status.lastEventAt), expected_within: minutes(windowMs) };
  if (signal === 'recovered') {
    return {
      event: 'switchyard.source_recovered',
      timestamp: iso(now),
      data: { ...common, title: `Events from ${source} are arriving again`, silent_since: iso(status.raisedAt) },
    };
  }
  const why =
    status.rejected > 0
      ? `; ${status.rejected} requests failed signature verification (a secret rotated on one side only?)`
      : '';
  return {
    event: 'switchyard.source_silent',
    timestamp: iso(now),
    data: {
      ...common,
      ...(context.highestSeverity !== undefined && { severity: context.highestSeverity }),
      title: `No verified events from ${source} for ${minutes(now - status.lastEventAt)}${why}`,
      rejected_requests: status.rejected,
    },
  };
}
