import { describe, expect, it } from 'vitest';
import { groupChecks } from '../../src/noise/group-checks.js';
import { event } from '../rules/support/event.js';
import { rulesLoader } from '../rules/support/load-rules-text.js';

const { compile } = rulesLoader();

const RULES = `targets:
  chat: { type: slack, webhook_url: "https://hooks.example/x" }
  tickets: { type: http, url: "https://tickets.example/x" }
  mail: { type: http, url: "https://mail.example/x" }
routes:
  - name: storm
    match: { event: "agent.*" }
    to: [chat, tickets]
    group: { by: ["{{ data.host }}", "{{ data.rule }}"], wait: 30s, interval: 5m, max_events: 20 }
  - name: again
    match: { event: "agent.*" }
    to: [chat]
    group: { by: ["{{ data.site }}"], wait: 1m }
  - name: all
    to: [mail]
fallback: []
`;

describe('groupChecks', () => {
  it('groups each target by the first matched route with a group that sent the event there, one key per route', () => {
    const rules = compile(RULES);
    const checks = groupChecks(
      rules,
      event('agent.offline', { host: 'db-1', site: 'paris' }),
      ['storm', 'again', 'all'],
      ['chat', 'tickets', 'mail'],
    );
    const storm = { route: 'storm', key: 'storm|db-1|', waitMs: 30_000, intervalMs: 300_000, maxEvents: 20 };
    // A missing `by` value is empty. No digest id: the journal makes one only when it opens a digest.
    expect(checks).toEqual([storm, storm, null]);
  });

  it('groups case, whitespace and zero-width variants of a value together only with normalize_key: true', () => {
    const keysOf = (extra: string) => {
      const rules = compile(`targets:
  mail: { type: http, url: "https://mail.example/x" }
routes:
  - { name: storm, to: [mail], group: { by: ["{{ data.host }}", "{{ data.rule }}"]${extra} } }
`);
      return ['H1', 'h1 ', 'h1\u200b'].map(
        (host) => groupChecks(rules, event('agent.offline', { host, rule: ' SSH' }), ['storm'], ['mail'])?.[0]?.key,
      );
    };
    expect(keysOf('')).toEqual(['storm|H1| SSH', 'storm|h1 | SSH', 'storm|h1\u200b| SSH']);
    expect(keysOf(', normalize_key: true')).toEqual(Array(3).fill('storm|h1|ssh'));
  });

  it('is undefined when no matched route groups', () => {
    const rules = compile(RULES);
    expect(groupChecks(rules, event('incident.created', {}), ['all'], ['mail'])).toBeUndefined();
    expect(
      groupChecks(compile(RULES.replace(/ *group: .*\n/g, '')), event('agent.offline', {}), ['storm'], ['chat']),
    ).toBeUndefined();
  });

  it('cuts long keys to 200 characters', () => {
    const rules = compile(RULES);
    const [check] = groupChecks(rules, event('agent.offline', { host: 'h'.repeat(500) }), ['storm'], ['chat']) ?? [];
    expect(check?.key).toHaveLength(200);
  });
});
