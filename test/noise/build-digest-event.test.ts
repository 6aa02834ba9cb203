import { describe, expect, it } from 'vitest';
import { buildDigestEvent } from '../../src/noise/build-digest-event.js';
import type { DueDigest } from '../../src/store/digest-records.js';

describe('buildDigestEvent', () => {
  it('gives the digest its title, as ingest gives one to the events it stores', () => {
    const digest = { id: 'dig_1', route: 'storm', groupKey: 'storm|brute-force', target: 'soc-slack', count: 3 };
    const due: DueDigest = { ...digest, maxEvents: 100, firstAt: 0 };
    const event = buildDigestEvent(due, [], {
      id: 'evt_1',
      now: Date.parse('2026-11-24T10:00:00Z'),
      rulesVersion: 'v1',
    });
    expect(event.title).toBe('3 events grouped by storm: brute-force');
    expect(event.matchedRoutes).toEqual(['storm']);
  });
});
