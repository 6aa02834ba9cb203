import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { SOURCE_SECRET, startTestDaemon, type TestDaemon } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs();
let daemon: TestDaemon | undefined;
afterEach(async () => {
  await daemon?.running.close();
  daemon = undefined;
});

it('folds each accepted event with an incident or an agent into its record; others write none', async () => {
  const dir = tempDir();
  const running = (daemon = await startTestDaemon(dir));
  const send = async (event: string, data: Record<string, unknown>) => {
    const answer = await postWebhook(running.url, envelope(event, data), { secret: SOURCE_SECRET });
    expect(answer.status).toBe(200);
  };
  await send('incident.created', {
    incident_id: 'inc_1',
    severity: 'High',
    title: 'Ransomware on fs-02',
    host: 'fs-02',
  });
  await send('incident.updated', { incident_id: 'inc_1', severity: 'critical' });
  await send('incident.resolved', { incident_id: 'inc_1', title: 'Files restored' });
  await send('agent.offline', { host: 'db-1', agent: { id: 'agt_17', name: 'db-1' } });
  await send('threat.detected', { severity: 'high', title: 'Credential dumping', host: 'hr-laptop-12' });
  // The same body again is a duplicate: not counted twice.
  await send('agent.offline', { host: 'db-1', agent: { id: 'agt_17', name: 'db-1' } });

  const store = createSqliteStore({ path: path.join(dir, 'journal.db') });
  try {
    const records = await store.findIncidents({ limit: 10 });
    expect(records.map((r) => [r.key, r.state, r.events])).toEqual([
      ['agent:agt_17', 'open', 1],
      ['incident:inc_1', 'resolved', 3],
    ]);
    expect(records[1]).toMatchObject({
      source: 'monitor',
      title: 'Ransomware on fs-02',
      severityHighest: 'critical',
      severityCurrent: 'critical',
      host: 'fs-02',
    });
    expect(records[0]).toMatchObject({ host: 'db-1', agent: 'agt_17', severityCurrent: null });
    const history = await store.incidentHistory('monitor', 'incident:inc_1');
    expect(history.events.map((e) => e.kind)).toEqual(['incident.created', 'incident.updated', 'incident.resolved']);
    // Routed to Slack and mail (serious-incidents), the resolve to the fallback: the history carries them all.
    expect(history.deliveries.map((d) => d.target).sort()).toEqual([
      'oncall-mail',
      'oncall-mail',
      'soc-slack',
      'soc-slack',
      'tickets',
    ]);
  } finally {
    await store.close();
  }
}, 60_000);
