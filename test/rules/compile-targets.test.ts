import { describe, expect, it } from 'vitest';
import type {
  EmailTargetSpec,
  HttpTargetSpec,
  SlackTargetSpec,
  TargetSpec,
  TeamsTargetSpec,
} from '../../src/rules/rules.js';
import { renderTemplateTree } from '../../src/templates/render-template-tree.js';
import { rulesLoader } from './support/load-rules-text.js';

const { compile } = rulesLoader();

function targets(yaml: string, env: Record<string, string> = {}): ReadonlyMap<string, TargetSpec> {
  const names = [...yaml.matchAll(/^ {2}([\w-]+):/gm)].map((match) => match[1]);
  return compile(`targets:\n${yaml}routes: [{ name: r, to: [${names.join(', ')}] }]\nfallback: []\n`, env).targets;
}

const DEFAULT_RETRY = { initialDelayMs: 1_000, maxDelayMs: 600_000, maxAttempts: 12, maxAgeMs: 86_400_000 };
const DEFAULT_CIRCUIT = { failures: 5, cooldownMs: 30_000 };
const context = {
  event: 'incident.created',
  data: { title: 'Disk "full" <!channel>', severity: 'high', incident_id: 'INC-1' },
};

describe('compiled targets', () => {
  it('get the default delivery policy for their type', () => {
    const specs = targets(`  chat: { type: slack, webhook_url: "https://hooks.example/x" }
  mail: { type: email, smtp: { url: "smtp://mail.example" }, from: a@example.com, to: [b@example.com] }
  hook: { type: http, url: "https://hook.example/x" }
`);
    expect(specs.get('chat')).toEqual({
      name: 'chat',
      type: 'slack',
      policy: {
        retry: DEFAULT_RETRY,
        rateLimit: { perSecond: 1, burst: 5 },
        concurrency: 1,
        circuit: DEFAULT_CIRCUIT,
        timeoutMs: 10_000,
      },
      allowLinkLocal: false,
      correlationKey: null,
      webhookUrl: 'https://hooks.example/x',
      token: null,
      baseUrl: 'https://slack.com/api/',
      channel: null,
      username: null,
      iconEmoji: null,
      message: null,
    });
    expect(specs.get('mail')?.policy).toEqual({
      retry: DEFAULT_RETRY,
      rateLimit: null,
      concurrency: 4,
      circuit: DEFAULT_CIRCUIT,
      timeoutMs: 10_000,
    });
    expect(specs.get('hook')).toMatchObject({
      policy: { retry: DEFAULT_RETRY, rateLimit: null, concurrency: 8, circuit: DEFAULT_CIRCUIT, timeoutMs: 10_000 },
      method: 'POST',
      headers: {},
      auth: null,
      body: { kind: 'forward' },
      signingSecret: null,
    });
  });

  it('take every delivery option, each field defaulted on its own', () => {
    const specs = targets(`  hook:
    type: http
    url: "https://hook.example/x"
    retry: { max_attempts: 3, max_delay: 1m }
    rate_limit: { per_second: 2.5 }
    concurrency: 2
    circuit_breaker: { failures: 2, cooldown: 1m30s }
    timeout: 500ms
    allow_link_local: true
  chat:
    type: slack
    webhook_url: "https://hooks.example/x"
    retry: { initial_delay: 5s, max_age: 2h }
    rate_limit: { per_second: 0.2, burst: 3 }
`);
    expect(specs.get('hook')).toMatchObject({
      policy: {
        retry: { initialDelayMs: 1_000, maxDelayMs: 60_000, maxAttempts: 3, maxAgeMs: 86_400_000 },
        rateLimit: { perSecond: 2.5, burst: 3 },
        concurrency: 2,
        circuit: { failures: 2, cooldownMs: 90_000 },
        timeoutMs: 500,
      },
      allowLinkLocal: true,
    });
    expect(specs.get('chat')?.policy).toMatchObject({
      retry: { initialDelayMs: 5_000, maxDelayMs: 600_000, maxAttempts: 12, maxAgeMs: 7_200_000 },
      rateLimit: { perSecond: 0.2, burst: 3 },
    });
  });

  it('compile a Slack message whose inserted values are escaped for Slack', () => {
    const chat = targets(`  chat:
    type: slack
    webhook_url: "https://hooks.example/x"
    channel: "#soc"
    username: Switchyard
    icon_emoji: ":bell:"
    message:
      text: "<!here> {{ data.title }}"
      blocks:
        - { type: section, text: { type: mrkdwn, text: "*{{ data.severity | upcase }}* {{ data.title }}" } }
      unfurl_links: false
`).get('chat') as SlackTargetSpec;
    expect(chat).toMatchObject({ channel: '#soc', username: 'Switchyard', iconEmoji: ':bell:' });
    expect(renderTemplateTree(chat.message ?? null, context)).toEqual({
      text: '<!here> Disk "full" &lt;!channel&gt;',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*HIGH* Disk "full" &lt;!channel&gt;' } }],
      unfurl_links: false,
    });
  });

  it('compile a Teams target: its policy, its webhook URL, and a card whose inserted values are escaped for Teams', () => {
    const specs = targets(
      `  soc-teams:
    type: teams
    webhook_url: "\${TEAMS_WEBHOOK_URL}"
    throttle: { key: "{{ data.host }}", window: 10m }
    message:
      type: AdaptiveCard
      body:
        - { type: TextBlock, text: "**{{ data.severity | upcase }}** {{ data.title }}", wrap: true }
        - { type: FactSet, facts: [{ title: Incident, value: "{{ data.incident_id }}" }] }
  bare: { type: teams, webhook_url: "https://example.logic.azure.com/workflows/x", concurrency: 2 }
`,
      { TEAMS_WEBHOOK_URL: 'https://example.logic.azure.com/workflows/1/triggers/manual/paths/invoke?sig=s3cret-sig' },
    );
    const teams = specs.get('soc-teams') as TeamsTargetSpec;
    expect(teams).toMatchObject({
      type: 'teams',
      webhookUrl: 'https://example.logic.azure.com/workflows/1/triggers/manual/paths/invoke?sig=s3cret-sig',
      policy: { rateLimit: { perSecond: 1, burst: 5 }, concurrency: 1, retry: DEFAULT_RETRY, circuit: DEFAULT_CIRCUIT },
      throttle: expect.objectContaining({ windowMs: 600_000 }),
    });
    expect(
      renderTemplateTree(teams.message ?? null, {
        ...context,
        data: { ...context.data, title: '[x](http://evil) *b*' },
      }),
    ).toEqual({
      type: 'AdaptiveCard',
      body: [
        { type: 'TextBlock', text: '**HIGH** \\[x\\]\\(http://evil\\) \\*b\\*', wrap: true },
        { type: 'FactSet', facts: [{ title: 'Incident', value: 'INC-1' }] },
      ],
    });
    expect(specs.get('bare')).toMatchObject({ message: null, policy: { concurrency: 2 }, allowLinkLocal: false });
  });

  it('compile e-mail settings, with HTML escaping in html only', () => {
    const specs = targets(
      `  url:
    type: email
    smtp: { url: "\${SMTP_URL}" }
    from: "Switchyard <switchyard@example.com>"
    to: [a@example.com, b@example.com]
    cc: [c@example.com]
    subject: "[{{ data.severity }}] {{ data.title }}"
    text: "{{ data.title }}"
    html: "<b>{{ data.title }}</b>"
  host:
    type: email
    smtp: { host: smtp.example.com, auth: { user: "\${SMTP_USER}", pass: "\${SMTP_PASS}" } }
    from: switchyard@example.com
    to: [a@example.com]
  implicit-tls:
    type: email
    smtp: { host: smtp.example.com, port: 465, require_tls: true }
    from: switchyard@example.com
    to: [a@example.com]
`,
      { SMTP_URL: 'smtps://u:p@smtp.example.com', SMTP_USER: 'user', SMTP_PASS: 'pass-secret' },
    );
    const url = specs.get('url') as EmailTargetSpec;
    expect(url).toMatchObject({
      smtp: { host: 'smtp.example.com', port: 465, secure: true, auth: { user: 'u', pass: 'p' }, name: null, ca: null },
      onPartialRefusal: 'retry_refused',
      from: 'Switchyard <switchyard@example.com>',
      to: ['a@example.com', 'b@example.com'],
      cc: ['c@example.com'],
    });
    expect(url.subject?.render(context)).toBe('[high] Disk "full" <!channel>');
    expect(url.text?.render(context)).toBe('Disk "full" <!channel>');
    expect(url.html?.render(context)).toBe('<b>Disk &#34;full&#34; &lt;!channel&gt;</b>');
    expect(specs.get('host')).toMatchObject({
      smtp: {
        host: 'smtp.example.com',
        port: 587,
        secure: false,
        // With a password, TLS is required unless allow_insecure_auth says otherwise.
        requireTls: true,
        allowInsecureAuth: false,
        auth: { user: 'user', pass: 'pass-secret' },
      },
      cc: [],
      subject: null,
      text: null,
      html: null,
    });
    expect(specs.get('implicit-tls')).toMatchObject({
      smtp: { host: 'smtp.example.com', port: 465, secure: true, requireTls: true, auth: null },
    });
  });

  it('compile HTTP bodies, auth, headers and signing', () => {
    const specs = targets(
      `  json:
    type: http
    url: "https://tickets.example/api"
    method: PATCH
    headers: { X-Source: switchyard }
    auth: { bearer: "\${TOKEN}" }
    body: { summary: "{{ data.title }}", priority: 2, labels: [soc, "{{ event }}"], parent: null }
    sign: { secret: "\${SIGNING_SECRET}" }
  text:
    type: http
    url: "https://chat.example/hook"
    auth: { username: bot, password: "\${TOKEN}" }
    raw_body: "{{ event }}: {{ data.title }}"
    content_type: text/plain; charset=utf-8
`,
      { TOKEN: 'tok-secret', SIGNING_SECRET: 'sign-secret-0123456789' },
    );
    const json = specs.get('json') as HttpTargetSpec;
    expect(json).toMatchObject({
      method: 'PATCH',
      headers: { 'X-Source': 'switchyard' },
      auth: { kind: 'bearer', token: 'tok-secret' },
      signingSecret: 'sign-secret-0123456789',
    });
    if (json.body.kind !== 'json') throw new Error('expected a JSON body');
    const sent = JSON.parse(JSON.stringify(renderTemplateTree(json.body.tree, context))) as unknown;
    expect(sent).toEqual({
      summary: 'Disk "full" <!channel>',
      priority: 2,
      labels: ['soc', 'incident.created'],
      parent: null,
    });
    const text = specs.get('text') as HttpTargetSpec;
    expect(text.auth).toEqual({ kind: 'basic', username: 'bot', password: 'tok-secret' });
    if (text.body.kind !== 'text') throw new Error('expected a text body');
    expect(text.body.contentType).toBe('text/plain; charset=utf-8');
    expect(text.body.template.render(context)).toBe('incident.created: Disk "full" <!channel>');
  });
});
