import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDigestEvent } from '../../src/noise/build-digest-event.js';
import { newId } from '../../src/store/new-id.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import type { StoredDelivery } from '../../src/store/store.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { makeIngestItem } from '../store/make-ingest-item.js';
import { seedCliJournal } from './support/seed-cli-journal.js';

const tempDir = useTempDirs();

/** A daemon's journal with one sent digest of three events: its id, its event's id and the grouped deliveries. */
async function journalWithDigest() {
  const journal = await seedCliJournal(tempDir());
  const store = createSqliteStore({ path: path.join(journal.dir, 'data', 'journal.db') });
  try {
    const now = Date.now();
    const group = { route: 'storm', key: 'storm|db-1', waitMs: 0, intervalMs: 60_000, maxEvents: 100 };
    const items = [0, 1, 2].map(() => ({
      ...makeIngestItem({ receivedAt: now - 1_000, targets: ['soc-slack'] }),
      groups: [group],
    }));
    await store.ingest(items);
    const [digestId] = await store.findDueDigests(now, 10);
    if (digestId === undefined) throw new Error('no digest due');
    let eventId = '';
    await store.sendDigest(digestId, now, (digest, events) => {
      eventId = newId('evt_', now);
      return buildDigestEvent(digest, events, { id: eventId, now, rulesVersion: 'test' });
    });
    const grouped = (await store.findDeliveries({ heldBy: digestId })).map((d) => d.id).sort();
    return { journal, digestId, eventId, grouped, other: items[0]?.event.id ?? '' };
  } finally {
    await store.close();
  }
}

describe('switchyard deliveries --held-by a digest (real process)', () => {
  it("takes the digest's id and the id of the event it was sent as, and names --event for any other event", async () => {
    const { journal, digestId, eventId, grouped, other } = await journalWithDigest();
    expect(grouped).toHaveLength(3);
    const run = async (heldBy: string) => {
      const cli = spawnCli(['deliveries', '--config', journal.config, '--held-by', heldBy, '--json'], {});
      return { code: await cli.exited, out: cli.stdout(), err: cli.stderr() };
    };
    const ids = (out: string) => (JSON.parse(out) as StoredDelivery[]).map((d) => d.id).sort();
    const [byDigest, byEvent, byOther] = await Promise.all([run(digestId), run(eventId), run(other)]);
    expect(byDigest.code, byDigest.err).toBe(0);
    expect(ids(byDigest.out)).toEqual(grouped);
    expect(byEvent.code, byEvent.err).toBe(0);
    expect(ids(byEvent.out)).toEqual(grouped);
    expect(byOther.code).toBe(1);
    expect(byOther.err).toContain(`${other} is an event, not a digest`);
    expect(byOther.err).toContain(`use --event ${other}`);
    expect(byOther.out).toBe('');
  }, 60_000);
});
