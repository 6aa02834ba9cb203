import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runRoute } from '../../src/cli/route-command.js';
import { runTest } from '../../src/cli/test-command.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { fakeCliIo } from '../rules/support/fake-cli-io.js';
import { makeIngestItem } from '../store/make-ingest-item.js';
import { FOLLOW_THROUGH_ROUTES } from '../lifecycle/support/follow-through-routes.js';

const tempDir = useTempDirs();
const RULES = `targets:
  pager: { type: pagerduty, routing_key: "c0ffee5ecre7c0ffee5ecre7c0ffee5e" }
  tickets: { type: http, url: https://tickets.example/api, key: "{{ data.incident_id }}" }
  chat: { type: slack, webhook_url: https://hooks.slack.example/y, follow: false }
${FOLLOW_THROUGH_ROUTES}`;
const REASON = 'followed incident:inc_1 (it received this incident before)';
const event = (kind: string, data: string) => `{ event: ${kind}, timestamp: "2026-11-22T10:00:00Z", data: ${data} }`;

describe('switchyard test: an update or resolve follows the incident to the targets named in references', () => {
  it('sends the resolve to the paged target only, and says why when a case fails', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'rules.yaml'), RULES);
    writeFileSync(
      path.join(dir, 'tests.yaml'),
      `cases:
  - name: a paged incident is resolved in PagerDuty
    event: ${event('incident.resolved', '{ incident_id: inc_1 }')}
    references: { pager: {}, chat: {} }
    expect: [pager]
    expect_requests: { pager: resolve }
  - name: a lowered update still reaches the ticket
    event: ${event('incident.updated', '{ incident_id: inc_1, severity: low }')}
    references: { tickets: {} }
    expect: []
  - name: one never paged is not resolved there
    event: ${event('incident.resolved', '{ incident_id: inc_1 }')}
    expect: []
`,
    );
    const io = fakeCliIo(dir);
    expect(await runTest(['rules.yaml', 'tests.yaml'], io)).toBe(1);
    expect(io.err()).toBe('');
    expect(io.out()).toBe(
      [
        'PASS  a paged incident is resolved in PagerDuty',
        'FAIL  a lowered update still reaches the ticket (line 7)',
        '        unexpected: [tickets]',
        '        matched routes: none',
        `        tickets: ${REASON}`,
        'PASS  one never paged is not resolved there',
        '3 cases: 2 passed, 1 failed',
        '',
      ].join('\n'),
    );
  });
});

describe('switchyard route: where an update or resolve follows its incident', () => {
  const setUp = async (): Promise<string> => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'rules.yaml'), RULES);
    writeFileSync(
      path.join(dir, 'switchyard.yaml'),
      'store: { sqlite: { path: ./journal.db } }\nsources: { monitor: { secrets: ["${MONITOR_SECRET}"] } }\n',
    );
    // The journal of a daemon that paged incident inc_1 (and posted it to chat).
    const store = createSqliteStore({ path: path.join(dir, 'journal.db') });
    try {
      await store.migrate();
      const item = makeIngestItem({ targets: ['pager', 'chat'], severity: 'critical' });
      const incident = { key: 'incident:inc_1', severity: 'critical', severityRank: 3, host: null, agent: null };
      const event = { ...item.event, matchedRoutes: ['critical-pages', 'tickets'] };
      await store.ingest([{ ...item, event, keys: ['incident:inc_1', null], incident }]);
    } finally {
      await store.close();
    }
    return dir;
  };
  const route = async (dir: string, kind: string, data: Record<string, unknown>, ...extra: string[]) => {
    const io = fakeCliIo(dir, {}, JSON.stringify({ event: kind, timestamp: '2026-11-22T10:00:00Z', data }));
    const code = await runRoute(['rules.yaml', ...extra], io);
    expect(io.err()).toBe('');
    expect(code).toBe(0);
    return io.out();
  };

  it('names the followed target and its resolve with --config, and the candidates without', async () => {
    const dir = await setUp();
    const withJournal = await route(dir, 'incident.resolved', { incident_id: 'inc_1' }, '--config', 'switchyard.yaml');
    expect(withJournal).toContain('also:     pager: followed incident:inc_1 from route critical-pages\n');
    expect(withJournal).toContain('  pager  resolve (incident.resolved ends key incident:inc_1)\n');
    expect(withJournal).not.toMatch(/chat|tickets:/);
    const json = JSON.parse(
      await route(dir, 'incident.resolved', { incident_id: 'inc_1' }, '--config', 'switchyard.yaml', '--json'),
    ) as { followed: unknown };
    expect(json.followed).toEqual([{ target: 'pager', reason: 'followed incident:inc_1 from route critical-pages' }]);
    // Another incident reached nothing: its resolve follows nowhere.
    const other = await route(dir, 'incident.resolved', { incident_id: 'inc_2' }, '--config', 'switchyard.yaml');
    expect(other).not.toContain('also:');

    const without = await route(dir, 'incident.resolved', { incident_id: 'inc_1' });
    expect(without).toContain(
      'follows:  pager, tickets, those its incident reached before (--config reads the journal)\n',
    );
  });
});
