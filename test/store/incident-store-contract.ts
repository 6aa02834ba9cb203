import { describe, expect, it } from 'vitest';
import type { IncidentFacts } from '../../src/lifecycle/incident-record.js';
import type { IngestItem, Store } from '../../src/store/store.js';
import { migratedStores } from './migrated-stores.js';
import type { TestJournal } from './store-contract.js';
import { DAY_MS, T0, makeIngestItem } from './make-ingest-item.js';

/** One event of an incident, `seconds` after T0. */
export function incidentItem(
  seconds: number,
  kind: string,
  key: string,
  options: { source?: string; targets?: readonly string[]; title?: string; facts?: Partial<IncidentFacts> } = {},
): IngestItem {
  const made = makeIngestItem({ receivedAt: T0 + seconds * 1000, source: options.source, targets: options.targets });
  return {
    ...made,
    event: { ...made.event, kind, title: options.title ?? null },
    incident: { key, severity: 'high', severityRank: 3, host: 'fs-02', agent: null, ...options.facts },
  };
}

/** The incident records, backend-agnostic: both journals run it (sqlite-incidents, postgres-incidents). */
export function describeIncidentStoreContract(name: string, createJournal: () => Promise<TestJournal>): void {
  describe(`Incident store contract: ${name}`, () => {
    const openMigrated = migratedStores(createJournal);
    const deliver = async (store: Store, target: string, now: number) => {
      const claims = await store.claimDue({ target, now, limit: 10, leaseMs: 60_000 });
      await store.recordAttempts(
        claims.map((c) => ({
          deliveryId: c.delivery.id,
          claimToken: c.claimToken,
          attempt: { startedAt: now, durationMs: 5, outcome: 'delivered', statusCode: 200, detail: null },
          next: { state: 'delivered', nextAttemptAt: now, lastError: null },
          references: { merge: { ticket: 'SOC-1' } },
        })),
      );
    };

    it('folds each keyed event into its record in the ingest transaction, and writes nothing for others', async () => {
      const store = await openMigrated();
      const created = incidentItem(0, 'incident.created', 'incident:inc_1', { title: 'Ransomware on fs-02' });
      await store.ingest([created, makeIngestItem({ receivedAt: T0 + 500 })]);
      await store.ingest([
        incidentItem(1, 'incident.updated', 'incident:inc_1', { facts: { severity: 'critical', severityRank: 4 } }),
        incidentItem(2, 'incident.resolved', 'incident:inc_1', {
          title: 'Restored',
          facts: { severity: null, severityRank: -1 },
        }),
      ]);
      const [record, ...others] = await store.findIncidents({ limit: 10 });
      expect(others).toEqual([]);
      expect(record).toEqual({
        source: 'monitor',
        key: 'incident:inc_1',
        state: 'resolved',
        title: 'Ransomware on fs-02',
        severityHighest: 'critical',
        severityCurrent: 'critical',
        severityRank: 4,
        host: 'fs-02',
        agent: null,
        firstEventId: created.event.id,
        firstAt: T0,
        lastEventId: expect.any(String),
        lastAt: T0 + 2000,
        events: 3,
        resolvedAt: T0 + 2000,
        reopened: 0,
      });
      await store.ingest([incidentItem(3, 'incident.updated', 'incident:inc_1')]);
      const [reopened] = await store.findIncidents({ limit: 10 });
      expect(reopened).toMatchObject({ state: 'reopened', reopened: 1, events: 4, resolvedAt: null });
    });

    it('folds several events of one incident in one group, in order, and keeps sources apart', async () => {
      const store = await openMigrated();
      await store.ingest([
        incidentItem(0, 'incident.created', 'incident:inc_2'),
        incidentItem(1, 'incident.resolved', 'incident:inc_2'),
        incidentItem(2, 'incident.updated', 'incident:inc_2'),
        incidentItem(3, 'incident.created', 'incident:inc_2', { source: 'other' }),
      ]);
      const records = await store.findIncidents({ limit: 10 });
      expect(records.map((r) => [r.source, r.state, r.events, r.reopened])).toEqual([
        ['other', 'open', 1, 0],
        ['monitor', 'reopened', 3, 1],
      ]);
    });

    it('counts a duplicate event once', async () => {
      const store = await openMigrated();
      const item = incidentItem(0, 'incident.created', 'incident:inc_3');
      await store.ingest([item]);
      const again = { ...item, event: { ...item.event, id: `${item.event.id}x` } };
      const [result] = await store.ingest([again]);
      expect(result?.duplicate).toBe(true);
      expect((await store.findIncidents({ limit: 10 }))[0]?.events).toBe(1);
    });

    it('lists newest activity first, filtered by state, severity, host, target and text, in keyset pages', async () => {
      const store = await openMigrated();
      await store.ingest([
        incidentItem(0, 'incident.created', 'incident:a', { targets: ['jira'], title: 'Credential dumping' }),
        incidentItem(1, 'incident.created', 'incident:b', { targets: ['slack'], facts: { host: 'db-1' } }),
        incidentItem(2, 'agent.offline', 'agent:ag_7', { targets: [], facts: { severity: 'low', agent: 'ag_7' } }),
        incidentItem(3, 'incident.resolved', 'incident:b', { targets: ['slack'], facts: { host: null } }),
      ]);
      const keys = async (filter: Parameters<Store['findIncidents']>[0]) =>
        (await store.findIncidents(filter)).map((r) => r.key);
      expect(await keys({ limit: 10 })).toEqual(['incident:b', 'agent:ag_7', 'incident:a']);
      expect(await keys({ limit: 10, state: 'open' })).toEqual(['agent:ag_7', 'incident:a']);
      expect(await keys({ limit: 10, state: 'resolved' })).toEqual(['incident:b']);
      expect(await keys({ limit: 10, severity: 'LOW' })).toEqual(['agent:ag_7']);
      expect(await keys({ limit: 10, host: 'db-1' })).toEqual(['incident:b']);
      expect(await keys({ limit: 10, target: 'jira' })).toEqual(['incident:a']);
      expect(await keys({ limit: 10, text: 'DUMPING' })).toEqual(['incident:a']);
      expect(await keys({ limit: 10, text: 'ag_' })).toEqual(['agent:ag_7']);
      expect(await keys({ limit: 10, text: '%' })).toEqual([]);
      expect(await keys({ limit: 10, key: 'incident:a', source: 'monitor' })).toEqual(['incident:a']);
      const [first, second] = await store.findIncidents({ limit: 2 });
      expect(second).toBeDefined();
      const rest = await keys({ limit: 2, before: second });
      expect([first?.key, second?.key, ...rest]).toEqual(['incident:b', 'agent:ag_7', 'incident:a']);
    });

    it('lets retention remove a record once resolved (or idle) with no delivery pending, never before its events', async () => {
      const store = await openMigrated();
      await store.ingest([
        incidentItem(0, 'incident.created', 'incident:resolved', { targets: [] }),
        incidentItem(1, 'incident.resolved', 'incident:resolved', { targets: [] }),
        incidentItem(2, 'incident.created', 'incident:pending', { targets: ['jira'] }),
        incidentItem(3, 'incident.resolved', 'incident:pending', { targets: [] }),
        incidentItem(4, 'incident.created', 'incident:open', { targets: [] }),
        incidentItem(5, 'agent.offline', 'agent:idle', { targets: [] }),
        incidentItem(10 * 86_400, 'incident.resolved', 'incident:recent', { targets: [] }),
      ]);
      // The events cutoff is past all but the recent one; the idle cutoff past incident:open only.
      const prune = (idleBefore?: number) =>
        store.pruneBatch({
          eventsBefore: T0 + 5 * DAY_MS,
          deadBefore: T0 + 5 * DAY_MS,
          limit: 100,
          ...(idleBefore !== undefined && { incidentsIdleBefore: idleBefore }),
        });
      const keys = async () => (await store.findIncidents({ limit: 10 })).map((r) => r.key).sort();
      await prune();
      expect(await keys()).toEqual(['agent:idle', 'incident:open', 'incident:pending', 'incident:recent']);
      await prune(T0 + 4_500);
      expect(await keys()).toEqual(['agent:idle', 'incident:pending', 'incident:recent']);
      expect(await store.incidentHistory('monitor', 'incident:resolved')).toEqual({
        events: [],
        deliveries: [],
        references: [],
      });
      // Its events are gone too, but the pending delivery keeps the other one's event and record.
      expect((await store.incidentHistory('monitor', 'incident:pending')).events).toHaveLength(1);
    });

    it("gives an incident's events and deliveries in order, with the references of their targets' keys", async () => {
      const store = await openMigrated();
      const first = incidentItem(0, 'incident.created', 'incident:inc_4', { targets: ['jira', 'slack'] });
      const keyed = { ...first, keys: ['incident:inc_4', null] };
      await store.ingest([keyed, makeIngestItem({ receivedAt: T0 + 100, targets: ['jira'] })]);
      await deliver(store, 'jira', T0 + 200);
      const second = incidentItem(1, 'incident.updated', 'incident:inc_4', { targets: ['jira'] });
      await store.ingest([{ ...second, keys: ['incident:inc_4'] }]);

      const history = await store.incidentHistory('monitor', 'incident:inc_4');
      expect(history.events.map((e) => [e.id, e.kind])).toEqual([
        [first.event.id, 'incident.created'],
        [second.event.id, 'incident.updated'],
      ]);
      expect(history.deliveries.map((d) => [d.eventId, d.target, d.state])).toEqual([
        [first.event.id, 'jira', 'delivered'],
        [first.event.id, 'slack', 'pending'],
        [second.event.id, 'jira', 'pending'],
      ]);
      expect(history.references).toEqual([
        { target: 'jira', key: 'incident:inc_4', values: { ticket: 'SOC-1' }, updatedAt: T0 + 205 },
      ]);
      expect(await store.incidentHistory('other', 'incident:inc_4')).toEqual({
        events: [],
        deliveries: [],
        references: [],
      });
    });
  });
}
