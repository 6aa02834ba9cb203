import { afterEach, describe, expect, it } from 'vitest';
import { engineHarness, httpSpec, scriptedTarget, waitFor } from './engine-harness.js';

const disposers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const dispose of disposers.splice(0)) await dispose();
});

describe('a rate-limited lane woken while it waits for a token', () => {
  // Found in review of the early slot (issue 11): a lane whose last pass set it a poll interval away was
  // skipped by the wake of its record's commit (no token yet), and so sent its next delivery only after the
  // whole interval, however soon its token came.
  it('is served when its next token is due, not a poll interval later', async () => {
    const target = scriptedTarget();
    const spec = httpSpec('a', { concurrency: 1, rateLimit: { perSecond: 10, burst: 1 } });
    const h = await engineHarness([spec], { a: target });
    disposers.push(() => h.dispose());
    const engine = h.newEngine({ pollIntervalMs: 5_000 });
    disposers.unshift(() => engine.stop(1_000));
    await engine.start(); // idle: its first claim finds nothing
    await new Promise((resolve) => setTimeout(resolve, 50));

    await h.ingest(3, ['a']);
    engine.wake(['a']); // as ingest's commit does
    await waitFor(
      () => target.jobs.length,
      (sent) => sent === 1,
    );
    await waitFor(
      () => h.store.findDeliveries({ state: 'delivered' }),
      (rows) => rows.length === 1,
    );
    h.clock.advance(100); // the next token
    await waitFor(
      () => target.jobs.length,
      (sent) => sent === 2,
      2_000,
    );
    expect(target.jobs).toHaveLength(2);
  });
});
