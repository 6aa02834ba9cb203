import { afterEach, expect, it } from 'vitest';
import type { SharedTargets } from '../../../src/store/shared-targets.js';
import { describePostgres } from '../../store/describe-postgres.js';
import { engineHarness, httpSpec, scriptedTarget, waitFor } from './engine-harness.js';

type Harness = Awaited<ReturnType<typeof engineHarness>>;
const harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.dispose();
});

const MINUTE = 60_000;

describePostgres('a target this instance does not know, on a shared journal', () => {
  it('is left to the instances that declare it, and dead-lettered once none has for 5 minutes', async () => {
    const h = await engineHarness([httpSpec('kept')], { kept: scriptedTarget() }, { backend: 'postgres' });
    harnesses.push(h);
    const other = h.store.sharedTargets as SharedTargets; // as another instance, whose rules define "new"
    await other.declareTargets(['kept', 'new'], h.clock.now());
    await h.ingest(2, ['new']);
    const engine = h.newEngine();
    await engine.start();
    const states = async () => (await h.store.findDeliveries({ target: 'new' })).map((d) => d.state);
    expect(await states()).toEqual(['pending', 'pending']);
    // Our instance declared what it knows, not "new".
    expect(await h.store.findDeliveries({ target: 'kept' })).toEqual([]);

    // The other instance keeps declaring it every minute: its deliveries stay.
    for (let minute = 1; minute <= 6; minute++) {
      h.clock.advance(MINUTE);
      await other.declareTargets(['new'], h.clock.now());
      engine.wake();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await states()).toEqual(['pending', 'pending']);

    // It stops (gone, or its rules changed too): five minutes later nobody can deliver them.
    h.clock.advance(5 * MINUTE + 1);
    engine.wake();
    await waitFor(states, (s) => s.every((state) => state === 'dead'));
    const [dead] = await h.store.findDeliveries({ target: 'new' });
    expect(dead?.lastError).toBe('target "new" is not in the rules; replay these deliveries once it is back');
  });
});
