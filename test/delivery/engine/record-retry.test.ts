import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../../src/clock.js';
import { recordUntilLeaseEnds } from '../../../src/delivery/record-until-lease-ends.js';
import type { Store } from '../../../src/store/store.js';
import { SwitchyardError } from '../../../src/switchyard-error.js';
import { engineHarness, httpSpec, scriptedTarget, waitFor } from './engine-harness.js';

const unavailable = () => new SwitchyardError('journal_unavailable', 'the journal cannot take writes');

describe('recordUntilLeaseEnds', () => {
  const fast = { firstWaitMs: 1, maxWaitMs: 4 };

  it('tries again until the journal takes the record', async () => {
    let calls = 0;
    const record = async () => {
      calls += 1;
      if (calls < 4) throw unavailable();
    };
    const clock = manualClock(0);
    const signal = new AbortController().signal;
    expect(await recordUntilLeaseEnds(record, { leaseEnd: 60_000, clock, signal, ...fast })).toBe(true);
    expect(calls).toBe(4);
  });

  it('gives up when the lease would end before the next try, or at shutdown', async () => {
    const clock = manualClock(0);
    let calls = 0;
    const failing = async () => {
      calls += 1;
      clock.advance(20);
      throw unavailable();
    };
    const signal = new AbortController().signal;
    await expect(recordUntilLeaseEnds(failing, { leaseEnd: 50, clock, signal, ...fast })).rejects.toThrow(
      /cannot take/,
    );
    expect(calls).toBe(3);

    const stop = new AbortController();
    stop.abort();
    calls = 0;
    await expect(recordUntilLeaseEnds(failing, { leaseEnd: 1e12, clock, signal: stop.signal })).rejects.toThrow();
    expect(calls).toBe(1);
  });
});

describe('a delivery whose result the journal could not record at first', () => {
  const disposers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const dispose of disposers.splice(0)) await dispose();
  });

  it('is recorded once the journal is back, and not sent again', async () => {
    const target = scriptedTarget();
    const h = await engineHarness([httpSpec('a')], { a: target });
    disposers.push(() => h.dispose());
    await h.ingest(1, ['a']);
    let refusals = 2;
    const flaky: Store = {
      ...h.store,
      recordAttempts: async (records) => {
        if (refusals > 0) {
          refusals -= 1;
          throw unavailable();
        }
        return h.store.recordAttempts(records);
      },
    };
    await h.newEngine({ store: flaky }).start();
    const [row] = await waitFor(
      () => h.store.findDeliveries({}),
      (rows) => rows[0]?.state === 'delivered',
    );
    expect(row).toMatchObject({ state: 'delivered', attempts: 1 });
    expect(refusals).toBe(0);
    expect(target.jobs).toHaveLength(1);
  });
});

describe('recordUntilLeaseEnds: what is not retried', () => {
  it('gives up at once on an error other than journal_unavailable', async () => {
    let calls = 0;
    const broken = async () => {
      calls += 1;
      throw new RangeError('value out of range for type bigint');
    };
    const options = { leaseEnd: 1e12, clock: manualClock(0), signal: new AbortController().signal };
    await expect(recordUntilLeaseEnds(broken, options)).rejects.toThrow(RangeError);
    expect(calls).toBe(1);
  });

  it('stops waiting as soon as shutdown aborts, without one more try', async () => {
    let calls = 0;
    const failing = async () => {
      calls += 1;
      throw unavailable();
    };
    const stop = new AbortController();
    const options = { leaseEnd: 1e12, clock: manualClock(0), signal: stop.signal, firstWaitMs: 60_000 };
    const pending = recordUntilLeaseEnds(failing, options);
    setTimeout(() => stop.abort(), 20);
    await expect(pending).rejects.toThrow(/cannot take/);
    expect(calls).toBe(1);
  });
});
