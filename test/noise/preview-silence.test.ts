import { afterEach, describe, expect, it } from 'vitest';
import { previewSilence } from '../../src/noise/preview-silence.js';
import type { Store } from '../../src/store/store.js';
import type { StoredSilence } from '../../src/store/stored-silence.js';
import { rulesLoader } from '../rules/support/load-rules-text.js';
import { TARGETS_YAML } from '../rules/support/targets-yaml.js';
import { makeIngestItem, T0 } from '../store/make-ingest-item.js';
import { tempSqliteJournal } from '../store/temp-sqlite-journal.js';

const rules = rulesLoader().compile(`${TARGETS_YAML}
routes:
  - { name: all, to: [a] }
`);
const HOUR = 3_600_000;
const NOW = T0 + HOUR;
const silence = (matchers: StoredSilence['matchers']) => ({ id: 'sil_1', matchers }) as StoredSilence;

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function journalWith(hosts: readonly string[]): Promise<{ store: Store; ids: string[] }> {
  const journal = await tempSqliteJournal();
  const store = await journal.open();
  cleanup = async () => {
    await store.close();
    await journal.dispose();
  };
  await store.migrate();
  const ids: string[] = [];
  // One a minute, the last one a minute before now.
  for (const [index, host] of hosts.entries()) {
    const body = JSON.stringify({ event: 'agent.offline', timestamp: '2026-11-22T10:00:00Z', data: { host } });
    const item = makeIngestItem({ body, receivedAt: NOW - (hosts.length - index) * 60_000, targets: ['a'] });
    const [result] = await store.ingest([{ ...item, event: { ...item.event, kind: 'agent.offline' } }]);
    ids.push(result?.eventId ?? '');
  }
  return { store, ids };
}

describe('previewSilence', () => {
  it('reads at most `limit` of the newest events and says so, with how far back it read', async () => {
    const { store, ids } = await journalWith(['db-1', 'db-2', 'web-1', 'db-3']);
    const matchers = { where: [{ field: 'data.host', matches: '^db-' }] };
    const bounded = await previewSilence(silence(matchers), { store, rules, now: NOW, limit: 2 });
    expect(bounded).toMatchObject({ scanned: 2, truncated: true, scannedFrom: NOW - 2 * 60_000, matched: 1 });
    expect(bounded.groups).toEqual([{ kind: 'agent.offline', target: 'a', events: 1, examples: [ids[3]] }]);
    const whole = await previewSilence(silence(matchers), { store, rules, now: NOW, limit: 4 });
    expect(whole).toMatchObject({ scanned: 4, truncated: false, scannedFrom: null, matched: 3 });
  });

  it("holds the events the live matching holds, whatever the silence's own start and end", async () => {
    const { store } = await journalWith(['db-1', 'web-1']);
    const old = { ...silence({ event: 'agent.*', where: [{ field: 'data.host', not: { equals: 'db-1' } }] }) };
    const preview = await previewSilence(
      { ...old, startsAt: NOW + HOUR, endsAt: NOW + 2 * HOUR },
      { store, rules, now: NOW },
    );
    expect(preview).toMatchObject({ scanned: 2, truncated: false, matched: 1 });
  });
});
