import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/store/store.js';
import { makeIngestItem } from '../../store/make-ingest-item.js';
import { engineHarness, httpSpec, scriptedTarget, waitFor } from './engine-harness.js';

/** A store whose attempt records wait until the test opens the gate, as a slow commit would. */
function gatedRecords(store: Store): { store: Store; open(): void; waiting(): number } {
  let open = false;
  let waiting = 0;
  const waiters: (() => void)[] = [];
  return {
    store: {
      ...store,
      recordAttempts: async (records) => {
        waiting += records.length;
        if (!open) await new Promise<void>((resolve) => waiters.push(resolve));
        return store.recordAttempts(records);
      },
    },
    open() {
      open = true;
      for (const resolve of waiters.splice(0)) resolve();
    },
    waiting: () => waiting,
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a target's slot while the attempt's record commits (issue 11)", () => {
  const disposers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const dispose of disposers.splice(0)) await dispose();
  });
  /** An engine over the gated store; stopped (the gate opened first) before the journal is disposed of. */
  const startGated = async (h: Awaited<ReturnType<typeof engineHarness>>) => {
    const gate = gatedRecords(h.store);
    const engine = h.newEngine({ store: gate.store });
    disposers.unshift(async () => {
      gate.open();
      await engine.stop(1_000);
    });
    await engine.start();
    return { gate, engine };
  };

  it('is free once the target has answered, and at most as many answered attempts again wait for their record', async () => {
    const target = scriptedTarget();
    const h = await engineHarness([httpSpec('a', { concurrency: 1 })], { a: target });
    disposers.push(() => h.dispose());
    await h.ingest(4, ['a']);
    const { gate, engine } = await startGated(h);

    // The second delivery went out while the first one's record had not committed.
    await waitFor(
      () => target.jobs.length,
      (sent) => sent === 2,
    );
    const rows = await h.store.findDeliveries({});
    expect(rows.filter((row) => row.state === 'delivered')).toHaveLength(0);

    // Two answered attempts waiting for their record fill the lane: nothing more is claimed meanwhile.
    await pause(300);
    expect(target.jobs).toHaveLength(2);
    expect(engine.status()).toEqual([expect.objectContaining({ target: 'a', inFlight: 0 })]);

    gate.open();
    await waitFor(
      () => h.store.findDeliveries({}),
      (all) => all.length === 4 && all.every((row) => row.state === 'delivered'),
    );
    expect(target.jobs).toHaveLength(4);
  });

  it("keeps a key's next delivery back until the record of the one before it has committed", async () => {
    const target = scriptedTarget();
    const h = await engineHarness([httpSpec('a', { concurrency: 4 })], { a: target });
    disposers.push(() => h.dispose());
    const now = h.clock.now();
    await h.store.ingest(
      [now - 2, now - 1].map((receivedAt) => ({ ...makeIngestItem({ receivedAt, targets: ['a'] }), keys: ['inc-1'] })),
    );
    const { gate } = await startGated(h);

    await waitFor(gate.waiting, (waiting) => waiting === 1);
    await pause(300);
    expect(target.jobs).toHaveLength(1);

    gate.open();
    await waitFor(
      () => target.jobs.length,
      (sent) => sent === 2,
    );
    expect(target.jobs.map((job) => job.event.receivedAt)).toEqual([now - 2, now - 1]);
  });
});
