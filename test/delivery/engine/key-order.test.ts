import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from '../../../src/admin/metrics.js';
import { SWITCHYARD_METRICS } from '../../../src/admin/switchyard-metrics.js';
import { systemClock } from '../../../src/clock.js';
import { createDeliveryEngine } from '../../../src/delivery/delivery-engine.js';
import { createTarget } from '../../../src/delivery/targets/create-target.js';
import type { Envelope } from '../../../src/ingest/envelope.js';
import { correlationKeys } from '../../../src/lifecycle/correlation-keys.js';
import type { CompiledRules, HttpTargetSpec } from '../../../src/rules/rules.js';
import { newId } from '../../../src/store/new-id.js';
import type { IngestItem, Store } from '../../../src/store/store.js';
import { compileTemplate } from '../../../src/templates/compile-template.js';
import { startHttpReceiver, type HttpReceiver } from '../../helpers/start-http-receiver.js';
import { describePostgres } from '../../store/describe-postgres.js';
import { makeIngestItem } from '../../store/make-ingest-item.js';
import { tempPostgresJournal } from '../../store/temp-postgres-journal.js';
import { tempSqliteJournal } from '../../store/temp-sqlite-journal.js';
import { TEST_POLICY, makeHttpSpec, quietLog } from '../targets/make-target-spec.js';
import { engineHarness, httpSpec, scriptedTarget, waitFor } from './engine-harness.js';

const KEY = compileTemplate('{{ data.incident_id }}');

function incident(kind: string, id: string, seq: number): { envelope: Envelope; item: IngestItem } {
  const envelope = { event: kind, timestamp: new Date().toISOString(), data: { incident_id: id, seq } } as Envelope;
  const body = Buffer.from(JSON.stringify(envelope));
  const now = Date.now();
  const item = {
    event: {
      id: newId('evt_', now),
      source: 'monitor',
      kind,
      severity: null,
      occurredAt: envelope.timestamp,
      receivedAt: now,
      body,
      bodySha256: createHash('sha256').update(body).digest('hex'),
      rulesVersion: 'v1',
      matchedRoutes: ['all'],
    },
    targets: ['tickets'],
    dedupeSince: now,
  };
  return { envelope, item };
}

const suites: [
  string,
  (name: string, body: () => void) => void,
  () => Promise<{ store: Store; dispose(): Promise<void> }>,
][] = [
  ['SQLite', describe, async () => journalStore(await tempSqliteJournal())],
  ['PostgreSQL', describePostgres, async () => journalStore(await tempPostgresJournal())],
];

async function journalStore(journal: { open(): Promise<Store>; dispose(): Promise<void> }) {
  const store = await journal.open();
  await store.migrate();
  return { store, dispose: async () => (await store.close(), await journal.dispose()) };
}

for (const [journalName, describeOn, open] of suites)
  describeOn(`order per key through the engine on ${journalName}`, () => {
    const cleanups: (() => Promise<unknown>)[] = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    it('sends one incident strictly in order, retrying its first event, while another incident goes ahead', async () => {
      const inFlight = new Map<string, number>();
      const overlaps: string[] = [];
      let refusedFirst = false;
      const receiver: HttpReceiver = await startHttpReceiver({
        judge(request) {
          const { data } = JSON.parse(request.body.toString()) as { data: { incident_id: string; seq: number } };
          const key = data.incident_id;
          if ((inFlight.get(key) ?? 0) > 0) overlaps.push(`${key}#${data.seq}`);
          inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
          const answer =
            key === 'inc_A' && data.seq === 1 && !refusedFirst
              ? ((refusedFirst = true), { status: 503, body: 'down', delayMs: 300 })
              : { status: 200, body: 'ok', delayMs: 20 };
          // The answer leaves after its delay; only then may the key's next request come.
          setTimeout(() => inFlight.set(key, (inFlight.get(key) ?? 1) - 1), answer.delayMs - 5);
          return answer;
        },
      });
      cleanups.push(() => receiver.close());
      const spec: HttpTargetSpec = {
        ...makeHttpSpec({ name: 'tickets', url: `${receiver.url}/hook` }),
        policy: { ...TEST_POLICY, concurrency: 8, retry: { ...TEST_POLICY.retry, initialDelayMs: 1_000 } },
        correlationKey: KEY,
      };
      const rules = { targets: new Map([['tickets', spec]]), secrets: [] } as unknown as CompiledRules;
      const journal = await open();
      cleanups.push(() => journal.dispose());
      const events = [1, 2, 3].flatMap((seq) => ['inc_A', 'inc_B'].map((id) => incident('incident.updated', id, seq)));
      await journal.store.ingest(
        events.map(({ envelope, item }) => ({ ...item, keys: correlationKeys(rules, envelope, item.targets) })),
      );
      const engine = createDeliveryEngine({
        store: journal.store,
        log: quietLog,
        clock: systemClock,
        metrics: createMetrics(SWITCHYARD_METRICS),
        rules: () => rules,
        secrets: () => [],
        createTarget,
        random: () => 0.5,
        pollIntervalMs: 50,
      });
      cleanups.push(() => engine.stop(0));
      await engine.start();

      const requests = await receiver.waitForRequests(7, 10_000);
      const seen = requests.map((r) => {
        const { data } = JSON.parse(r.body.toString()) as { data: { incident_id: string; seq: number } };
        return `${data.incident_id}#${data.seq}`;
      });
      expect(seen.filter((s) => s.startsWith('inc_A'))).toEqual(['inc_A#1', 'inc_A#1', 'inc_A#2', 'inc_A#3']);
      expect(seen.filter((s) => s.startsWith('inc_B'))).toEqual(['inc_B#1', 'inc_B#2', 'inc_B#3']);
      // Incident B did not wait for A's retry.
      expect(seen.indexOf('inc_B#3')).toBeLessThan(seen.lastIndexOf('inc_A#1'));
      expect(overlaps).toEqual([]);
      await waitFor(
        () => journal.store.findDeliveries({ state: 'delivered' }),
        (rows) => rows.length === 6,
      );
    });
  });

describe('references through the engine', () => {
  it('hands a key its captured values, and a resolve starts the key afresh', async () => {
    let ticket = 0;
    const target = scriptedTarget(() => ({ kind: 'delivered', status: 201, captured: { ticket: `T-${++ticket}` } }));
    const h = await engineHarness([{ ...httpSpec('tickets'), correlationKey: KEY }], { tickets: target });
    try {
      const at = h.clock.now() - 10;
      const kinds = ['incident.created', 'incident.updated', 'incident.resolved', 'incident.created'];
      await h.store.ingest(
        kinds.map((kind, i) => {
          const item = makeIngestItem({ receivedAt: at + i, targets: ['tickets'] });
          return { ...item, event: { ...item.event, kind }, keys: ['inc_1'] };
        }),
      );
      await h.newEngine().start();
      await waitFor(
        () => target.jobs.length,
        (n) => n === 4,
      );
      expect(target.jobs.map((job) => [job.correlationKey, job.references])).toEqual([
        ['inc_1', null],
        ['inc_1', { ticket: 'T-1' }],
        ['inc_1', { ticket: 'T-2' }],
        ['inc_1', null],
      ]);
    } finally {
      await h.dispose();
    }
  });
});
