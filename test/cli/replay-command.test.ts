import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runReplay } from '../../src/cli/replay-command.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import type { StoredDelivery } from '../../src/store/store.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { fakeCliIo } from '../rules/support/fake-cli-io.js';
import { makeIngestItem } from '../store/make-ingest-item.js';
import { seedCliJournal, type CliJournal } from './support/seed-cli-journal.js';

const tempDir = useTempDirs();

async function replay(j: CliJournal, args: string[], env: Record<string, string> = {}) {
  const io = fakeCliIo(j.dir, env);
  const code = await runReplay(args, io);
  return { code, out: io.out(), err: io.err() };
}

/** Four more events whose deliveries to `target` are held, one in each held state; their ids. */
async function addHeldDeliveries(j: CliJournal, target: string): Promise<string[]> {
  const store = createSqliteStore({ path: path.join(j.dir, 'data', 'journal.db') });
  try {
    const states = ['silenced', 'muted', 'suppressed', 'grouped'] as const;
    const items = states.map((state) => ({
      ...makeIngestItem({ receivedAt: Date.now() - 60_000, targets: [target] }),
      holds: [{ state, by: `${state}_1` }],
    }));
    await store.ingest(items);
    const deliveries = await Promise.all(items.map((item) => store.listDeliveries(item.event.id)));
    return deliveries.flat().map((d) => d.id);
  } finally {
    await store.close();
  }
}

/** The ids whose state is `pending`: the ones a replay re-queued, and the ones it left alone. */
function requeued(rows: readonly StoredDelivery[]): string[] {
  return rows.filter((d) => d.state === 'pending').map((d) => d.id);
}

describe('switchyard replay by filters', () => {
  it('re-queues the dead deliveries of one --target, leaves pending ones alone, and keeps the history', async () => {
    const j = await seedCliJournal(tempDir());
    const before = Date.now();
    const result = await replay(j, ['--config', j.config, '--target', 'tickets']);
    const ids = [j.id(0, 'tickets'), j.id(1, 'tickets'), j.id(2, 'tickets')];
    expect(result).toEqual({ code: 0, out: `re-queued 3 deliveries: ${ids.join(' ')}\n`, err: '' });

    const rows = await j.deliveries();
    // The tickets delivery of event 3 was pending already: untouched, so it is due where it was.
    expect(requeued(rows)).toEqual([...ids, j.id(2, 'soc-slack'), j.id(3, 'tickets')]);
    for (const id of ids) {
      const row = rows.find((d) => d.id === id);
      // ATTEMPTS keeps counting what the history holds: the dead attempt is still there.
      expect(row).toMatchObject({ state: 'pending', attempts: 1, lastError: 'HTTP 400' });
      // Due at once, so a running daemon takes it at its next pass.
      expect(row?.nextAttemptAt).toBeGreaterThanOrEqual(before);
      expect(row?.nextAttemptAt).toBeLessThanOrEqual(Date.now());
    }
    expect(await j.snapshot()).toContainEqual(
      expect.objectContaining({ id: ids[0], history: [expect.objectContaining({ number: 1, outcome: 'dead' })] }),
    );
  });

  it.each([
    [
      ['--since', '3h'],
      [[2, 'tickets'] as const, [3, 'soc-slack'] as const],
    ],
    [
      ['--since', '2025-01-11', '--target', 'soc-slack'],
      [[1, 'soc-slack'] as const, [3, 'soc-slack'] as const],
    ],
    [
      ['--since', '2025-01-10T10:00:00.001Z', '--until', '1d'],
      [[1, 'tickets'] as const, [1, 'soc-slack'] as const],
    ],
    [['--state', 'dead', '--limit', '1'], [[0, 'tickets'] as const]],
    // Sending something again on purpose.
    [['--state', 'delivered', '--include-delivered'], [[0, 'soc-slack'] as const]],
  ])('re-queues exactly what %j selects', async (filters, expected) => {
    const j = await seedCliJournal(tempDir());
    const ids = expected.map(([n, target]) => j.id(n, target));
    const result = await replay(j, ['--config', j.config, ...filters]);
    expect(result).toEqual({ code: 0, out: `re-queued ${ids.length} deliveries: ${ids.join(' ')}\n`, err: '' });
    const untouchedPending = [j.id(2, 'soc-slack'), j.id(3, 'tickets')];
    expect(requeued(await j.deliveries()).sort()).toEqual([...ids, ...untouchedPending].sort());
  });

  it('says so when nothing matches, and exits 0', async () => {
    const j = await seedCliJournal(tempDir());
    const before = await j.snapshot();
    expect(await replay(j, ['--config', j.config, '--target', 'nobody'])).toEqual({
      code: 0,
      out: 're-queued 0 deliveries\n',
      err: '',
    });
    expect(await j.snapshot()).toEqual(before);
  });

  it('finds the journal through $SWITCHYARD_CONFIG', async () => {
    const j = await seedCliJournal(tempDir());
    const io = fakeCliIo(tempDir(), { SWITCHYARD_CONFIG: j.config });
    expect(await runReplay([j.id(1, 'soc-slack')], io)).toBe(0);
    expect(io.out()).toBe(`re-queued 1 deliveries: ${j.id(1, 'soc-slack')}\n`);
  });
});

describe('switchyard replay --dry-run', () => {
  it.each([
    [
      ['--target', 'tickets'],
      [[0, 'tickets'] as const, [1, 'tickets'] as const, [2, 'tickets'] as const],
    ],
    [
      ['--since', '3h'],
      [[2, 'tickets'] as const, [3, 'soc-slack'] as const],
    ],
    [['--state', 'delivered', '--include-delivered'], [[0, 'soc-slack'] as const]],
  ])('lists what %j would re-queue and changes nothing', async (filters, expected) => {
    const j = await seedCliJournal(tempDir());
    const before = await j.snapshot();
    const ids = expected.map(([n, target]) => j.id(n, target));
    const result = await replay(j, ['--config', j.config, ...filters, '--dry-run']);
    expect(result).toEqual({ code: 0, out: `would re-queue ${ids.length} deliveries: ${ids.join(' ')}\n`, err: '' });
    expect(await j.snapshot()).toEqual(before);
  });

  it('says how many delivered deliveries it would leave alone without --include-delivered', async () => {
    const j = await seedCliJournal(tempDir());
    const before = await j.snapshot();
    const delivered = j.id(0, 'soc-slack');
    expect(await replay(j, ['--config', j.config, '--state', 'delivered', '--dry-run'])).toEqual({
      code: 0,
      out:
        'would re-queue 0 deliveries\n' +
        `left 1 delivered delivery alone (${delivered}): the receiver already has it; add --include-delivered ` +
        'to send it again, with a new Idempotency-Key\n',
      err: '',
    });
    expect(await j.snapshot()).toEqual(before);
  });

  it('with ids, leaves out pending and unknown ones, and changes nothing', async () => {
    const j = await seedCliJournal(tempDir());
    const before = await j.snapshot();
    const args = [j.id(1, 'tickets'), j.id(3, 'tickets'), 'dlv_999', '--config', j.config, '--dry-run'];
    expect(await replay(j, args)).toEqual({
      code: 0,
      out: `would re-queue 1 deliveries: ${j.id(1, 'tickets')}\n`,
      err: '',
    });
    expect(await j.snapshot()).toEqual(before);
  });
});

describe('switchyard replay: usage errors change nothing', () => {
  it.each([
    [
      ['--state', 'lost'],
      '--state must be one of pending, delivered, dead, skipped, silenced, muted, suppressed, grouped, got "lost"',
    ],
    [['--target', 'tickets', '--since', 'yesterday'], '--since: "yesterday" is not a date-time, a date or a duration'],
    [['--since', '2026-11-22T10:00:00'], '--since: "2026-11-22T10:00:00" is not a date-time'],
    [['--since', '2026-02-30'], '--since: "2026-02-30" is not a date-time'],
    [['--until', '2h ago'], '--until: "2h ago" is not a date-time, a date or a duration'],
    [['--target', 'tickets', '--limit', '0'], '--limit must be a positive integer, got "0"'],
    [['--target', 'tickets', '--state'], "Option '--state <value>' argument missing"],
    [[], 'name deliveries by id or narrow them with at least one filter'],
    [['--dry-run'], 'name deliveries by id or narrow them with at least one filter'],
    [['dlv_1', '--target', 'tickets'], 'give either delivery ids or filters, not both'],
    [['--state', 'pending', '--target', 'tickets'], 'pending deliveries are already queued'],
    [['--state', 'silenced', '--include-delivered'], 'silenced deliveries are held by noise control on purpose'],
  ])('refuses %j with exit 2', async (args, message) => {
    const j = await seedCliJournal(tempDir());
    const before = await j.snapshot();
    const result = await replay(j, ['--config', j.config, ...args]);
    expect(result.code).toBe(2);
    expect(result.err).toContain(message);
    expect(result.out).toBe('');
    expect(await j.snapshot()).toEqual(before);
  });

  it('exits 1 and re-queues nothing else when an id is unknown or still pending', async () => {
    const j = await seedCliJournal(tempDir());
    const result = await replay(j, ['--config', j.config, j.id(0, 'tickets'), j.id(3, 'tickets'), 'dlv_999']);
    expect(result).toEqual({
      code: 1,
      out: `re-queued 1 deliveries: ${j.id(0, 'tickets')}\n`,
      err: `not re-queued (unknown, still pending, or held): ${j.id(3, 'tickets')} dlv_999\n`,
    });
  });
});

describe('switchyard replay of delivered deliveries', () => {
  it('leaves them alone without --include-delivered, says how many and how, exits 1, and changes nothing', async () => {
    const j = await seedCliJournal(tempDir());
    const before = await j.snapshot();
    const delivered = j.id(0, 'soc-slack');
    const note =
      `left 1 delivered delivery alone (${delivered}): the receiver already has it; add --include-delivered ` +
      'to send it again, with a new Idempotency-Key\n';
    expect(await replay(j, ['--config', j.config, delivered])).toEqual({
      code: 1,
      out: 're-queued 0 deliveries\n',
      err: note,
    });
    expect(await replay(j, ['--config', j.config, '--state', 'delivered'])).toEqual({
      code: 1,
      out: 're-queued 0 deliveries\n',
      err: note,
    });
    expect(await j.snapshot()).toEqual(before);
  });

  it('with --include-delivered and no --state, re-queues dead and delivered ones that match', async () => {
    const j = await seedCliJournal(tempDir());
    const result = await replay(j, ['--config', j.config, '--target', 'soc-slack', '--include-delivered']);
    const ids = [j.id(0, 'soc-slack'), j.id(1, 'soc-slack'), j.id(3, 'soc-slack')];
    expect(result).toEqual({ code: 0, out: `re-queued 3 deliveries: ${ids.join(' ')}\n`, err: '' });
  });

  it('with --include-delivered and no --state, leaves held deliveries alone, in a dry run too', async () => {
    const j = await seedCliJournal(tempDir());
    const held = await addHeldDeliveries(j, 'soc-slack');
    const filters = ['--config', j.config, '--target', 'soc-slack', '--include-delivered'];
    const ids = [j.id(0, 'soc-slack'), j.id(1, 'soc-slack'), j.id(3, 'soc-slack')];
    expect(await replay(j, [...filters, '--dry-run'])).toEqual({
      code: 0,
      out: `would re-queue 3 deliveries: ${ids.join(' ')}\n`,
      err: '',
    });
    expect(await replay(j, filters)).toEqual({ code: 0, out: `re-queued 3 deliveries: ${ids.join(' ')}\n`, err: '' });
    expect(await replay(j, ['--config', j.config, '--include-delivered', ...held])).toEqual({
      code: 1,
      out: 're-queued 0 deliveries\n',
      err: `not re-queued (unknown, still pending, or held): ${held.join(' ')}\n`,
    });
    const states = (await j.deliveries()).filter((d) => held.includes(d.id)).map((d) => d.state);
    expect(states.sort()).toEqual(['grouped', 'muted', 'silenced', 'suppressed']);
  });
});

describe('switchyard replay as a real process', () => {
  it('re-queues a delivered delivery only with --include-delivered; ATTEMPTS then agrees with the history', async () => {
    const j = await seedCliJournal(tempDir());
    const delivered = j.id(0, 'soc-slack');
    const refused = spawnCli(['replay', '--config', j.config, delivered], {});
    expect(await refused.exited).toBe(1);
    expect(refused.stderr()).toContain('left 1 delivered delivery alone');
    expect(refused.stderr()).toContain('add --include-delivered');
    expect((await j.deliveries()).find((d) => d.id === delivered)?.state).toBe('delivered');

    const resent = spawnCli(['replay', '--config', j.config, delivered, '--include-delivered'], {});
    expect({ code: await resent.exited, out: resent.stdout(), err: resent.stderr() }).toEqual({
      code: 0,
      out: `re-queued 1 deliveries: ${delivered}\n`,
      err: '',
    });
    const snapshot = (await j.snapshot()) as (StoredDelivery & { history: unknown[] })[];
    const row = snapshot.find((d) => d.id === delivered);
    expect(row).toMatchObject({ state: 'pending' });
    expect(row?.attempts).toBe(row?.history.length);
  });

  it('takes --config and filters on the command line, and exits 2 on a bad --since', async () => {
    const j = await seedCliJournal(tempDir());
    const before = await j.snapshot();
    const bad = spawnCli(['replay', '--config', j.config, '--target', 'tickets', '--since', 'last week'], {});
    expect(await bad.exited).toBe(2);
    expect(bad.stderr()).toContain('--since: "last week" is not a date-time, a date or a duration');
    expect(await j.snapshot()).toEqual(before);

    const good = spawnCli(['replay', '--config', j.config, '--target', 'soc-slack', '--since', '3h'], {});
    expect({ code: await good.exited, err: good.stderr() }).toEqual({ code: 0, err: '' });
    expect(good.stdout()).toBe(`re-queued 1 deliveries: ${j.id(3, 'soc-slack')}\n`);
  });
});
