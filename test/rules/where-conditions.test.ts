import { describe, expect, it } from 'vitest';
import { explainRoute } from '../../src/rules/explain-route.js';
import { routeEvent } from '../../src/rules/route-event.js';
import { event } from './support/event.js';
import { rulesLoader } from './support/load-rules-text.js';
import { TARGETS_YAML } from './support/targets-yaml.js';

const { compile, load } = rulesLoader();

/** Rules with one route holding the given condition; returns whether an event with `data` matches it. */
function condition(yaml: string): (data: Record<string, unknown>, kind?: string) => boolean {
  const rules = compile(`${TARGETS_YAML}
routes:
  - { name: r, match: { where: [${yaml}] }, to: [a] }
fallback: []
`);
  return (data, kind = 'incident.created') => routeEvent(rules, event(kind, data)).matchedRoutes.length === 1;
}

describe('where conditions', () => {
  it('equals compares type and value; on a list, any element', () => {
    const holds = condition('{ field: data.title, equals: Ransomware }');
    expect(holds({ title: 'Ransomware' })).toBe(true);
    expect(holds({ title: 'ransomware' })).toBe(false);
    expect(holds({})).toBe(false);
    const number = condition('{ field: data.count, equals: 5 }');
    expect(number({ count: 5 })).toBe(true);
    expect(number({ count: '5' })).toBe(false);
    const quoted = condition('{ field: data.count, equals: "5" }');
    expect(quoted({ count: '5' })).toBe(true);
    const tags = condition('{ field: data.agent.tags, equals: test }');
    expect(tags({ agent: { tags: ['lab', 'test'] } })).toBe(true);
    expect(tags({ agent: { tags: ['lab'] } })).toBe(false);
    expect(condition('{ field: data.flag, equals: null }')({ flag: null })).toBe(true);
    expect(condition('{ field: data.flag, equals: true }')({ flag: 'true' })).toBe(false);
  });

  it('in holds when the value (or any list element) is one of the values', () => {
    const holds = condition('{ field: data.environment, in: [production, prod, 1] }');
    expect(holds({ environment: 'prod' })).toBe(true);
    expect(holds({ environment: 1 })).toBe(true);
    expect(holds({ environment: 'staging' })).toBe(false);
    expect(holds({ environment: ['staging', 'prod'] })).toBe(true);
    expect(holds({})).toBe(false);
  });

  it('exists: true means present and not null; false means absent or null', () => {
    const present = condition('{ field: data.incident_id, exists: true }');
    const absent = condition('{ field: data.incident_id, exists: false }');
    expect(present({ incident_id: 'inc_1' })).toBe(true);
    expect(present({ incident_id: '' })).toBe(true);
    expect(present({ incident_id: null })).toBe(false);
    expect(present({})).toBe(false);
    expect(absent({})).toBe(true);
    expect(absent({ incident_id: null })).toBe(true);
    expect(absent({ incident_id: 0 })).toBe(false);
  });

  it('matches searches strings only', () => {
    const holds = condition(`{ field: data.title, matches: "(?i)ransom" }`);
    expect(holds({ title: 'RANSOMware' })).toBe(true);
    expect(holds({ title: 'phishing' })).toBe(false);
    expect(holds({ title: 42 })).toBe(false);
    expect(holds({ title: { text: 'ransom' } })).toBe(false);
    expect(holds({ title: ['x', 'ransom'] })).toBe(true);
    expect(holds({})).toBe(false);
  });

  it('not inverts one operator, and holds for an absent field', () => {
    const holds = condition(`{ field: data.host, not: { matches: "^lab-" } }`);
    expect(holds({ host: 'web-1' })).toBe(true);
    expect(holds({ host: 'lab-1' })).toBe(false);
    expect(holds({})).toBe(true);
    expect(condition('{ field: data.suppressed, not: { equals: true } }')({ suppressed: true })).toBe(false);
    expect(condition('{ field: data.x, not: { in: [a, b] } }')({ x: 'c' })).toBe(true);
    expect(condition('{ field: data.x, not: { exists: true } }')({})).toBe(true);
  });

  it('reads top-level event and timestamp, nested paths and list indexes', () => {
    expect(condition(`{ field: event, matches: "^agent\\\\." }`)({}, 'agent.offline')).toBe(true);
    expect(condition(`{ field: event, matches: "^agent\\\\." }`)({}, 'incident.created')).toBe(false);
    expect(condition('{ field: timestamp, equals: "2026-11-22T10:00:00Z" }')({})).toBe(true);
    expect(condition('{ field: data.hosts.1.name, equals: b }')({ hosts: [{ name: 'a' }, { name: 'b' }] })).toBe(true);
    expect(condition('{ field: data.a.b.c, equals: 1 }')({ a: { b: 'not an object' } })).toBe(false);
  });

  it('never reads inherited properties', () => {
    expect(condition('{ field: data.constructor, exists: true }')({})).toBe(false);
    expect(condition('{ field: data.__proto__, exists: true }')({})).toBe(false);
    expect(condition('{ field: data.title.length, equals: 3 }')({ title: 'abc' })).toBe(false);
  });

  it('requires all conditions of a route to hold, and explains the first that fails', () => {
    const rules = compile(`${TARGETS_YAML}
routes:
  - name: r
    match:
      where:
        - { field: data.environment, in: [production] }
        - { field: data.title, matches: "(?i)ransom" }
    to: [a]
fallback: []
`);
    const explain = (data: Record<string, unknown>) =>
      explainRoute(rules, event('incident.created', data)).steps[0]?.failed;
    expect(explain({ environment: 'production', title: 'Ransom' })).toBeNull();
    expect(explain({ environment: 'staging', title: 'Ransom' })).toBe(
      'data.environment: "staging" is not in ["production"]',
    );
    expect(explain({ environment: 'production', title: 'Phish' })).toBe(
      'data.title: "Phish" does not match /(?i)ransom/',
    );
    expect(explain({ environment: 'production', title: 7 })).toBe(
      'data.title: 7 is not a string, so it does not match /(?i)ransom/',
    );
    expect(explain({ title: 'x' })).toBe('data.environment: absent, so is in ["production"] does not hold');
  });

  it('rejects conditions without exactly one operator and bad field paths, with locations', () => {
    const result = load(`${TARGETS_YAML}
routes:
  - name: r
    match:
      where:
        - { field: data.x }
        - { field: data.x, equals: 1, in: [1] }
        - { field: body.x, exists: true }
        - { field: data.x, not: { equals: 1, matches: a } }
        - { field: data.x, matches: "(unclosed" }
    to: [a]
fallback: []
`);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(
      result.problems.filter((p) => p.severity === 'error').map((p) => `${p.line}:${p.column} ${p.message}`),
    ).toEqual([
      '10:11 routes[0].match.where[0]: a condition takes field and exactly one of equals, in, exists, matches, not',
      '11:11 routes[0].match.where[1]: a condition takes field and exactly one of equals, in, exists, matches, not',
      '12:20 routes[0].match.where[2].field: must be a field path: event, timestamp, data or data.<key>[.<key>...]',
      '13:33 routes[0].match.where[3].not: not takes exactly one of equals, in, exists, matches',
      '14:37 invalid regular expression: missing closing ): `(unclosed`',
    ]);
  });

  it('reports lookahead at the pattern, with the not: form to use instead', () => {
    const result = load(`${TARGETS_YAML}
routes:
  - name: not-test-hosts
    match:
      where:
        - { field: data.host, matches: "^(?!test-)" }
    to: [a]
fallback: []
`);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const errors = result.problems.filter((p) => p.severity === 'error');
    expect(errors.map((p) => `${p.line}:${p.column} ${p.code}: ${p.message}`)).toEqual([
      '10:40 bad_regex: invalid regular expression: RE2 has no lookahead or lookbehind ("(?!" is not supported): to require that a value does not match a pattern, write that pattern as its own condition: not: { matches: PATTERN }',
    ]);
  });
});
