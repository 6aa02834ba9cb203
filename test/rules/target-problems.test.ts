import { describe, expect, it } from 'vitest';
import { rulesLoader } from './support/load-rules-text.js';

const { load } = rulesLoader();

/** Problems of a rules file whose targets are `yaml` (line 2 onwards), every target routed. */
function problems(yaml: string, env: Record<string, string> = {}): string[] {
  const names = [...yaml.matchAll(/^ {2}([\w-]+):/gm)].map((match) => match[1]);
  const result = load(`targets:\n${yaml}routes: [{ name: r, to: [${names.join(', ')}] }]\nfallback: []\n`, env);
  const list = result.ok ? result.warnings : result.problems;
  return list.map((p) => `${p.line}:${p.column} ${p.severity} ${p.code}: ${p.message}`);
}

const SLACK = 'type: slack, webhook_url: "https://hooks.example/x"';
const HTTP = 'type: http, url: "https://hook.example/x"';

describe('target problems', () => {
  it('rejects an SMTP URL that cannot be parsed or is not smtp:// or smtps://, also when it comes from ${VAR}', () => {
    const mail = (url: string) =>
      `  mail:\n    type: email\n    smtp: { url: "${url}" }\n    from: a@example.com\n    to: [b@example.com]\n`;
    expect(problems(mail('smtp://user:pw@[mail.example.com:587'))).toEqual([
      '4:18 error bad_url: targets.mail.smtp.url: is not a valid smtp:// or smtps:// URL',
    ]);
    expect(problems(mail('https://mail.example.com'))).toHaveLength(1);
    expect(problems(mail('smtps://mail.example.com:465'))).toEqual([]);
    expect(problems(mail('${SMTP_URL}'), { SMTP_URL: 'smtp://u:p@[broken' })).toHaveLength(1);
  });

  it('locates template syntax errors at the YAML string, with the place inside the template', () => {
    expect(
      problems(`  chat:
    ${SLACK.replace(', ', '\n    ')}
    message:
      text: "{{ data.title | shout }}"
      blocks:
        - { type: section, text: { type: mrkdwn, text: "{% if %}" } }
  mail:
    type: email
    smtp: { host: smtp.example }
    from: a@example.com
    to: [b@example.com]
    subject: |
      first line
      {{ data.title | nope }}
    html: "<b>{{ data.title }</b>"
  hook:
    ${HTTP.replace(', ', '\n    ')}
    body: { summary: "{{ x | nope }}", labels: [ok, "{% endfor %}"] }
  raw:
    ${HTTP.replace(', ', '\n    ')}
    raw_body: "{% include 'x' %}"
    content_type: text/plain
`),
    ).toEqual([
      '6:13 error template_syntax: targets.chat.message.text: undefined filter: shout (template line 1, column 1)',
      '8:56 error template_syntax: targets.chat.message.blocks[0].text.text: invalid value expression: "" (template line 1, column 6)',
      '14:14 error template_syntax: targets.mail.subject: undefined filter: nope (template line 2, column 1)',
      '17:11 error template_syntax: targets.mail.html: output "{{ data.title }</b>" not closed (template line 1, column 4)',
      '21:22 error template_syntax: targets.hook.body.summary: undefined filter: nope (template line 1, column 1)',
      '21:53 error template_syntax: targets.hook.body.labels[1]: tag "endfor" not found (template line 1, column 1)',
      '25:15 error template_syntax: targets.raw.raw_body: tag "include" not found (template line 1, column 1)',
    ]);
  });

  it('never shows a substituted value in a template error', () => {
    const lines = problems(
      `  hook:
    ${HTTP.replace(', ', '\n    ')}
    body: { token: "\${TOKEN}", broken: "\${TOKEN} {{ x | nope }}" }
`,
      { TOKEN: 'tok-{{-secret' },
    );
    expect(lines).toEqual([
      '5:20 error template_syntax: targets.hook.body.token: the value substituted from ${TOKEN} breaks the template (it holds Liquid syntax such as {{ or {%)',
      '5:40 error template_syntax: targets.hook.body.broken: undefined filter: nope (template line 1, column 10)',
    ]);
    expect(lines.join('\n')).not.toContain('secret');
  });

  it('checks delivery policy bounds and their relations, at the option written', () => {
    expect(
      problems(`  a: { ${HTTP}, retry: { initial_delay: 20m } }
  b: { ${HTTP}, retry: { initial_delay: 2m, max_delay: 1m } }
  c: { ${HTTP}, timeout: 0s, circuit_breaker: { cooldown: 0ms } }
  d: { ${HTTP}, timeout: 2m, retry: { max_age: 1m } }
  e: { ${HTTP}, retry: { max_age: 5s } }
  f: { ${HTTP}, circuit_breaker: { cooldown: 1d } }
  g: { ${SLACK}, rate_limit: { per_second: 0, burst: 0 }, concurrency: 0, retry: { max_attempts: 0, max_age: 1 } }
  h: { ${SLACK}, timeout: 10 seconds, retry: {}, circuit_breaker: { failures: 1.5 } }
`),
    ).toEqual([
      '2:75 error bad_policy: targets.a.retry.initial_delay: must not be longer than retry.max_delay (10m, the default)',
      '3:90 error bad_policy: targets.b.retry.max_delay: must be at least retry.initial_delay (2m)',
      '4:60 error bad_duration: targets.c.timeout: must be longer than 0',
      '4:93 error bad_duration: targets.c.circuit_breaker.cooldown: must be longer than 0',
      '5:60 error bad_policy: targets.d.timeout: must be shorter than retry.max_age (1m): no attempt could finish before the delivery expires',
      '6:69 error bad_policy: targets.e.retry.max_age: must be longer than timeout (10s, the default): no attempt could finish before the delivery expires',
      '6:69 warning long_cooldown: targets.e.retry.max_age: circuit_breaker.cooldown (30s, the default) is not shorter than retry.max_age (5s): deliveries queued during one outage would all expire',
      '7:80 warning long_cooldown: targets.f.circuit_breaker.cooldown: circuit_breaker.cooldown (1d) is not shorter than retry.max_age (24h, the default): deliveries queued during one outage would all expire',
      '8:87 error schema: targets.g.rate_limit.per_second: must be > 0',
      '8:97 error schema: targets.g.rate_limit.burst: must be >= 1',
      '8:115 error schema: targets.g.concurrency: must be >= 1',
      '8:141 error schema: targets.g.retry.max_attempts: must be >= 1',
      '8:153 error schema: targets.g.retry.max_age: must be a string',
      '9:70 error schema: targets.h.timeout: must be a duration such as 500ms, 30s, 10m, 1h30m or 24h',
      '9:89 error schema: targets.h.retry: must NOT have fewer than 1 properties',
      '9:122 error schema: targets.h.circuit_breaker.failures: must be a whole number',
    ]);
  });

  it('checks options that exclude or need each other', () => {
    expect(
      problems(`  mail-both:
    type: email
    smtp: { url: "smtp://mail.example", host: mail.example, auth: { user: u, pass: p } }
    from: a@example.com
    to: [b@example.com]
  mail-none:
    type: email
    smtp: { port: 25 }
    from: a@example.com
    to: [b@example.com]
  hook:
    ${HTTP.replace(', ', '\n    ')}
    headers: { Content-Type: text/plain, X-Trace: a, x-trace: b, Idempotency-Key: k, authorization: t }
    auth: { bearer: t, username: u, password: p }
    body: { a: 1 }
    raw_body: text
    content_type: text/plain
  raw-alone:
    ${HTTP.replace(', ', '\n    ')}
    raw_body: text
  basic-half: { ${HTTP}, auth: { username: u } }
  chat: { ${SLACK}, message: { unfurl_links: false } }
`),
    ).toEqual([
      '4:41 error conflicting_options: targets.mail-both.smtp.host: host cannot be combined with url (write it in the URL)',
      '4:61 error conflicting_options: targets.mail-both.smtp.auth: auth cannot be combined with url (write it in the URL)',
      '9:11 error missing_option: targets.mail-none.smtp: needs url, or host (with port, secure, require_tls, auth as needed)',
      '15:16 error reserved_header: targets.hook.headers.Content-Type: Content-Type is set by Switchyard: it is application/json, or content_type with raw_body',
      '15:54 error duplicate_header: targets.hook.headers.x-trace: x-trace repeats X-Trace (header names ignore case)',
      '15:66 error reserved_header: targets.hook.headers.Idempotency-Key: Idempotency-Key is set by Switchyard: it is the delivery id, stable across attempts',
      '15:86 error conflicting_options: targets.hook.headers.authorization: Authorization cannot be combined with auth',
      '16:24 error conflicting_options: targets.hook.auth.username: give bearer or username and password, not both',
      '18:5 error conflicting_options: targets.hook.raw_body: give body (sent as JSON) or raw_body, not both',
      '21:5 error schema: targets.raw-alone: must have property content_type when property raw_body is present',
      '24:66 error schema: targets.basic-half.auth: must have property password when property username is present',
      '25:73 error missing_option: targets.chat.message: needs text, blocks or attachments',
    ]);
  });

  it('rejects unknown options at every level, and a body that is not a map or list', () => {
    expect(
      problems(`  a: { ${HTTP}, retry: { attempts: 3 }, body: "{{ event }}", sign: { secret: short } }
  b: { ${SLACK}, message: { text: hi, colour: red } }
`),
    ).toEqual([
      '2:60 error schema: targets.a.retry: unknown property "attempts" (allowed: max_attempts, max_age, initial_delay, max_delay)',
      '2:81 error schema: targets.a.body: must be a map or a list',
      '2:112 error schema: targets.a.sign.secret: must NOT have fewer than 16 characters',
      '3:82 error schema: targets.b.message: unknown property "colour" (allowed: text, blocks, attachments, mrkdwn, unfurl_links, unfurl_media)',
    ]);
  });

  it('checks a Teams message: a card needs a body, a payload attachments, and the type is one of the two', () => {
    const TEAMS = 'type: teams, webhook_url: "https://example.logic.azure.com/workflows/x"';
    expect(
      problems(`  card: { ${TEAMS}, message: { type: AdaptiveCard, actions: [] } }
  payload: { ${TEAMS}, message: { type: message, attachments: {} } }
  typo: { ${TEAMS}, message: { type: adaptivecard, body: [] } }
  untyped: { ${TEAMS}, message: { body: [] } }
  listed: { ${TEAMS}, message: [] }
  chanel: { ${TEAMS}, channel: "#soc" }
  template: { ${TEAMS}, message: { type: AdaptiveCard, body: [{ type: TextBlock, text: "{{ data.title | nope }}" }] } }
`),
    ).toEqual([
      '2:93 error missing_option: targets.card.message: an Adaptive Card needs a body list',
      '3:96 error missing_option: targets.payload.message: a message needs an attachments list',
      '4:101 error bad_message: targets.typo.message.type: needs type: AdaptiveCard (the card) or type: message (the whole payload)',
      '5:96 error bad_message: targets.untyped.message: needs type: AdaptiveCard (the card) or type: message (the whole payload)',
      '6:95 error schema: targets.listed.message: must be a map',
      '7:86 error schema: targets.chanel: unknown property "channel" (allowed: type, webhook_url, message, retry, rate_limit, concurrency, circuit_breaker, timeout, allow_link_local, follow, throttle)',
      '8:151 error template_syntax: targets.template.message.body[0].text: undefined filter: nope (template line 1, column 1)',
    ]);
  });
});
