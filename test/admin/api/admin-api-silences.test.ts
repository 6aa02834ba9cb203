import { afterEach, describe, expect, it } from 'vitest';
import { rulesLoader } from '../../rules/support/load-rules-text.js';
import { NOW, startAdminApi, type AdminApiHarness } from './start-admin-api.js';
import { OPERATOR, READER, SILENCER } from './test-keys.js';
import { SECRETS, TEST_RULES } from './test-rules.js';

const rules = rulesLoader().compile(TEST_RULES, SECRETS);
const HOUR = 3_600_000;
let api: AdminApiHarness | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});
async function started(): Promise<AdminApiHarness> {
  api = await startAdminApi({ rules });
  return api;
}
const NEW = {
  match: { event: 'agent.*', where: [{ field: 'data.host', equals: 'db-1' }] },
  duration: '2h',
  comment: 'patching db-1',
};

describe('admin API silences', () => {
  it('creates a silence (silence scope), names the key as its creator, lists and shows it, and logs who', async () => {
    const a = await started();
    const created = await a.request('/api/v1/silences', { key: SILENCER.key, method: 'POST', body: NEW });
    expect(created.status).toBe(201);
    const body = created.body as { id: string };
    expect(body).toEqual({
      id: expect.stringMatching(/^sil_/),
      status: 'active',
      match: NEW.match,
      startsAt: new Date(NOW).toISOString(),
      endsAt: new Date(NOW + 2 * HOUR).toISOString(),
      comment: 'patching db-1',
      createdBy: 'shift-lead',
      onExpiry: 'drop',
      createdAt: new Date(NOW).toISOString(),
      updatedAt: new Date(NOW).toISOString(),
      releasedAt: null,
    });
    expect(await a.store.getSilence(body.id)).toMatchObject({ createdBy: 'shift-lead', endsAt: NOW + 2 * HOUR });
    const listed = await a.request('/api/v1/silences', { key: READER.key });
    expect(listed.body).toEqual({ items: [created.body] });
    expect((await a.request(`/api/v1/silences/${body.id}`, { key: READER.key })).body).toEqual(created.body);
    expect(a.logs()).toContain('"key":"shift-lead"');
  });

  it('extends, re-words and expires; an expired silence is listed under expired only', async () => {
    const a = await started();
    const { id } = (await a.request('/api/v1/silences', { key: SILENCER.key, method: 'POST', body: NEW })).body as {
      id: string;
    };
    const extended = await a.request(`/api/v1/silences/${id}`, {
      key: SILENCER.key,
      method: 'PATCH',
      body: { duration: '4h', comment: 'takes longer' },
    });
    expect(extended.body).toMatchObject({ endsAt: new Date(NOW + 4 * HOUR).toISOString(), comment: 'takes longer' });
    a.clock.advance(HOUR);
    const expired = await a.request(`/api/v1/silences/${id}/expire`, { key: SILENCER.key, method: 'POST' });
    expect(expired.body).toMatchObject({ status: 'expired', endsAt: new Date(NOW + HOUR).toISOString() });
    expect((await a.request('/api/v1/silences', { key: READER.key })).body).toEqual({ items: [] });
    const all = (await a.request('/api/v1/silences?status=expired', { key: READER.key })).body as { items: unknown[] };
    expect(all.items).toHaveLength(1);
    const again = await a.request(`/api/v1/silences/${id}/expire`, { key: SILENCER.key, method: 'POST' });
    expect([again.status, (again.body as { error: { code: string } }).error.code]).toEqual([409, 'silence_ended']);
  });

  it('refuses without the silence scope, and refuses invalid silences, storing nothing', async () => {
    const a = await started();
    const forged = await a.request('/api/v1/silences', { key: OPERATOR.key, method: 'POST', body: NEW });
    expect(forged.status).toBe(403);
    for (const body of [
      { ...NEW, duration: undefined },
      { ...NEW, match: { severity: { at_least: 'apocalyptic' } } },
      { ...NEW, match: { event: 'agent.*', where: [{ field: 'data.x', matches: '(a' }] } },
      { ...NEW, ends_at: '2020-01-01T00:00:00Z', duration: undefined },
      { ...NEW, unknown: 1 },
      [NEW],
    ]) {
      const refused = await a.request('/api/v1/silences', { key: SILENCER.key, method: 'POST', body });
      expect(refused.status).toBe(400);
      expect((refused.body as { error: { code: string } }).error.code).toBe('invalid_silence');
    }
    expect(await a.store.findSilences({})).toEqual([]);
    expect((await a.request('/api/v1/silences/sil_nope', { key: READER.key })).status).toBe(404);
    const unknown = await a.request('/api/v1/silences/sil_nope', {
      key: SILENCER.key,
      method: 'PATCH',
      body: { comment: 'x' },
    });
    expect(unknown.status).toBe(404);
    expect((await a.request('/api/v1/silences?status=gone', { key: READER.key })).status).toBe(400);
  });

  it('says in the route test which silence in force would hold an event, and null otherwise', async () => {
    const a = await started();
    const event = (host: string) => ({ event: 'agent.offline', timestamp: '2026-11-22T10:00:00Z', data: { host } });
    const test = async (host: string) =>
      (await a.request('/api/v1/route-test', { key: READER.key, body: event(host) })).body as Record<string, unknown>;
    expect((await test('db-1')).silencedBy).toBeNull();
    const { id } = (await a.request('/api/v1/silences', { key: SILENCER.key, method: 'POST', body: NEW })).body as {
      id: string;
    };
    expect((await test('db-1')).silencedBy).toEqual({
      id,
      comment: 'patching db-1',
      createdBy: 'shift-lead',
      endsAt: new Date(NOW + 2 * HOUR).toISOString(),
    });
    expect((await test('db-2')).silencedBy).toBeNull();
    a.clock.advance(2 * HOUR);
    expect((await test('db-1')).silencedBy).toBeNull();
  });
});
