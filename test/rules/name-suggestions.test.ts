import { describe, expect, it } from 'vitest';
import { rulesLoader } from './support/load-rules-text.js';

const { load, compile } = rulesLoader();

function problems(text: string): string[] {
  const result = load(text);
  const list = result.ok ? result.warnings : result.problems;
  return list.map((p) => `${p.line}:${p.column} ${p.code}: ${p.message}`);
}

const TARGETS = `targets:
  soc-alerts: { type: http, url: "https://soc.example/hook" }
  pager: { type: http, url: "https://pager.example/hook" }
`;

describe('did-you-mean suggestions', () => {
  it('suggests the nearest target, key, type and severity level, at the mistake', () => {
    const text = `${TARGETS}  ticket: { type: htp, url: "https://t.example/hook" }
  hook: { type: http, url: "https://h.example/hook", timout: 5s }
routes:
  - name: r
    match: { severity: { at_least: hihg } }
    to: [soc-alert, pager, ticket]
fallback: [pagr]
`;
    expect(problems(text).filter((line) => !line.includes('unused_target'))).toEqual([
      '4:19 schema: targets.ticket.type: must be one of: slack, teams, email, http, pagerduty (did you mean "http"?)',
      '5:54 schema: targets.hook: unknown property "timout": did you mean "timeout"? (allowed: type, url, method, headers, auth, body, raw_body, content_type, sign, ca, key, requests, retry, rate_limit, concurrency, circuit_breaker, timeout, allow_link_local, follow, throttle)',
      '8:36 unknown_severity_level: "hihg" is not one of the severities: did you mean "high"? (info, low, medium, high, critical)',
      '9:10 unknown_target: unknown target "soc-alert": did you mean "soc-alerts"? (defined: soc-alerts, pager, ticket, hook)',
      '10:12 unknown_target: unknown target "pagr": did you mean "pager"? (defined: soc-alerts, pager, ticket, hook)',
    ]);
  });

  it('suggests nothing when no name is close', () => {
    const text = `${TARGETS}routes:\n  - { name: r, to: [critical-team, pager] }\nfallback: [soc-alerts]\n`;
    expect(problems(text)).toEqual([
      '5:21 unknown_target: unknown target "critical-team" (defined: soc-alerts, pager)',
    ]);
  });
});

describe('to: with one target name', () => {
  it('is the same as a list of that name, for routes and the fallback', () => {
    const rules = compile(
      `${TARGETS}routes:\n  - { name: r, match: { event: agent.offline }, to: soc-alerts }\nfallback: pager\n`,
    );
    expect(rules.routes[0]?.to).toEqual(['soc-alerts']);
    expect(rules.fallback).toEqual(['pager']);
  });

  it('is checked like a list: an unknown name, or not a name at all, is reported at the value', () => {
    expect(problems(`${TARGETS}routes:\n  - { name: r, to: soc-alert }\nfallback: pager\n`)).toEqual([
      '2:3 unused_target: target "soc-alerts" is not used by any route or the fallback',
      '5:20 unknown_target: unknown target "soc-alert": did you mean "soc-alerts"? (defined: soc-alerts, pager)',
    ]);
    expect(problems(`${TARGETS}routes:\n  - { name: r, to: "soc alerts" }\nfallback: [pager, soc-alerts]\n`)).toEqual([
      '5:20 schema: routes[0].to: must be a name: a letter or digit, then letters, digits, ".", "_" or "-" (at most 100 characters)',
      '5:20 unknown_target: unknown target "soc alerts": did you mean "soc-alerts"? (defined: soc-alerts, pager)',
    ]);
  });
});
