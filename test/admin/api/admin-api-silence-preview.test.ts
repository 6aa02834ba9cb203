import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/store/store.js';
import { describePostgres } from '../../store/describe-postgres.js';
import { makeIngestItem } from '../../store/make-ingest-item.js';
import type { TestJournal } from '../../store/store-contract.js';
import { tempPostgresJournal } from '../../store/temp-postgres-journal.js';
import { tempSqliteJournal } from '../../store/temp-sqlite-journal.js';
import { rulesLoader } from '../../rules/support/load-rules-text.js';
import { NOW, startAdminApi, type AdminApiHarness } from './start-admin-api.js';
import { READER, SILENCER } from './test-keys.js';
import { SECRETS, TEST_RULES } from './test-rules.js';

const rules = rulesLoader().compile(TEST_RULES, SECRETS);
const HOUR = 3_600_000;
const PREVIEW = {
  matchers: ['event=agent.offline', 'data.host=~db-.*'],
  duration: '2h',
  comment: 'patching the databases',
};

/** Journals one event of `kind` about `host`, received `hoursAgo` before the harness's now, sent to `targets`. */
async function seed(store: Store, kind: string, host: string, hoursAgo: number, targets: string[]): Promise<string> {
  const body = JSON.stringify({ event: kind, timestamp: '2026-11-22T10:00:00Z', data: { host } });
  const item = makeIngestItem({ body, receivedAt: NOW - hoursAgo * HOUR, targets });
  const [result] = await store.ingest([{ ...item, event: { ...item.event, kind } }]);
  return result?.eventId ?? '';
}

function describePreview(name: string, journal: () => Promise<TestJournal>): void {
  describe(`admin API silence preview (${name})`, () => {
    let api: AdminApiHarness | undefined;
    afterEach(async () => {
      await api?.close();
      api = undefined;
    });

    it("says which of the last day's events a silence would have held, by kind and target, storing nothing", async () => {
      const a = (api = await startAdminApi({ rules, journal }));
      const db1 = await seed(a.store, 'agent.offline', 'db-1', 1, ['tickets']);
      const db2 = await seed(a.store, 'agent.offline', 'db-2', 2, ['tickets', 'soc-slack']);
      await seed(a.store, 'agent.offline', 'web-1', 1, ['tickets']);
      await seed(a.store, 'incident.created', 'db-1', 1, ['tickets']);
      await seed(a.store, 'agent.offline', 'db-3', 25, ['tickets']);
      const previewed = await a.request('/api/v1/silences/preview', { key: SILENCER.key, body: PREVIEW });
      expect(previewed.status, previewed.text).toBe(200);
      expect(previewed.body).toEqual({
        match: { event: 'agent.offline', where: [{ field: 'data.host', matches: '^(?:db-.*)$' }] },
        since: new Date(NOW - 24 * HOUR).toISOString(),
        until: new Date(NOW).toISOString(),
        scanned: 4,
        truncated: false,
        scannedFrom: null,
        matched: 2,
        groups: [
          { kind: 'agent.offline', target: 'tickets', events: 2, examples: [db1, db2] },
          { kind: 'agent.offline', target: 'soc-slack', events: 1, examples: [db2] },
        ],
      });
      expect(await a.store.findSilences({})).toEqual([]);
    });

    it('refuses without the silence scope and refuses bad input, naming the matcher, storing nothing', async () => {
      const a = (api = await startAdminApi({ rules, journal }));
      const forbidden = await a.request('/api/v1/silences/preview', { key: READER.key, body: PREVIEW });
      expect(forbidden.status).toBe(403);
      for (const [body, message] of [
        [{ ...PREVIEW, matchers: ['event=agent.offline', 'data.host=~(db'] }, 'matcher "data.host=~(db": invalid'],
        [{ ...PREVIEW, matchers: ['host=db-1'] }, 'matcher "host=db-1": expected NAME=VALUE'],
        [{ ...PREVIEW, match: { event: 'agent.*' } }, 'give exactly one of match and matchers'],
        [{ ...PREVIEW, matchers: [] }, 'matchers: must not be empty'],
      ] as const) {
        for (const path of ['/api/v1/silences/preview', '/api/v1/silences']) {
          const refused = await a.request(path, { key: SILENCER.key, body });
          expect(refused.status, path).toBe(400);
          const { error } = refused.body as { error: { code: string; message: string } };
          expect(error.code).toBe('invalid_silence');
          expect(error.message).toContain(message);
        }
      }
      expect(await a.store.findSilences({})).toEqual([]);
    });

    it('creates a silence from matchers that holds what the preview said', async () => {
      const a = (api = await startAdminApi({ rules, journal }));
      const created = await a.request('/api/v1/silences', { key: SILENCER.key, body: PREVIEW });
      expect(created.status, created.text).toBe(201);
      const body = created.body as { id: string; match: unknown };
      expect(body.match).toEqual({ event: 'agent.offline', where: [{ field: 'data.host', matches: '^(?:db-.*)$' }] });
      const test = async (host: string) =>
        (
          (
            await a.request('/api/v1/route-test', {
              key: READER.key,
              body: { event: 'agent.offline', timestamp: '2026-11-22T10:00:00Z', data: { host } },
            })
          ).body as { silencedBy: { id: string } | null }
        ).silencedBy;
      expect((await test('db-7'))?.id).toBe(body.id);
      expect(await test('web-7')).toBeNull();
    });
  });
}

describePreview('SQLite', () => tempSqliteJournal());
describePostgres('PostgreSQL', () => describePreview('PostgreSQL', () => tempPostgresJournal()));
