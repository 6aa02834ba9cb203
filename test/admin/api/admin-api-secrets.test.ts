import { afterEach, describe, expect, it } from 'vitest';
import { rulesLoader } from '../../rules/support/load-rules-text.js';
import { seedJournal } from './seed-journal.js';
import { startAdminApi, type AdminApiHarness } from './start-admin-api.js';
import { OPERATOR } from './test-keys.js';
import { OPTION_VALUES, SECRETS, TEST_RULES } from './test-rules.js';

const rules = rulesLoader().compile(TEST_RULES, SECRETS);
let api: AdminApiHarness | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe('admin API and secrets', () => {
  it('describes the rules with names, types and delivery policy, and no target option', async () => {
    api = await startAdminApi({ rules });
    const answer = await api.request('/api/v1/rules', { key: OPERATOR.key });
    expect(answer.body).toEqual({
      version: rules.version,
      severities: ['info', 'low', 'medium', 'high', 'critical'],
      routes: [
        {
          name: 'serious-incidents',
          line: expect.any(Number),
          events: ['incident.*'],
          to: ['soc-slack', 'tickets'],
          stop: false,
        },
        { name: 'agents', line: expect.any(Number), events: ['agent.*'], to: ['tickets'], stop: true },
      ],
      fallback: ['oncall-mail'],
      targets: [
        expect.objectContaining({ name: 'soc-slack', type: 'slack', allowLinkLocal: false }),
        expect.objectContaining({ name: 'tickets', type: 'http' }),
        expect.objectContaining({ name: 'oncall-mail', type: 'email' }),
      ],
    });
    const [slack, tickets] = (answer.body as { targets: Record<string, unknown>[] }).targets;
    expect(Object.keys(slack ?? {}).sort()).toEqual(['allowLinkLocal', 'name', 'policy', 'type']);
    expect(slack?.policy).toMatchObject({ rateLimit: { perSecond: 1, burst: 5 }, concurrency: expect.any(Number) });
    expect(tickets?.policy).toMatchObject({ retry: { maxAttempts: 5 } });
  });

  it('puts no secret and no target option in any answer, and no key in the log', async () => {
    api = await startAdminApi({ rules, reloadRules: () => rules });
    const seed = await seedJournal(api.store);
    const key = OPERATOR.key;
    const answers = await Promise.all([
      api.request('/api/v1/rules', { key }),
      api.request('/api/v1/targets', { key }),
      api.request('/api/v1/events', { key }),
      api.request(`/api/v1/events/${seed.events[0]}`, { key }),
      api.request('/api/v1/deliveries', { key }),
      api.request(`/api/v1/deliveries/${seed.delivery(0, 'soc-slack')}`, { key }),
      api.request('/api/v1/dead-letters', { key }),
      api.request('/api/v1/route-test', {
        key,
        body: { event: 'incident.created', timestamp: '2026-11-22T10:00:00Z', data: { severity: 'critical' } },
      }),
      api.request('/api/v1/replay', { key, body: { target: 'tickets', dryRun: true } }),
      api.request('/api/v1/rules/reload', { key, method: 'POST' }),
      api.request('/api/v1/events'),
      api.request('/api/v1/nope', { key }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 401, 404]);
    const everything = answers.map((a) => `${a.text}\n${[...a.headers].join('\n')}`).join('\n');
    for (const secret of [...Object.values(SECRETS), ...OPTION_VALUES]) {
      expect(everything, secret).not.toContain(secret);
    }
    // Parts of the URLs that would identify them (a Slack webhook's path is its credential).
    expect(everything).not.toContain('T0SECRET');
    expect(everything).not.toContain('hooks.slack');
    expect(everything).not.toMatch(/https?:\/\//);
    expect(api.logs()).not.toContain(key);
    expect(api.logs()).toContain('admin API request refused');
  });
});
