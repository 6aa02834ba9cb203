import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../src/ingest/envelope.js';
import { correlationKeys } from '../../src/lifecycle/correlation-keys.js';
import type { CompiledRules, HttpTargetSpec } from '../../src/rules/rules.js';
import { compileTemplate } from '../../src/templates/compile-template.js';
import { makeHttpSpec } from '../delivery/targets/make-target-spec.js';

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

  it('gives a lifecycle target without key: the default key, and leaves other targets without one unordered', () => {
    const create = { method: 'POST', url: 'https://h.example/x', urlTemplate: null, body: { kind: 'forward' } };
    const lifecycle = makeHttpSpec({
      name: 'tickets',
      requests: { create: { ...create, capture: [] }, update: null, resolve: null },
    } as Partial<HttpTargetSpec>);
    const compiled = {
      targets: new Map<string, HttpTargetSpec>([
        ['tickets', lifecycle],
        ['plain', makeHttpSpec({ name: 'plain' })],
      ]),
    } as unknown as CompiledRules;
    expect(correlationKeys(compiled, envelope({ incident_id: 'inc_7' }), ['plain', 'tickets'])).toEqual([
      null,
      'incident:inc_7',
    ]);
    expect(correlationKeys(compiled, envelope({}), ['plain', 'tickets'])).toBeUndefined();
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
});
