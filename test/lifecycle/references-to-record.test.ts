import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/delivery/outcome.js';
import { referencesToRecord } from '../../src/lifecycle/references-to-record.js';
import type { ClaimedDelivery } from '../../src/store/store.js';

const claimed = (kind: string, correlationKey: string | null, references: Record<string, string> | null = {}) =>
  ({ delivery: { correlationKey }, event: { kind }, references }) as unknown as ClaimedDelivery;
const delivered = (captured?: Record<string, string>): Outcome =>
  ({ kind: 'delivered', status: 201, detail: 'HTTP 201', captured }) as Outcome;

describe('referencesToRecord', () => {
  it('merges what was captured, clears after a resolve, and writes nothing without a key or a delivery', () => {
    expect(referencesToRecord(claimed('incident.created', 'k'), delivered({ ticket: 'SOC-1' }))).toEqual({
      merge: { ticket: 'SOC-1' },
    });
    expect(referencesToRecord(claimed('incident.updated', 'k'), delivered())).toEqual({ merge: {} });
    expect(referencesToRecord(claimed('incident.resolved', 'k'), delivered({ ticket: 'x' }))).toEqual({ clear: true });
    expect(referencesToRecord(claimed('incident.created', null), delivered({ ticket: 'x' }))).toBeUndefined();
    const failed = { kind: 'retry', detail: 'HTTP 503' } as unknown as Outcome;
    expect(referencesToRecord(claimed('incident.created', 'k'), failed)).toBeUndefined();
  });

  it("marks the delivery that started its key (sent with nothing remembered): a replay of it is the key's create", () => {
    expect(referencesToRecord(claimed('incident.created', 'k', null), delivered({ ticket: 'SOC-1' }))).toEqual({
      merge: { ticket: 'SOC-1' },
      started: true,
    });
    // A capture miss still starts the key: it is the ticket's create all the same.
    expect(referencesToRecord(claimed('incident.created', 'k', null), delivered())).toEqual({
      merge: {},
      started: true,
    });
    expect(referencesToRecord(claimed('incident.resolved', 'k', null), delivered())).toEqual({ clear: true });
  });

  // PostgreSQL's jsonb refuses both; a batch holding one would roll back and its attempts be sent again.
  it('stores U+0000 and lone surrogates from an answer as U+FFFD, and keeps pairs and other text as they are', () => {
    const captured = { a: 'SOC\u0000-1', b: 'x\uD800y', c: '\uDC00z', d: 'ok 🚨 ü', e: '\uD83D\uDEA8' };
    expect(referencesToRecord(claimed('incident.created', 'k'), delivered(captured))).toEqual({
      merge: { a: 'SOC\uFFFD-1', b: 'x\uFFFDy', c: '\uFFFDz', d: 'ok 🚨 ü', e: '🚨' },
    });
  });
});
