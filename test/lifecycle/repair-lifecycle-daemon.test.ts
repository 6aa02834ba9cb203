import { describe, expect, it } from 'vitest';
import type { CliCommand } from '../../src/cli/cli-io.js';
import { runReferences } from '../../src/cli/references-command.js';
import { runReplay } from '../../src/cli/replay-command.js';
import { runSkip } from '../../src/cli/skip-command.js';
import type { StoredDelivery } from '../../src/store/store.js';
import { waitUntil } from '../crash/crash-checks.js';
import { envelope } from '../helpers/post-webhook.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { describePostgres } from '../store/describe-postgres.js';
import { useLifecycleDaemon, type JournalKind, type LifecycleDaemon } from './support/lifecycle-journals.js';

const start = useLifecycleDaemon(useTempDirs());
let sequence = 0;
// Distinct bodies: the same body twice within the dedupe window is one event.
const event = (kind: string, id: string, title: string) =>
  envelope(`incident.${kind}`, { incident_id: id, title, n: (sequence += 1) });

async function settled(d: LifecycleDaemon, eventId: string, state: StoredDelivery['state']): Promise<StoredDelivery> {
  const found = await waitUntil(
    async () => (await d.deliveries()).find((x) => x.eventId === eventId),
    (delivery) => delivery?.state === state,
    10_000,
  );
  return found as StoredDelivery;
}

function repairsOfLifecycles(kind: JournalKind): void {
  it('a resolve for an incident never created is skipped with the reason; a later create of that id goes through', async () => {
    const d = await start(kind);
    const orphan = await settled(d, await d.post(event('resolved', 'inc_9', 'gone')), 'skipped');
    expect(orphan.lastError).toMatch(/nothing to resolve/);
    expect(d.stand.requests).toHaveLength(0);

    const created = await d.post(event('created', 'inc_9', 'incident 9'));
    await settled(d, created, 'delivered');
    const resolved = await d.post(event('resolved', 'inc_9', 'incident 9 resolved'));
    await settled(d, resolved, 'delivered');
    expect([...d.stand.issues.values()]).toEqual([
      { key: 'SOC-1', summary: 'incident 9', comments: [], transitions: ['31'] },
    ]);
  }, 60_000);

  it('a dead update (ticket deleted: 404) skipped with the CLI, references set to a new ticket: the resolve goes to it', async () => {
    const d = await start(kind);
    await settled(d, await d.post(event('created', 'inc_1', 'incident 1')), 'delivered');
    d.stand.issues.delete('SOC-1');
    const update = await settled(d, await d.post(event('updated', 'inc_1', 'incident 1 update')), 'dead');
    const resolveId = await d.post(event('resolved', 'inc_1', 'incident 1 resolved'));
    const waiting = await waitUntil(
      async () => (await d.deliveries()).find((x) => x.eventId === resolveId),
      (delivery) => delivery?.waitingFor !== undefined,
      10_000,
    );
    expect(waiting?.waitingFor).toEqual({ id: update.id, state: 'dead' });

    d.stand.issues.set('SOC-7', { key: 'SOC-7', summary: 'incident 1 again', comments: [], transitions: [] });
    const set = await d.cli([
      'references',
      'set',
      'jira',
      'incident:inc_1',
      'ticket=SOC-7',
      '--reason',
      'recreated by hand',
    ]);
    expect(set.code, set.err).toBe(0);
    const skipped = await d.cli(['skip', update.id, '--reason', 'ticket deleted in Jira']);
    expect(skipped.code, skipped.err).toBe(0);
    expect(skipped.out).toContain(`skipped ${update.id}`);

    await settled(d, resolveId, 'delivered');
    expect(d.stand.issues.get('SOC-7')?.transitions).toEqual(['31']);
    const after = (await d.deliveries()).find((x) => x.id === update.id);
    expect(after?.state).toBe('skipped');
    expect(after?.lastError).toBe('skipped by alice: ticket deleted in Jira');
    const trail = await d.store.findRepairs({ target: 'jira', key: 'incident:inc_1', limit: 10 });
    expect(trail.map((r) => [r.action, r.actor, r.reason, r.deliveryId, r.detail])).toEqual([
      ['skip', 'alice', 'ticket deleted in Jira', update.id, null],
      ['references-set', 'alice', 'recreated by hand', null, '{"ticket":"SOC-7"}'],
    ]);
    const listed = await d.cli(['deliveries', '--state', 'skipped']);
    expect(listed.code, listed.err).toBe(0);
    expect(listed.out).toContain(update.id);
  }, 60_000);

  it('references set: the next update uses the new reference', async () => {
    const d = await start(kind);
    await settled(d, await d.post(event('created', 'inc_2', 'incident 2')), 'delivered');
    d.stand.issues.set('SOC-42', { key: 'SOC-42', summary: 'merged ticket', comments: [], transitions: [] });
    const set = await d.cli([
      'references',
      'set',
      'jira',
      'incident:inc_2',
      'ticket=SOC-42',
      '--reason',
      'merged into SOC-42',
    ]);
    expect(set.code, set.err).toBe(0);
    await settled(d, await d.post(event('updated', 'inc_2', 'incident 2 update')), 'delivered');
    expect(d.stand.issues.get('SOC-42')?.comments).toEqual(['incident 2 update']);
    expect(d.stand.issues.get('SOC-1')?.comments).toEqual([]);
  }, 60_000);

  it('replay --as create: a dead update of a deleted ticket is sent as a create, and the resolve goes to the new ticket', async () => {
    const d = await start(kind);
    await settled(d, await d.post(event('created', 'inc_4', 'incident 4')), 'delivered');
    d.stand.issues.delete('SOC-1');
    const update = await settled(d, await d.post(event('updated', 'inc_4', 'incident 4 again')), 'dead');
    const resolveId = await d.post(event('resolved', 'inc_4', 'incident 4 resolved'));
    const replayed = await d.cli(['replay', update.id, '--as', 'create', '--reason', 'ticket deleted']);
    expect(replayed.code, replayed.err).toBe(0);
    await settled(d, resolveId, 'delivered');
    expect([...d.stand.issues.values()]).toEqual([
      { key: 'SOC-1', summary: 'incident 4 again', comments: [], transitions: ['31'] },
    ]);
    const trail = await d.store.findRepairs({ limit: 5 });
    expect(trail.map((r) => [r.action, r.actor, r.reason, r.key])).toEqual([
      ['references-clear', 'alice', 'replay as create: ticket deleted', 'incident:inc_4'],
    ]);
  }, 60_000);

  it('refuses bad repairs and changes nothing: no reason, a pending or unknown delivery, an unknown key, bad pairs', async () => {
    const d = await start(kind);
    const created = await settled(d, await d.post(event('created', 'inc_3', 'incident 3')), 'delivered');
    const refusals: [CliCommand, string[]][] = [
      [runSkip, [created.id]],
      [runSkip, [created.id, '--reason', '']],
      [runSkip, [created.id, '--reason', 'not dead']],
      [runSkip, ['dlv_999999', '--reason', 'unknown']],
      [runReferences, ['set', 'jira', 'incident:inc_3', 'ticket=SOC-9']],
      [runReferences, ['set', 'jira', 'incident:inc_3', 'ticket', '--reason', 'no value']],
      [runReferences, ['set', 'jira', 'incident:inc_3', 'bad-name=x', '--reason', 'bad name']],
      [runReferences, ['set', 'jira', 'incident:inc_none', 'ticket=SOC-9', '--reason', 'typo in the key']],
      [runReferences, ['set', 'nowhere', 'incident:inc_3', 'ticket=SOC-9', '--reason', 'typo in the target']],
      [runReferences, ['drop', 'jira', 'incident:inc_3', '--reason', 'no such action']],
      [runReplay, [created.id, '--as', 'create']],
      [runReplay, [created.id, '--as', 'update', '--reason', 'only create']],
    ];
    for (const [command, args] of refusals) {
      const run = await d.run(command, args);
      expect(run.code, args.join(' ')).not.toBe(0);
      expect(run.err, args.join(' ')).not.toBe('');
    }
    expect((await d.deliveries()).map((x) => x.state)).toEqual(['delivered']);
    expect(await d.store.findReferences({ limit: 10 })).toEqual([
      expect.objectContaining({ target: 'jira', key: 'incident:inc_3', values: { ticket: 'SOC-1' } }),
    ]);
    expect(await d.store.findRepairs({ limit: 10 })).toEqual([]);
  }, 60_000);
}

describe('repairing lifecycle deliveries in a running daemon, SQLite journal', () => repairsOfLifecycles('sqlite'));
describePostgres('repairing lifecycle deliveries in a running daemon, PostgreSQL journal', () =>
  repairsOfLifecycles('postgres'),
);
