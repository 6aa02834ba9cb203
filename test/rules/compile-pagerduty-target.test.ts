import { describe, expect, it } from 'vitest';
import { runCheck } from '../../src/cli/check-command.js';
import type { PagerdutyTargetSpec } from '../../src/rules/rules.js';
import { fakeCliIo } from './support/fake-cli-io.js';
import { rulesLoader } from './support/load-rules-text.js';
import { useTempDir } from './support/temp-dir.js';

const { load, compile } = rulesLoader();
const temp = useTempDir();
const KEY = 'R0UTINGKEY0f9e8d7c6b5a4f3e2d1c0b';

/** A rules file whose only target is `pager`, written from line 2 on. */
const rules = (target: string) => `targets:\n${target}routes: [{ name: r, to: [pager] }]\nfallback: []\n`;

function problems(target: string, env: Record<string, string> = {}): string[] {
  const result = load(rules(target), env);
  const list = result.ok ? result.warnings : result.problems;
  return list.map((p) => `${p.line}:${p.column} ${p.severity} ${p.code}: ${p.message}`);
}

describe('compiled PagerDuty targets', () => {
  it('get PagerDuty defaults: events.pagerduty.com, one at a time, 2 a second, no key: template', () => {
    const spec = compile(rules(`  pager: { type: pagerduty, routing_key: "\${PD_KEY}" }\n`), {
      PD_KEY: KEY,
    }).targets.get('pager');
    expect(spec).toMatchObject({
      name: 'pager',
      type: 'pagerduty',
      routingKey: KEY,
      baseUrl: 'https://events.pagerduty.com',
      correlationKey: null,
      allowLinkLocal: false,
      policy: { concurrency: 1, rateLimit: { perSecond: 2, burst: 10 }, timeoutMs: 10_000 },
    });
    expect((spec as PagerdutyTargetSpec).severityMap.size).toBe(0);
  });

  it('take key:, base_url (trailing slash dropped), severity_map (lower-cased) and the delivery options', () => {
    const spec = compile(
      rules(`  pager:
    type: pagerduty
    routing_key: ${KEY}
    key: 'host:{{ data.host }}'
    base_url: https://events.eu.pagerduty.com/
    severity_map: { Low: info, P1: critical }
    concurrency: 2
    retry: { max_attempts: 3 }
`),
    ).targets.get('pager') as PagerdutyTargetSpec;
    expect(spec.baseUrl).toBe('https://events.eu.pagerduty.com');
    expect(spec.correlationKey?.render({ data: { host: 'fs-02' } })).toBe('host:fs-02');
    expect([...spec.severityMap]).toEqual([
      ['low', 'info'],
      ['p1', 'critical'],
    ]);
    expect(spec.policy).toMatchObject({ concurrency: 2, retry: { maxAttempts: 3 } });
  });

  it('register the routing key and a base_url from the environment as secrets', () => {
    const env = { PD_KEY: KEY, PD_URL: 'https://proxy.example/pd?token=proxy-token-123' };
    const compiled = compile(
      rules(`  pager: { type: pagerduty, routing_key: "\${PD_KEY}", base_url: "\${PD_URL}" }\n`),
      env,
    );
    expect(compiled.secrets).toEqual(expect.arrayContaining([KEY, env.PD_URL, 'proxy-token-123']));
  });
});

describe('PagerDuty target problems', () => {
  it('a missing routing_key, an unknown option and a bad severity are located', () => {
    expect(
      problems(`  pager:
    type: pagerduty
    routing-key: ${KEY}
    severity_map: { high: urgent }
`),
    ).toEqual([
      '3:5 error schema: targets.pager: missing required property "routing_key"',
      expect.stringMatching(
        /^4:5 error schema: targets\.pager: unknown property "routing-key": did you mean "routing_key"\?/,
      ),
      expect.stringMatching(/^5:27 error schema: targets\.pager\.severity_map\.high: .*critical, error, warning, info/),
    ]);
  });

  it('a routing key that is not 32 characters is an error giving its length, never its value', () => {
    const lines = problems(`  pager: { type: pagerduty, routing_key: "\${PD_KEY}" }\n`, { PD_KEY: `${KEY}\n` });
    expect(lines).toEqual([
      '2:42 error bad_routing_key: targets.pager.routing_key: is 33 characters long; a PagerDuty integration key has 32, and PagerDuty refuses events with any other',
    ]);
  });

  it('a bad base_url, a key: that does not compile and a level mapped twice are errors', () => {
    expect(
      problems(`  pager:
    type: pagerduty
    routing_key: ${KEY}
    base_url: "https://[events"
    key: "{{ data.host | nope }}"
    severity_map: { high: error, HIGH: critical }
`),
    ).toEqual([
      '5:15 error bad_url: targets.pager.base_url: is not a valid URL',
      '6:10 error template_syntax: targets.pager.key: undefined filter: nope (template line 1, column 1)',
      '7:34 error duplicate_severity: targets.pager.severity_map.HIGH: "HIGH" is the same level as "high" (levels are compared case-insensitively)',
    ]);
  });

  it('switchyard check prints them as file:line:column and fails', async () => {
    temp.write('pager.yaml', rules(`  pager:\n    type: pagerduty\n    routing-key: ${KEY}\n`));
    const io = fakeCliIo(temp.dir);
    expect(await runCheck(['pager.yaml'], io)).toBe(1);
    expect(io.out()).toMatch(/^pager\.yaml:3:5: error: targets\.pager: missing required property "routing_key"\n/m);
    expect(io.out()).toMatch(/^pager\.yaml:4:5: error: targets\.pager: .*routing-key.*\n/m);
    expect(io.out()).toMatch(/pager\.yaml: 2 errors, 0 warnings\n$/);
    expect(io.out()).not.toContain(KEY);
  });
});
