import { afterEach, describe, expect, it } from 'vitest';
import { rulesLoader } from '../../rules/support/load-rules-text.js';
import { makeIngestItem, T0 } from '../../store/make-ingest-item.js';
import { startAdminApi, type AdminApiHarness } from './start-admin-api.js';
import { OPERATOR, READER, REPAIRER } from './test-keys.js';
import { SECRETS, TEST_RULES } from './test-rules.js';

const rules = rulesLoader().compile(TEST_RULES, SECRETS);
let api: AdminApiHarness | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

/** One delivery to `tickets` for `key`, recorded with the outcome given (a 404 dead-letters it). */
async function settle(harness: AdminApiHarness, key: string, outcome: 'delivered' | 'dead'): Promise<string> {
  await harness.store.ingest([{ ...makeIngestItem({ targets: ['tickets'] }), keys: [key] }]);
  const [claimed] = await harness.store.claimDue({ target: 'tickets', now: T0 + 1, limit: 1, leaseMs: 60_000 });
  if (claimed === undefined) throw new Error('nothing to claim');
  const delivered = outcome === 'delivered';
  await harness.store.recordAttempts([
    {
      deliveryId: claimed.delivery.id,
      claimToken: claimed.claimToken,
      attempt: { startedAt: T0 + 2, durationMs: 5, outcome, statusCode: delivered ? 201 : 404, detail: null },
      references: delivered ? { merge: { ticket: 'SOC-1' } } : undefined,
      next: { state: outcome, nextAttemptAt: T0 + 7, lastError: delivered ? null : 'HTTP 404' },
    },
  ]);
  return claimed.delivery.id;
}

const skip = (id: string, key: string | undefined, body: unknown = { reason: 'ticket deleted' }) =>
  (api as AdminApiHarness).request(`/api/v1/deliveries/${id}/skip`, { key, body });
const replayAs = (id: string, key: string | undefined, body: unknown) =>
  (api as AdminApiHarness).request(`/api/v1/deliveries/${id}/replay-as`, { key, body });
const setReferences = (key: string | undefined, body: unknown) =>
  (api as AdminApiHarness).request('/api/v1/references', { key, method: 'PUT', body });

describe('admin API: repairs of a key (repair scope)', () => {
  it('skips a dead delivery: recorded skipped with the key name and reason, in the trail, counted, engine woken', async () => {
    const harness = (api = await startAdminApi({ rules }));
    await settle(harness, 'incident:inc_1', 'delivered');
    const dead = await settle(harness, 'incident:inc_1', 'dead');
    const answer = await skip(dead, REPAIRER.key);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ id: dead, state: 'skipped', lastError: 'skipped by fixer: ticket deleted' });
    expect(await harness.store.findRepairs({ limit: 10 })).toMatchObject([
      { action: 'skip', actor: 'fixer', reason: 'ticket deleted', deliveryId: dead, target: 'tickets' },
    ]);
    const labels = { target: 'tickets', reason: 'operator' };
    expect(await harness.metrics.value('switchyard_deliveries_skipped_total', labels)).toBe(1);
    expect(harness.wakes()).toBe(1);
    const trail = await harness.request('/api/v1/repairs?target=tickets', { key: READER.key });
    expect(trail.status, trail.text).toBe(200);
    expect(trail.body).toMatchObject({ items: [{ action: 'skip', actor: 'fixer', deliveryId: dead }] });
    const listed = await harness.request('/api/v1/deliveries?state=skipped', { key: READER.key });
    expect((listed.body as { items: { id: string }[] }).items.map((x) => x.id)).toEqual([dead]);
  });

  it('sets and clears references, each in the trail', async () => {
    const harness = (api = await startAdminApi({ rules }));
    await settle(harness, 'incident:inc_1', 'delivered');
    const target = { target: 'tickets', key: 'incident:inc_1' };
    const set = await setReferences(REPAIRER.key, { ...target, values: { ticket: 'SOC-9' }, reason: 'merged' });
    expect(set.status, set.text).toBe(200);
    expect(await harness.store.findReferences({ limit: 5 })).toMatchObject([
      { ...target, values: { ticket: 'SOC-9' } },
    ]);
    const cleared = await setReferences(REPAIRER.key, { ...target, values: null, reason: 'start afresh' });
    expect(cleared.status, cleared.text).toBe(200);
    expect(await harness.store.findReferences({ limit: 5 })).toEqual([]);
    const trail = await harness.store.findRepairs({ limit: 5 });
    expect(trail.map((r) => [r.action, r.actor, r.reason, r.detail])).toEqual([
      ['references-clear', 'fixer', 'start afresh', null],
      ['references-set', 'fixer', 'merged', '{"ticket":"SOC-9"}'],
    ]);
  });

  it('replays a dead delivery as a create: its key references cleared (in the trail), re-queued, engine woken', async () => {
    const harness = (api = await startAdminApi({ rules }));
    await settle(harness, 'incident:inc_1', 'delivered');
    const dead = await settle(harness, 'incident:inc_1', 'dead');
    const answer = await replayAs(dead, REPAIRER.key, { as: 'create', reason: 'ticket deleted' });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ id: dead, state: 'pending' });
    expect(await harness.store.findReferences({ limit: 5 })).toEqual([]);
    expect(await harness.store.findRepairs({ limit: 5 })).toMatchObject([
      { action: 'references-clear', actor: 'fixer', reason: 'replay as create: ticket deleted', key: 'incident:inc_1' },
    ]);
    expect(harness.wakes()).toBe(1);
  });

  it('refuses without credentials (401) or the repair scope (403), and bad input, changing nothing', async () => {
    const harness = (api = await startAdminApi({ rules }));
    const delivered = await settle(harness, 'incident:inc_1', 'delivered');
    const dead = await settle(harness, 'incident:inc_1', 'dead');
    const target = { target: 'tickets', key: 'incident:inc_1' };
    const refusals: [Promise<{ status: number; body: unknown }>, number][] = [
      [skip(dead, undefined), 401],
      [skip(dead, READER.key), 403],
      [skip(dead, OPERATOR.key), 403],
      [setReferences(undefined, { ...target, values: { ticket: 'X' }, reason: 'r' }), 401],
      [replayAs(dead, undefined, { as: 'create', reason: 'r' }), 401],
      [replayAs(dead, OPERATOR.key, { as: 'create', reason: 'r' }), 403],
      [replayAs(dead, REPAIRER.key, { as: 'update', reason: 'r' }), 400],
      [replayAs(dead, REPAIRER.key, { as: 'create' }), 400],
      [replayAs('dlv_999999', REPAIRER.key, { as: 'create', reason: 'r' }), 404],
      [setReferences(OPERATOR.key, { ...target, values: { ticket: 'X' }, reason: 'r' }), 403],
      [skip(dead, REPAIRER.key, {}), 400],
      [skip(dead, REPAIRER.key, { reason: '  ' }), 400],
      [skip(dead, REPAIRER.key, { reason: 'x', extra: 1 }), 400],
      [skip(dead, REPAIRER.key, 'reason=x'), 415],
      [skip('dlv_999999', REPAIRER.key), 404],
      [skip(delivered, REPAIRER.key), 409],
      [setReferences(REPAIRER.key, { ...target, values: { ticket: 'X' } }), 400],
      [setReferences(REPAIRER.key, { ...target, values: { 'bad name': 'X' }, reason: 'r' }), 400],
      [setReferences(REPAIRER.key, { ...target, values: { ticket: 7 }, reason: 'r' }), 400],
      [setReferences(REPAIRER.key, { ...target, values: {}, reason: 'r' }), 400],
      [setReferences(REPAIRER.key, { target: 'tickets', values: { ticket: 'X' }, reason: 'r' }), 400],
      [setReferences(REPAIRER.key, { ...target, key: 'incident:typo', values: { ticket: 'X' }, reason: 'r' }), 404],
    ];
    for (const [index, [answer, status]] of refusals.entries()) expect((await answer).status, `#${index}`).toBe(status);
    expect((await harness.store.getDelivery(dead))?.state).toBe('dead');
    expect((await harness.store.getDelivery(delivered))?.state).toBe('delivered');
    expect(await harness.store.findReferences({ limit: 5 })).toMatchObject([
      { ...target, values: { ticket: 'SOC-1' } },
    ]);
    expect(await harness.store.findRepairs({ limit: 5 })).toEqual([]);
    expect(harness.wakes()).toBe(0);
  });
});
