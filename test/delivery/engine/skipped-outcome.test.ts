import { afterEach, describe, expect, it } from 'vitest';
import { describePostgres } from '../../store/describe-postgres.js';
import { makeIngestItem } from '../../store/make-ingest-item.js';
import { engineHarness, httpSpec, scriptedTarget, waitFor, type Backend } from './engine-harness.js';

type Harness = Awaited<ReturnType<typeof engineHarness>>;

function skippedOutcome(backend: Backend): void {
  const harnesses: Harness[] = [];
  afterEach(async () => {
    for (const h of harnesses.splice(0)) await h.dispose();
  });

  it('records a skipped outcome as skipped with its reason, counts it, and lets the key go on', async () => {
    const tickets = scriptedTarget((job) =>
      job.envelope.event === 'incident.resolved'
        ? { kind: 'skipped', error: 'nothing to resolve' }
        : { kind: 'delivered', status: 201 },
    );
    const h = await engineHarness([httpSpec('tickets')], { tickets }, { backend });
    harnesses.push(h);
    const body = (event: string) =>
      `{"event":"${event}","timestamp":"2026-11-22T10:00:00Z","data":{"incident_id":"inc_1","n":"${event}"}}`;
    const now = h.clock.now();
    await h.store.ingest(
      ['incident.resolved', 'incident.created'].map((event, i) => ({
        ...makeIngestItem({ receivedAt: now - 10 + i, targets: ['tickets'], body: body(event) }),
        keys: ['incident:inc_1'],
      })),
    );
    await h.newEngine().start();

    const states = () => h.store.findDeliveries({ target: 'tickets' }).then((rows) => rows.map((d) => d.state));
    await waitFor(states, (s) => s.join() === 'skipped,delivered');
    const [skipped] = await h.store.findDeliveries({ target: 'tickets', state: 'skipped' });
    expect(skipped?.lastError).toBe('nothing to resolve');
    expect(await h.store.listAttempts(skipped?.id ?? '')).toEqual([
      expect.objectContaining({ number: 1, outcome: 'skipped', detail: 'nothing to resolve' }),
    ]);
    const labels = { target: 'tickets', reason: 'nothing_to_resolve' };
    expect(await h.metrics.value('switchyard_deliveries_skipped_total', labels)).toBe(1);
    expect(await h.metrics.value('switchyard_delivery_attempts_total', { target: 'tickets', outcome: 'skipped' })).toBe(
      1,
    );
  });
}

describe('a skipped outcome in the engine, SQLite', () => skippedOutcome('sqlite'));
describePostgres('a skipped outcome in the engine, PostgreSQL', () => skippedOutcome('postgres'));
