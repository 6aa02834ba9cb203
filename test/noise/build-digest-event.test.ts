import { describe, expect, it } from 'vitest';
import { defaultEmailMessage } from '../../src/delivery/targets/default-email-message.js';
import { buildDigestEvent } from '../../src/noise/build-digest-event.js';
import type { DueDigest } from '../../src/store/digest-records.js';
import type { StoredEvent } from '../../src/store/store.js';
import { makeJob } from '../delivery/targets/make-target-spec.js';

const stored = (n: number): StoredEvent => ({
  id: `evt_${n}`,
  source: 'monitor',
  kind: 'threat.detected',
  severity: 'high',
  occurredAt: '2026-11-24T10:00:00Z',
  receivedAt: 0,
  body: Buffer.from(JSON.stringify({ event: 'threat.detected', data: { title: `Login burst ${n}` } })),
  bodySha256: '',
  rulesVersion: 'test',
  matchedRoutes: ['storm'],
});

const subjectOf = (count: number): string => {
  const digest = {
    id: 'dig_1',
    route: 'storm',
    target: 'mail',
    groupKey: 'storm:vpn-1',
    count,
    maxEvents: 5,
    firstAt: 0,
  };
  const events = Array.from({ length: Math.min(count, 5) }, (_, n) => stored(n));
  const event = buildDigestEvent(digest, events, { id: 'evt_dig', now: 0, rulesVersion: 'test' });
  return defaultEmailMessage(makeJob(JSON.parse(event.body.toString('utf8')) as Record<string, unknown>)).subject;
};

describe('the digest event', () => {
  it('counts one event in the singular and more in the plural, as the e-mail subject shows', () => {
    expect(subjectOf(1)).toBe('[DIGEST] 1 event grouped by storm: vpn-1');
    expect(subjectOf(7)).toBe('[DIGEST] 7 events grouped by storm: vpn-1');
  });

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
