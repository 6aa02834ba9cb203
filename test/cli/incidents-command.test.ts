import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runIncidents } from '../../src/cli/incidents-command.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { fakeCliIo } from '../rules/support/fake-cli-io.js';
import { incidentItem } from '../store/incident-store-contract.js';
import { T0 } from '../store/make-ingest-item.js';

const tempDir = useTempDirs();

/** A journal with three incidents: inc_1 delivered to jira and resolved, agent ag_7 open, inc_2 (other source). */
async function seed(dir: string): Promise<string> {
  const config = path.join(dir, 'switchyard.yaml');
  writeFileSync(
    config,
    'store: { sqlite: { path: ./journal.db } }\nsources: { monitor: { secrets: ["${MONITOR_SECRET}"] } }\n',
  );
  const store = createSqliteStore({ path: path.join(dir, 'journal.db') });
  try {
    await store.migrate();
    const keyed = (item: ReturnType<typeof incidentItem>) => ({ ...item, keys: ['incident:inc_1'] });
    await store.ingest([
      keyed(incidentItem(0, 'incident.created', 'incident:inc_1', { targets: ['jira'], title: 'Ransomware on fs-02' })),
      incidentItem(1, 'agent.offline', 'agent:ag_7', { targets: ['slack'], facts: { severity: 'low', host: 'db-1' } }),
      incidentItem(2, 'incident.created', 'incident:inc_2', { source: 'other', targets: [] }),
    ]);
    const claims = await store.claimDue({ target: 'jira', now: T0 + 3_000, limit: 5, leaseMs: 60_000 });
    await store.recordAttempts(
      claims.map((c) => ({
        deliveryId: c.delivery.id,
        claimToken: c.claimToken,
        attempt: { startedAt: T0 + 3_000, durationMs: 5, outcome: 'delivered', statusCode: 201, detail: null },
        next: { state: 'delivered', nextAttemptAt: T0 + 3_005, lastError: null },
        references: { merge: { issue: 'SOC-42' } },
      })),
    );
    await store.ingest([
      keyed(incidentItem(4, 'incident.resolved', 'incident:inc_1', { targets: ['jira'], facts: { host: null } })),
    ]);
  } finally {
    await store.close();
  }
  return config;
}

async function run(args: readonly string[]): Promise<{ code: number | string; out: string; err: string }> {
  const cli = spawnCli(['incidents', ...args], {});
  const code = await cli.exited;
  return { code, out: cli.stdout(), err: cli.stderr() };
}

describe('switchyard incidents', () => {
  it('lists incident records, newest activity first, filtered by state and target', async () => {
    const config = await seed(tempDir());
    const all = await run(['--config', config]);
    expect(all.err).toBe('');
    expect(all.code).toBe(0);
    const lines = all.out.trim().split('\n');
    expect(lines[0]).toMatch(/^KEY\s+SOURCE\s+STATE\s+SEVERITY/);
    expect(lines.slice(1).map((line) => line.split(/\s+/).slice(0, 3))).toEqual([
      ['incident:inc_1', 'monitor', 'resolved'],
      ['incident:inc_2', 'other', 'open'],
      ['agent:ag_7', 'monitor', 'open'],
    ]);
    expect(all.out).toContain('Ransomware on fs-02');

    const open = await run(['--config', config, '--state', 'open', '--target', 'slack', '--json']);
    expect(open.code).toBe(0);
    expect(JSON.parse(open.out)).toEqual([
      expect.objectContaining({ key: 'agent:ag_7', state: 'open', severityCurrent: 'low', host: 'db-1', events: 1 }),
    ]);
    expect((await run(['--config', config, '--state', 'resolved', '--target', 'slack'])).out).toBe(
      'no incidents match\n',
    );
  }, 90_000);

  it('shows one incident: what each target was sent and keeps, and its events and deliveries in order', async () => {
    const config = await seed(tempDir());
    const shown = await run(['--config', config, 'show', 'incident:inc_1']);
    expect(shown.err).toBe('');
    expect(shown.code).toBe(0);
    expect(shown.out).toContain('incident:inc_1 (monitor): resolved, resolved ');
    expect(shown.out).toMatch(/jira\s+1\s+0\s+0\s+dlv_\d+\s+pending\s+\{"issue":"SOC-42"\}/);
    expect(shown.out).toMatch(/incident\.created\s+high\s+dlv_1\s+jira\s+delivered/);
    expect(shown.out.indexOf('incident.created')).toBeLessThan(shown.out.indexOf('incident.resolved'));

    const json = await run(['--config', config, 'show', 'incident:inc_1', '--json']);
    const body = JSON.parse(json.out) as { incident: object; events: { kind: string }[]; deliveries: object[] };
    expect(body.incident).toMatchObject({ key: 'incident:inc_1', state: 'resolved', events: 2, host: 'fs-02' });
    expect(body.events.map((e) => e.kind)).toEqual(['incident.created', 'incident.resolved']);
    expect(body.deliveries).toHaveLength(2);
  }, 90_000);

  it('says when an incident is unknown, and refuses bad options with usage', async () => {
    const config = await seed(tempDir());
    const missing = await run(['--config', config, 'show', 'incident:nope']);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('not_found: no incident incident:nope');
    for (const args of [['--state', 'closed'], ['show'], ['list'], ['--limit', '0']]) {
      const io = fakeCliIo(path.dirname(config));
      expect(await runIncidents(['--config', config, ...args], io), args.join(' ')).toBe(2);
      expect(io.err()).toContain('usage: switchyard incidents');
      expect(io.out()).toBe('');
    }
  }, 60_000);
});
