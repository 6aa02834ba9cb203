import { afterEach, describe, expect, it } from 'vitest';
import { engineHarness, httpSpec, scriptedTarget, waitFor } from './engine-harness.js';

type Harness = Awaited<ReturnType<typeof engineHarness>>;

describe('delivery engine start and claims left in the journal', () => {
  const harnesses: Harness[] = [];
  afterEach(async () => {
    for (const h of harnesses.splice(0)) await h.dispose();
  });

  /** Two deliveries claimed under a long lease, as by another instance (or a process that died). */
  async function claimedElsewhere() {
    const target = scriptedTarget();
    const h = await engineHarness([httpSpec('a')], { a: target });
    harnesses.push(h);
    await h.ingest(2, ['a']);
    const claims = await h.store.claimDue({ target: 'a', now: h.clock.now(), limit: 10, leaseMs: 600_000 });
    expect(claims).toHaveLength(2);
    return { h, target };
  }

  it('releases them by default: on a single-engine journal they were left by a process that died', async () => {
    const { h, target } = await claimedElsewhere();
    await h.newEngine().start();
    await waitFor(
      () => target.jobs.length,
      (sent) => sent === 2,
    );
  });

  it('leaves them to their leases on a shared journal, where another live instance holds them', async () => {
    const { h, target } = await claimedElsewhere();
    const engine = h.newEngine({ releaseClaimsAtStart: false });
    await engine.start();
    // Several passes (50 ms apart) at the same instant: nothing is due until the leases end.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(target.jobs).toHaveLength(0);

    h.clock.advance(600_000);
    engine.wake();
    await waitFor(
      () => target.jobs.length,
      (sent) => sent === 2,
    );
  });
});
