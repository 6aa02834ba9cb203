import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../src/ingest/envelope.js';
import { correlationKeys } from '../../src/lifecycle/correlation-keys.js';
import type { CompiledRules, HttpTargetSpec, TargetSpec } from '../../src/rules/rules.js';
import { compileTemplate } from '../../src/templates/compile-template.js';
import { makeHttpSpec, makePagerdutySpec } from '../delivery/targets/make-target-spec.js';

function rules(keys: Record<string, string | null>): CompiledRules {
  const targets = Object.entries(keys).map(([name, key]): [string, HttpTargetSpec] => [
    name,
    makeHttpSpec({ name, correlationKey: key === null ? null : compileTemplate(key) }),
  ]);
  return { targets: new Map(targets) } as unknown as CompiledRules;
}
const envelope = (data: Record<string, unknown>) =>
  ({ event: 'incident.updated', timestamp: '2026-11-22T10:00:00Z', data }) as Envelope;

describe('correlationKeys', () => {
  it('renders each target key over the event, parallel to the targets, null for a target without one', () => {
    const compiled = rules({ tickets: 'jira:{{ data.incident_id }}', slack: null });
    expect(correlationKeys(compiled, envelope({ incident_id: 'inc_7' }), ['slack', 'tickets', 'gone'])).toEqual([
      null,
      'jira:inc_7',
      null,
    ]);
  });

  it('gives no keys at all when no target has one (the item then carries none)', () => {
    expect(correlationKeys(rules({ slack: null }), envelope({}), ['slack'])).toBeUndefined();
  });

  it('leaves a key that renders empty or fails unordered, and cuts a long one to 200 characters', () => {
    const compiled = rules({
      empty: '{{ data.missing }}',
      broken: '{% for i in (1..100000000) %}{% endfor %}',
      long: '{{ data.id }}',
    });
    const keys = correlationKeys(compiled, envelope({ n: 1, id: 'x'.repeat(500) }), ['empty', 'broken', 'long']);
    expect(keys).toEqual([null, null, 'x'.repeat(200)]);
  });

  it('gives a lifecycle target without key: the incident or the agent, and other targets nothing', () => {
    const tickets = makePagerdutySpec({ name: 'tickets', correlationKey: null });
    const plain = makeHttpSpec({ name: 'plain', correlationKey: null });
    const compiled = {
      targets: new Map<string, TargetSpec>([
        ['tickets', tickets],
        ['plain', plain],
      ]),
    } as unknown as CompiledRules;
    expect(correlationKeys(compiled, envelope({ incident_id: 'inc_7' }), ['tickets', 'plain'])).toEqual([
      'incident:inc_7',
      null,
    ]);
    const agent = { event: 'agent.offline', timestamp: '2026-11-22T10:00:00Z', data: { agent: { id: 'agt_1' } } };
    expect(correlationKeys(compiled, agent as Envelope, ['tickets'])).toEqual(['agent:agt_1']);
    expect(correlationKeys(compiled, { ...agent, event: 'threat.detected' } as Envelope, ['tickets'])).toBeUndefined();
  });
});
