import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRulesFile } from '../../src/rules/load-rules-file.js';
import { rulesLoader } from './support/load-rules-text.js';
import { useTempDir } from './support/temp-dir.js';
import { TARGETS_YAML } from './support/targets-yaml.js';

const { compile } = rulesLoader();
const temp = useTempDir();
const TEXT = `${TARGETS_YAML}routes:
  - { name: r, match: { event: incident.*, severity: { in: [high] } }, to: [a, b] }
fallback: [c]
`;

describe('loaded rules', () => {
  it('are deeply frozen, maps included', () => {
    const rules = compile(TEXT);
    expect(Object.isFrozen(rules)).toBe(true);
    expect(Object.isFrozen(rules.routes)).toBe(true);
    expect(Object.isFrozen(rules.routes[0])).toBe(true);
    expect(Object.isFrozen(rules.routes[0]?.to)).toBe(true);
    expect(Object.isFrozen(rules.routes[0]?.conditions)).toBe(true);
    expect(Object.isFrozen(rules.severities)).toBe(true);
    expect(Object.isFrozen(rules.fallback)).toBe(true);
    expect(Object.isFrozen(rules.targets.get('a'))).toBe(true);
    expect(Object.isFrozen(rules.targets.get('a')?.policy.retry)).toBe(true);
    expect(() => (rules.targets as Map<string, unknown>).set('x', {})).toThrow(TypeError);
    expect(() => (rules.targets as Map<string, unknown>).delete('a')).toThrow(TypeError);
    expect(() => (rules.severityRanks as Map<string, number>).clear()).toThrow(TypeError);
    expect(() => {
      (rules.routes as unknown[]).push({});
    }).toThrow(TypeError);
  });

  it('carry the content hash of the file as version, and its absolute path', () => {
    const path = temp.write('rules.yaml', TEXT);
    const result = loadRulesFile(path, {});
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const expected = createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 12);
    expect(result.rules.version).toBe(expected);
    expect(result.rules.version).toMatch(/^[0-9a-f]{12}$/);
    expect(result.rules.file).toBe(path);
    const changed = loadRulesFile(temp.write('rules-2.yaml', `${TEXT}# a comment changes the version\n`), {});
    expect(changed.ok && changed.rules.version).not.toBe(expected);
  });

  it('report an unreadable file as one problem about the whole file', () => {
    expect(loadRulesFile(`${temp.dir}/missing.yaml`, {})).toEqual({
      ok: false,
      problems: [
        {
          severity: 'error',
          code: 'unreadable_file',
          message: 'cannot read the rules file (ENOENT)',
          file: `${temp.dir}/missing.yaml`,
          line: 0,
          column: 0,
        },
      ],
    });
  });
});
