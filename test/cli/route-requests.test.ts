import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runRoute } from '../../src/cli/route-command.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { fakeCliIo } from '../rules/support/fake-cli-io.js';
import { LIFECYCLE_RULES } from '../lifecycle/support/lifecycle-rules.js';
import { seedStartedKey } from '../store/seed-started-key.js';

const tempDir = useTempDirs();
const envelope = (kind: string, data: Record<string, unknown>) =>
  JSON.stringify({ event: kind, timestamp: '2026-11-22T10:00:00Z', data });

describe('switchyard route: the request each keyed delivery would use', () => {
  let dir = '';
  beforeEach(async () => {
    dir = tempDir();
    writeFileSync(path.join(dir, 'rules.yaml'), LIFECYCLE_RULES);
    writeFileSync(
      path.join(dir, 'switchyard.yaml'),
      'store: { sqlite: { path: ./journal.db } }\nsources: { monitor: { secrets: ["${MONITOR_SECRET}"] } }\n',
    );
    // The journal of a daemon that delivered the create of incident inc_1 and captured its ticket.
    const store = createSqliteStore({ path: path.join(dir, 'journal.db') });
    try {
      await store.migrate();
      await seedStartedKey(store, 'tickets', 'incident:inc_1', { ticket: 'SOC-SECRETLESS-1' });
    } finally {
      await store.close();
    }
  });

  const route = async (kind: string, data: Record<string, unknown>, ...extra: string[]) => {
    const io = fakeCliIo(dir, {}, envelope(kind, data));
    const code = await runRoute(['rules.yaml', ...extra], io);
    expect(io.err()).toBe('');
    expect(code).toBe(0);
    return io.out();
  };

  it('names both possible requests without a journal, and the resolve by its kind', async () => {
    const updated = await route('incident.updated', { incident_id: 'inc_1', host: 'web-1' });
    expect(updated).toContain(
      [
        'requests:',
        '  tickets  create (first event of key incident:inc_1) or update (later events)',
        '  ordered  create (first event of key web-1) or update (later events)',
        '',
      ].join('\n'),
    );
    expect(updated).not.toMatch(/^ {2}chat /m);
    const resolved = await route('incident.resolved', { incident_id: 'inc_1' });
    expect(resolved).toContain('  tickets  resolve (incident.resolved ends key incident:inc_1)\n');
    const keyless = await route('incident.updated', { title: 'no id' });
    expect(keyless).toContain('  tickets  create (no correlation key: the event stands alone)\n');
  });

  it('says exactly with --config: update for a key the journal has references for, create for a new one', async () => {
    const started = await route('incident.updated', { incident_id: 'inc_1' }, '--config', 'switchyard.yaml');
    expect(started).toContain('  tickets  update (key incident:inc_1 was started (references ticket))\n');
    const fresh = await route('incident.updated', { incident_id: 'inc_2' }, '--config', 'switchyard.yaml');
    expect(fresh).toContain('  tickets  create (nothing delivered yet for key incident:inc_2)\n');

    const json = JSON.parse(
      await route('incident.updated', { incident_id: 'inc_1' }, '--config', 'switchyard.yaml', '--json'),
    ) as { requests: unknown[] };
    expect(json.requests).toEqual([
      {
        target: 'tickets',
        key: 'incident:inc_1',
        request: 'update',
        because: 'key incident:inc_1 was started (references ticket)',
        references: ['ticket'],
      },
      {
        target: 'ordered',
        key: null,
        request: 'create',
        because: 'no correlation key: the event stands alone',
      },
    ]);
    // Reference values are what a ticketing system answered: names only are shown.
    expect(JSON.stringify(json)).not.toContain('SOC-SECRETLESS-1');
  });
});
