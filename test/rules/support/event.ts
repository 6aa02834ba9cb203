import type { Envelope } from '../../../src/ingest/envelope.js';

/** An envelope for routing tests. */
export function event(kind: string, data: Record<string, unknown> = {}): Envelope {
  return { event: kind, timestamp: '2026-11-22T10:00:00Z', data };
}
