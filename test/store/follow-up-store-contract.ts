import { describe, expect, it } from 'vitest';
import type { FollowCandidate, IngestItem } from '../../src/store/store.js';
import { incidentItem } from './incident-store-contract.js';
import { migratedStores } from './migrated-stores.js';
import type { TestJournal } from './store-contract.js';

const KEY = 'incident:inc_1';
const follow = (...targets: string[]): FollowCandidate[] => targets.map((target) => ({ target, key: KEY, hold: null }));
const resolve = (seconds: number, candidates: FollowCandidate[], source?: string): IngestItem => ({
  ...incidentItem(seconds, 'incident.resolved', KEY, { targets: [], source }),
  follow: candidates,
});

/** Follow-ups at ingest (src/lifecycle/follow-targets.ts), backend-agnostic: both journals run it. */
export function describeFollowUpStoreContract(name: string, createJournal: () => Promise<TestJournal>): void {
  describe(`Follow-up store contract: ${name}`, () => {
    const openMigrated = migratedStores(createJournal);

    it('follows to the targets the incident reached, not to one whose delivery was held back', async () => {
      const store = await openMigrated();
      const created = incidentItem(0, 'incident.created', KEY, { targets: ['pager', 'tickets'] });
      await store.ingest([{ ...created, holds: [{ state: 'silenced', by: 'sil_1' }, null] }]);
      const [result] = await store.ingest([resolve(1, follow('pager', 'tickets', 'chat'))]);
      expect(result).toMatchObject({ duplicate: false, deliveries: 1, followed: ['tickets'] });
      const deliveries = await store.listDeliveries(result?.eventId ?? '');
      expect(deliveries.map((d) => [d.target, d.state, d.correlationKey])).toEqual([['tickets', 'pending', KEY]]);
    });

    it('records a followed delivery held as the event is, and counts another source apart', async () => {
      const store = await openMigrated();
      await store.ingest([incidentItem(0, 'incident.created', KEY, { targets: ['pager'] })]);
      const held: FollowCandidate = { target: 'pager', key: KEY, hold: { state: 'silenced', by: 'sil_2' } };
      const [result] = await store.ingest([resolve(1, [held])]);
      const deliveries = await store.listDeliveries(result?.eventId ?? '');
      expect(deliveries.map((d) => [d.target, d.state])).toEqual([['pager', 'silenced']]);
      const [elsewhere] = await store.ingest([resolve(2, follow('pager'), 'other-monitor')]);
      expect(elsewhere).toMatchObject({ deliveries: 0 });
      expect(elsewhere).not.toHaveProperty('followed');
    });

    it('in one group, an event sees the deliveries of the events before it, not of those after', async () => {
      const store = await openMigrated();
      const results = await store.ingest([
        incidentItem(0, 'incident.created', KEY, { targets: ['pager'] }),
        resolve(1, follow('pager', 'tickets')),
        incidentItem(2, 'incident.created', KEY, { targets: ['tickets'] }),
      ]);
      expect(results.map((r) => (r.duplicate ? 'duplicate' : (r.followed ?? [])))).toEqual([[], ['pager'], []]);
    });
  });
}
