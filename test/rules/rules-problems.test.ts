import { describe, expect, it } from 'vitest';
import { rulesLoader } from './support/load-rules-text.js';
import { TARGETS_YAML } from './support/targets-yaml.js';

const { load } = rulesLoader();

function problems(text: string): string[] {
  const result = load(text);
  const list = result.ok ? result.warnings : result.problems;
  return list.map((p) => `${p.line}:${p.column} ${p.severity} ${p.code}: ${p.message}`);
}

describe('rules problems', () => {
  it('reports every problem at once, in file order, with exact positions', () => {
    const text = `targets:
  chat: { type: slack, webhook_url: "https://hooks.example/x", chanel: "#soc" }
  pager: { type: sms, number: "123" }
  spare: { type: http, url: "https://spare.example" }
routes:
  - name: first
    match: { event: [incident.*, "agent.**"] }
    to: [chat, pagr]
  - name: first
    to: [chat]
fallback: [chat]
`;
    expect(problems(text)).toEqual([
      '2:64 error schema: targets.chat: unknown property "chanel": did you mean "channel"? (allowed: type, webhook_url, token, base_url, channel, username, icon_emoji, message, key, retry, rate_limit, concurrency, circuit_breaker, timeout, allow_link_local, follow, throttle)',
      '3:3 warning unused_target: target "pager" is not used by any route or the fallback',
      '3:18 error schema: targets.pager.type: must be one of: slack, teams, email, http, pagerduty',
      '4:3 warning unused_target: target "spare" is not used by any route or the fallback',
      '7:34 error bad_glob: invalid event pattern: "**" is not supported: * matches within one segment, and * alone matches every kind',
      '8:16 error unknown_target: unknown target "pagr": did you mean "pager"? (defined: chat, pager, spare)',
      '9:11 error duplicate_route_name: duplicate route name "first" (first used on line 6)',
    ]);
  });

  it('reports YAML syntax errors with their position and stops there', () => {
    expect(problems('targets: {}\nroutes: [\n')).toEqual([
      '2:9 error yaml_syntax: this "[" is not closed: add "]" at the end of the value',
    ]);
  });

  it('reports duplicate keys and still checks the rest', () => {
    expect(problems(`${TARGETS_YAML}routes: []\nroutes: []\nfallback: [a, b, c, d]\n`)).toEqual([
      '6:1 error duplicate_key: duplicate key "routes": the later value would silently win',
      '7:21 error unknown_target: unknown target "d" (defined: a, b, c)',
    ]);
  });

  it('reports an empty file and a document that is not a map', () => {
    expect(problems('')).toEqual(['1:1 error empty_file: the rules file is empty: it needs targets and routes']);
    expect(problems('- a\n')).toEqual(['1:1 error schema: (top level): must be a map']);
  });

  it('warns when there is no fallback, and not when fallback: [] says so', () => {
    expect(problems(`${TARGETS_YAML}routes: [{ name: r, to: [a, b, c] }]\n`)).toEqual([
      '5:1 warning no_fallback: no fallback: events that match no route are stored but delivered nowhere (write fallback: [] to say that is intended)',
    ]);
    expect(problems(`${TARGETS_YAML}routes: [{ name: r, to: [a, b, c] }]\nfallback: []\n`)).toEqual([]);
  });

  it('warns about routes after a match-everything stop route and routes whose kinds are all caught earlier', () => {
    const text = `${TARGETS_YAML}routes:
  - { name: drop-agents, match: { event: agent.* }, to: [], stop: true }
  - { name: agent-offline, match: { event: agent.offline }, to: [a] }
  - { name: conditional-stop, match: { event: threat.detected, severity: { at_least: high } }, to: [b], stop: true }
  - { name: threats, match: { event: threat.detected }, to: [b] }
  - { name: everything, to: [c], stop: true }
  - { name: after-everything, match: { event: incident.created }, to: [a] }
fallback: []
`;
    expect(problems(text)).toEqual([
      '7:13 warning unreachable_route: route "agent-offline" is never evaluated: every event kind it names is caught earlier by stop route "drop-agents"',
      '11:13 warning unreachable_route: route "after-everything" is never evaluated: route "everything" (line 10) matches every event and stops',
    ]);
  });

  it('warns about event kinds the upstream does not document, and routes that deliver nowhere', () => {
    const text = `${TARGETS_YAML}routes:
  - { name: typo, match: { event: incident.create }, to: [a] }
  - { name: glob, match: { event: [incidnt.*, agent.*] }, to: [b, c] }
  - { name: nothing, match: { event: agent.online }, to: [] }
fallback: []
`;
    expect(problems(text)).toEqual([
      '6:35 warning unknown_event_kind: event kind "incident.create" is not one of the kinds the upstream documents or Switchyard raises: did you mean "incident.created"? (incident.created, incident.updated, incident.resolved, agent.offline, agent.online, threat.detected, compliance.violation, switchyard.source_silent, switchyard.source_recovered)',
      '7:36 warning unknown_event_kind: pattern "incidnt.*" matches none of the kinds the upstream documents or Switchyard raises (incident.created, incident.updated, incident.resolved, agent.offline, agent.online, threat.detected, compliance.violation, switchyard.source_silent, switchyard.source_recovered)',
      '8:58 warning route_without_effect: to is empty and stop is not true: this route delivers nowhere and only keeps the fallback from applying',
    ]);
  });

  it('checks target options per type', () => {
    const text = `targets:
  mail: { type: email, smtp: { url: x }, from: a@b, to: [not-an-address], cc: [] }
  hook: { type: http, url: "ftp://files.example", method: GET, headers: { "X-Ok": 1 } }
  chat: { type: slack }
routes: [{ name: r, to: [mail, hook, chat] }]
fallback: []
`;
    expect(problems(text)).toEqual([
      '2:37 error schema: targets.mail.smtp.url: must be an smtp:// or smtps:// URL',
      '2:58 error schema: targets.mail.to[0]: must be an e-mail address',
      '2:79 error schema: targets.mail.cc: must not be empty',
      '3:28 error schema: targets.hook.url: must be an http:// or https:// URL',
      '3:59 error schema: targets.hook.method: must be one of: POST, PUT, PATCH',
      '3:83 error schema: targets.hook.headers.X-Ok: must be a string',
      '4:3 error missing_option: targets.chat: needs webhook_url (an incoming webhook) or token and channel (the Web API)',
    ]);
  });
});
