import { describe, expect, it } from 'vitest';
import { pruneCutoffs } from '../../src/retention/prune-cutoffs.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 23, 12);
const retention = { enabled: true, eventsMs: 30 * DAY, deadMs: 90 * DAY, intervalMs: 3_600_000, batchSize: 500 };

describe('pruneCutoffs', () => {
  it('keeps events for their limit and dead letters for theirs', () => {
    expect(pruneCutoffs(retention, 7 * DAY, NOW)).toEqual({ eventsBefore: NOW - 30 * DAY, deadBefore: NOW - 90 * DAY });
  });

  it('lets the dedupe window win over a shorter event retention, for dead letters too', () => {
    expect(pruneCutoffs({ ...retention, eventsMs: 1 * DAY }, 7 * DAY, NOW)).toEqual({
      eventsBefore: NOW - 7 * DAY,
      deadBefore: NOW - 90 * DAY,
    });
    expect(pruneCutoffs({ ...retention, eventsMs: 1 * DAY, deadMs: 2 * DAY }, 7 * DAY, NOW)).toEqual({
      eventsBefore: NOW - 7 * DAY,
      deadBefore: NOW - 7 * DAY,
    });
  });

  it('never removes a dead letter before an event of the same age', () => {
    expect(pruneCutoffs({ ...retention, deadMs: 10 * DAY }, 7 * DAY, NOW).deadBefore).toBe(NOW - 30 * DAY);
  });
});

describe('pruneCutoffs: incident records', () => {
  it('lets an unresolved record go after incidents_idle, never before its events could', () => {
    const idle60 = { ...retention, incidentsIdleMs: 60 * DAY };
    expect(pruneCutoffs(idle60, 7 * DAY, NOW).incidentsIdleBefore).toBe(NOW - 60 * DAY);
    expect(pruneCutoffs({ ...idle60, incidentsIdleMs: 1 * DAY }, 7 * DAY, NOW).incidentsIdleBefore).toBe(
      NOW - 30 * DAY,
    );
    expect(pruneCutoffs(retention, 7 * DAY, NOW).incidentsIdleBefore).toBeUndefined();
  });
});
