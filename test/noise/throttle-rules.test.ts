import { describe, expect, it } from 'vitest';
import { throttleChecks } from '../../src/noise/throttle-checks.js';
import { event } from '../rules/support/event.js';
import { rulesLoader } from '../rules/support/load-rules-text.js';

const { load, compile } = rulesLoader();

function problems(text: string): string[] {
  const result = load(text);
  const list = result.ok ? result.warnings : result.problems;
  return list.filter((p) => p.severity === 'error').map((p) => `${p.line}:${p.column} ${p.code}: ${p.message}`);
}

const RULES = `targets:
  chat: { type: slack, webhook_url: "https://hooks.example/x", throttle: { key: "{{ data.host }}", window: 10m } }
  tickets: { type: http, url: "https://tickets.example/x" }
  mail: { type: http, url: "https://mail.example/x" }
routes:
  - name: storm
    match: { event: "agent.*" }
    to: [chat, tickets]
    throttle: { key: "{{ data.agent.id }}", window: 5m, max: 3 }
  - name: all
    to: [mail]
`;

describe('throttle rules', () => {
  it('applies a target throttle first, else the throttle of the first matched route that sent the event there', () => {
    const rules = compile(RULES);
    const checks = throttleChecks(
      rules,
      event('agent.offline', { host: 'db-1', agent: { id: 'agt_1' } }),
      ['storm', 'all'],
      ['chat', 'tickets', 'mail'],
    );
    expect(checks).toEqual([
      { by: 'target:chat', key: 'target:chat|db-1', windowMs: 600_000, max: 1 },
      { by: 'route:storm', key: 'route:storm|tickets|agt_1', windowMs: 300_000, max: 3 },
      null,
    ]);
    expect(throttleChecks(rules, event('incident.created'), ['all'], ['mail'])).toBeUndefined();
  });

  it('clips long keys and gives a key that renders nothing the empty key', () => {
    const rules = compile(RULES);
    const long = throttleChecks(rules, event('agent.offline', { host: 'h'.repeat(500) }), ['storm'], ['chat']);
    expect(long?.[0]?.key).toBe(`target:chat|${'h'.repeat(200)}`);
    expect(throttleChecks(rules, event('agent.offline', {}), ['storm'], ['chat'])?.[0]?.key).toBe('target:chat|');
  });

  it('compares keys exactly as rendered unless normalize_key: true, then normalised before they are cut', () => {
    const keysOf = (text: string, hosts: readonly string[]) =>
      hosts.map((host) => throttleChecks(compile(text), event('agent.offline', { host }), ['all'], ['mail'])?.[0]?.key);
    const rules = (extra: string) => `targets:
  mail: { type: http, url: "https://mail.example/x", throttle: { key: "{{ data.host }}", window: 10m${extra} } }
routes:
  - { name: all, to: [mail] }
`;
    const variants = ['H1', 'h1 ', 'h1\u200b'];
    expect(keysOf(rules(''), variants)).toEqual(['target:mail|H1', 'target:mail|h1 ', 'target:mail|h1\u200b']);
    expect(keysOf(rules(', normalize_key: false'), variants)).toEqual(keysOf(rules(''), variants));
    expect(keysOf(rules(', normalize_key: true'), variants)).toEqual(Array(3).fill('target:mail|h1'));
    expect(keysOf(rules(', normalize_key: true'), [` ${'H'.repeat(300)}`])).toEqual([`target:mail|${'h'.repeat(200)}`]);
    expect(problems(rules(', normalize_key: yes'))).toEqual([
      expect.stringMatching(/^2:\d+ schema: targets\.mail\.throttle\.normalize_key: must be true or false$/),
    ]);
  });

  it('reports a zero window, a bad key template and a bad max where they are written', () => {
    const text = `targets:
  chat: { type: slack, webhook_url: "https://hooks.example/x", throttle: { key: "{{ data.host", window: 0s } }
routes:
  - name: storm
    to: [chat]
    throttle: { window: 0m, max: 0 }
  - name: other
    to: [chat]
    throttle: { key: "{{ data.x }}" }
`;
    const found = problems(text);
    expect(found).toEqual([
      expect.stringMatching(/^2:\d+ template_syntax: targets\.chat\.throttle\.key: /),
      expect.stringMatching(/^2:\d+ zero_throttle_window: targets\.chat\.throttle\.window: a throttle window of zero/),
      expect.stringMatching(/^6:\d+ schema: routes\[0\]\.throttle\.max: must be >= 1/),
      expect.stringMatching(/^9:\d+ schema: routes\[1\]\.throttle: .*window/),
    ]);
  });
});
