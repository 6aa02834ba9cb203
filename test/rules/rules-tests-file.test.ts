import { describe, expect, it } from 'vitest';
import { loadRulesTestsFile } from '../../src/rules/tests/load-rules-tests-file.js';
import { runRulesTests } from '../../src/rules/tests/run-rules-tests.js';
import { event } from './support/event.js';
import { rulesLoader } from './support/load-rules-text.js';
import { useTempDir } from './support/temp-dir.js';
import { TARGETS_YAML } from './support/targets-yaml.js';

const temp = useTempDir();
const { compile } = rulesLoader();

describe('routing tests files', () => {
  it('loads cases with their line; unquoted timestamps stay strings', () => {
    const path = temp.write(
      'ok.yaml',
      `cases:
  - name: one
    event: { event: incident.created, timestamp: 2026-11-22T10:00:00Z, data: { severity: high } }
    expect: [a]
`,
    );
    expect(loadRulesTestsFile(path)).toEqual({
      ok: true,
      cases: [{ name: 'one', line: 2, event: event('incident.created', { severity: 'high' }), expect: ['a'] }],
    });
  });

  it('locates schema errors, invalid events and duplicate names, all in one run', () => {
    const path = temp.write(
      'bad.yaml',
      `cases:
  - name: no expect
    event: { event: incident.created, timestamp: "2026-11-22T10:00:00Z", data: {} }
  - name: bad event
    event: { event: incident.created, timestamp: yesterday, data: {} }
    expect: []
  - name: bad event
    event: { event: "", timestamp: "2026-11-22T10:00:00Z", data: {} }
    expect: [a, a]
    extra: true
`,
    );
    const result = loadRulesTestsFile(path, 'bad.yaml');
    expect(result.ok ? [] : result.problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.message}`)).toEqual([
      'bad.yaml:2:5 cases[0]: missing required property "expect"',
      'bad.yaml:5:12 invalid event: "timestamp" must be an ISO 8601 date-time with a zone, e.g. 2026-11-22T10:00:00Z',
      'bad.yaml:7:11 duplicate case name "bad event"',
      'bad.yaml:8:12 invalid event: "event" must be a non-empty string',
      'bad.yaml:9:17 cases[2].expect: repeats item 1',
      'bad.yaml:10:5 cases[2]: unknown property "extra" (allowed: name, event, expect, at, expect_muted, references, expect_requests)',
    ]);
    const second = temp.write(
      'bad-2.yaml',
      'cases:\n  - name: x\n    event: { event: "", timestamp: yesterday, data: {} }\n    expect: []\n  - { name: x, event: { event: a.b, timestamp: "2026-11-22T10:00:00Z", data: [] }, expect: [] }\n',
    );
    const events = loadRulesTestsFile(second, 'bad-2.yaml');
    expect(events.ok ? [] : events.problems.map((p) => `${p.line}:${p.column} ${p.code}: ${p.message}`)).toEqual([
      '3:12 invalid_event: invalid event: "event" must be a non-empty string',
      '5:13 duplicate_case_name: duplicate case name "x"',
      '5:23 invalid_event: invalid event: "data" must be a JSON object',
    ]);
  });

  it('reports a missing file', () => {
    expect(loadRulesTestsFile(`${temp.dir}/none.yaml`, 'none.yaml')).toMatchObject({
      ok: false,
      problems: [{ code: 'unreadable_file', line: 0, message: 'cannot read the tests file (ENOENT)' }],
    });
  });

  it('compares target sets and gives the difference', () => {
    const rules = compile(`${TARGETS_YAML}routes:
  - { name: r, match: { event: incident.* }, to: [a, b] }
fallback: [c]
`);
    const cases = [
      { name: 'pass in any order', line: 1, event: event('incident.created'), expect: ['b', 'a'] },
      { name: 'fail', line: 2, event: event('incident.created'), expect: ['a', 'c'] },
      { name: 'fallback', line: 3, event: event('other.kind'), expect: ['c'] },
    ];
    expect(runRulesTests(rules, cases)).toEqual([
      expect.objectContaining({ name: 'pass in any order', passed: true }),
      expect.objectContaining({ name: 'fail', passed: false, missing: ['c'], unexpected: ['b'], matchedRoutes: ['r'] }),
      expect.objectContaining({ name: 'fallback', passed: true, usedFallback: true }),
    ]);
  });
});
