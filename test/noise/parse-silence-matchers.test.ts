import { describe, expect, it } from 'vitest';
import { compileSilence } from '../../src/noise/compile-silence.js';
import { parseSilenceMatchers } from '../../src/noise/parse-silence-matchers.js';
import { compileRegex } from '../../src/rules/compile/compile-regex.js';
import { readSeverity } from '../../src/rules/match/read-severity.js';
import type { StoredSilence } from '../../src/store/stored-silence.js';
import { SwitchyardError } from '../../src/switchyard-error.js';
import { event } from '../rules/support/event.js';
import { rulesLoader } from '../rules/support/load-rules-text.js';
import { TARGETS_YAML } from '../rules/support/targets-yaml.js';

const rules = rulesLoader().compile(`${TARGETS_YAML}
routes:
  - { name: all, to: [a] }
`);
const parse = (...texts: string[]) => parseSilenceMatchers(texts, rules.severities);

/** Whether a silence with these matchers holds the event, compiled as ingest compiles it. */
function holds(texts: string[], kind: string, data: Record<string, unknown> = {}): boolean {
  const silence = { id: 'sil_1', matchers: parse(...texts) } as StoredSilence;
  const compiled = compileSilence(silence, rules, compileRegex);
  if (!compiled.ok) throw new Error(compiled.problems.join('; '));
  const envelope = event(kind, data);
  return compiled.compiled.matches({ envelope, ...readSeverity(envelope.data, rules.severities, rules.severityRanks) });
}

function refusal(...texts: string[]): string {
  try {
    parse(...texts);
  } catch (error) {
    if (error instanceof SwitchyardError && error.code === 'invalid_silence' && error.status === 400) {
      return error.message;
    }
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('parseSilenceMatchers', () => {
  it("turns amtool's form into a route's match:", () => {
    expect(parse('event=agent.offline', 'data.host=~db-.*', 'severity=HIGH')).toEqual({
      event: 'agent.offline',
      severity: { in: ['HIGH'] },
      where: [{ field: 'data.host', matches: '^(?:db-.*)$' }],
    });
    expect(parse('event!=agent.online', 'data.host!=db-1', 'data.site!~lab-.*')).toEqual({
      where: [
        { field: 'event', not: { equals: 'agent.online' } },
        { field: 'data.host', not: { equals: 'db-1' } },
        { field: 'data.site', not: { matches: '^(?:lab-.*)$' } },
      ],
    });
    expect(parse('data.port=22', 'data.note="22"', 'data.label="a b=c"')).toEqual({
      where: [
        { field: 'data.port', in: ['22', 22] },
        { field: 'data.note', equals: '22' },
        { field: 'data.label', equals: 'a b=c' },
      ],
    });
  });

  it('matches with each operator, all matchers together', () => {
    const dbOffline = ['event=agent.offline', 'data.host=~db-.*'];
    expect(holds(dbOffline, 'agent.offline', { host: 'db-1' })).toBe(true);
    expect(holds(dbOffline, 'agent.offline', { host: 'web-1' })).toBe(false);
    expect(holds(dbOffline, 'agent.online', { host: 'db-1' })).toBe(false);
    // Fully anchored, as Alertmanager's =~: "db-" inside the value is not enough.
    expect(holds(dbOffline, 'agent.offline', { host: 'old-db-1' })).toBe(false);
    expect(holds(['data.host!=db-1'], 'agent.offline', { host: 'db-2' })).toBe(true);
    expect(holds(['data.host!=db-1'], 'agent.offline', { host: 'db-1' })).toBe(false);
    expect(holds(['data.host!=db-1'], 'agent.offline', {})).toBe(true);
    expect(holds(['data.host!~db-.*'], 'agent.offline', { host: 'db-2' })).toBe(false);
    expect(holds(['data.host!~db-.*'], 'agent.offline', { host: 'web-2' })).toBe(true);
    expect(holds(['event=~agent\\..*'], 'agent.online')).toBe(true);
    expect(holds(['event=~agent\\..*'], 'incident.created')).toBe(false);
    expect(holds(['event!=agent.online'], 'agent.online')).toBe(false);
    expect(holds(['event=agent.offline', 'event!=agent.offline'], 'agent.offline')).toBe(false);
  });

  it('compares severity levels ignoring case, as routes do', () => {
    expect(holds(['severity=high'], 'incident.created', { severity: 'HIGH' })).toBe(true);
    expect(holds(['severity=high'], 'incident.created', { severity: 'low' })).toBe(false);
    expect(holds(['severity!=low'], 'incident.created', { severity: 'LOW' })).toBe(false);
    expect(holds(['severity!=low'], 'incident.created', { severity: 'high' })).toBe(true);
    expect(holds(['severity=~high|critical'], 'incident.created', { severity: 'Critical' })).toBe(true);
    expect(holds(['severity!~high|critical'], 'incident.created', { severity: 'critical' })).toBe(false);
    expect(holds(['severity=high', 'severity=low'], 'incident.created', { severity: 'high' })).toBe(false);
  });

  it('compares numbers and booleans by value or by text', () => {
    expect(holds(['data.port=22'], 'threat.detected', { port: 22 })).toBe(true);
    expect(holds(['data.port=22'], 'threat.detected', { port: '22' })).toBe(true);
    expect(holds(['data.port!=22'], 'threat.detected', { port: 22 })).toBe(false);
    expect(holds(['data.blocked=true'], 'threat.detected', { blocked: true })).toBe(true);
    expect(holds(['data.port="22"'], 'threat.detected', { port: 22 })).toBe(false);
  });

  it('refuses bad input with an error that names the matcher', () => {
    expect(refusal('event=agent.offline', 'host=db-1')).toMatch(/^matcher "host=db-1": expected NAME=VALUE/);
    expect(refusal('data.host')).toMatch(/^matcher "data.host": expected NAME=VALUE/);
    expect(refusal('data.host=')).toMatch(/^matcher "data.host=": no value/);
    expect(refusal('data.host=~(db')).toMatch(/^matcher "data.host=~\(db": invalid regular expression: /);
    expect(refusal('data.x=~(?=a)')).toMatch(/^matcher "data.x=~\(\?=a\)": invalid regular expression: RE2 has no/);
    expect(refusal('event=agent.*')).toMatch(/^matcher "event=agent.\*": not an event kind \(= compares exactly\)/);
    expect(refusal('event=agent..x')).toMatch(/^matcher "event=agent..x": not an event kind \(empty segment/);
    expect(refusal('severity=apocalyptic')).toBe(
      'matcher "severity=apocalyptic": "apocalyptic" is not one of the severities (info, low, medium, high, critical)',
    );
    expect(refusal('severity!=apocalyptic')).toMatch(/^matcher "severity!=apocalyptic": "apocalyptic" is not one/);
    expect(refusal('data.host="db-1')).toMatch(/^matcher "data.host=\\"db-1": a quoted value must be one JSON string/);
    expect(refusal('data..host=x')).toMatch(/^matcher "data..host=x": expected NAME=VALUE/);
  });
});
