import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCheck } from '../../src/cli/check-command.js';
import { buildSlackApiCalls } from '../../src/delivery/targets/build-slack-api-calls.js';
import { chooseHttpRequest } from '../../src/delivery/targets/choose-http-request.js';
import { loadRulesFile } from '../../src/rules/load-rules-file.js';
import type { TargetSpec } from '../../src/rules/rules.js';
import { makeJob } from '../delivery/targets/make-target-spec.js';
import { fakeCliIo } from '../rules/support/fake-cli-io.js';
import { useTempDir } from '../rules/support/temp-dir.js';
import { judgeTeamsMessage } from '../helpers/start-teams-stand-in.js';
import { docYamlBlocks, placeholderEnv, type DocYamlBlock } from './support/doc-yaml-blocks.js';
import { jsonKeys, jsonStrings, renderDocTarget } from './support/render-doc-target.js';

const temp = useTempDir();
const BLOCKS = docYamlBlocks('targets.md');

/**
 * Event text that would break a hand-built JSON body or a template: quotes, backslashes, every kind of line
 * break, Liquid syntax (which must come out as text, never be evaluated), markup, and a JSON fragment that
 * would add an `injected` key if it escaped its string.
 */
const TITLE =
  'Ransomware "encrypting" C:\\Users\\{{ data.severity }} {% endcase %}\n</p><script>alert(1)</script>' +
  '\r\nline two\rthree\u2028four "}, "injected": true, "x": "';
const DESCRIPTION = 'Files renamed to *.locked\n"quoted" {{ switchyard.event_id }}\t\\end';
const HOST = 'host-7" onmouseover="x\n{{';
const envelope = (title: string) => ({
  event: 'incident.created',
  timestamp: '2026-11-22T10:00:00Z',
  data: { incident_id: 'inc_1', severity: 'Critical', title, description: DESCRIPTION, host: HOST },
});
const LINE_BREAK = /[\r\n\u2028\u2029]/;
/** What Teams shows of Markdown escaped for it: each backslash escape is the character after it. */
const shownByTeams = (text: string) => text.replace(/\\([!-/:-@[-`{-~])/g, '$1');

function targetNames(block: DocYamlBlock): string[] {
  const doc = parse(block.text) as { targets?: Record<string, unknown> } | null;
  return Object.keys(doc?.targets ?? {});
}

/** The block as a complete rules file: its targets, one route to all of them, and no fallback on purpose. */
function rulesFile(block: DocYamlBlock): string {
  const names = targetNames(block);
  return temp.write(
    `targets-md-${block.line}.yaml`,
    `${block.text}routes:\n  - { name: all, to: [${names.join(', ')}] }\nfallback: []\n`,
  );
}

function compiledTargets(block: DocYamlBlock): TargetSpec[] {
  const result = loadRulesFile(rulesFile(block), placeholderEnv(block.text));
  if (!result.ok) throw new Error(result.problems.map((p) => `${p.line}:${p.column} ${p.message}`).join('\n'));
  return [...result.rules.targets.values()];
}

const TARGETS = BLOCKS.flatMap((block) => compiledTargets(block).map((spec) => ({ line: block.line, spec })));

describe('docs/targets.md examples', () => {
  it('include Jira, ServiceNow, TheHive and PagerDuty, and every block is a targets: section', () => {
    expect(BLOCKS.length).toBeGreaterThanOrEqual(9);
    for (const block of BLOCKS)
      expect(Object.keys(parse(block.text) as object), `line ${block.line}`).toEqual(['targets']);
    expect(TARGETS.map(({ spec }) => spec.name)).toEqual(
      expect.arrayContaining([
        'soc-slack',
        'soc-slack-threads',
        'soc-teams',
        'soc-teams-card',
        'oncall-mail',
        'tickets',
        'jira',
        'jira-v3',
        'jira-incidents',
        'servicenow-incidents',
        'servicenow',
        'thehive',
        'thehive-cases',
        'pager',
        'pager-eu',
      ]),
    );
  });

  it.each(BLOCKS.map((block) => [block.line, block] as const))(
    'the block at line %i loads without problems and passes switchyard check',
    async (_line, block) => {
      const file = rulesFile(block);
      const env = placeholderEnv(block.text);
      const result = loadRulesFile(file, env);
      expect(result.ok ? result.warnings : result.problems).toEqual([]);

      const io = fakeCliIo(temp.dir, env);
      expect(await runCheck([file], io), io.out()).toBe(0);
      expect(io.out()).toMatch(/: OK, 1 route, \d+ targets?, 0 warnings/);
      // A CI job without the secrets: unset variables are warnings there, not errors.
      expect(await runCheck([file, '--no-env'], fakeCliIo(temp.dir, {}))).toBe(0);
    },
  );
});

describe('docs/targets.md examples render a hostile event', () => {
  it.each(TARGETS.map(({ line, spec }) => [spec.name, line, spec] as const))(
    '%s (line %i) stays well-formed',
    (_name, _line, spec) => {
      for (const title of [TITLE, `${TITLE}${'x'.repeat(200_000)}`]) {
        const job = makeJob(envelope(title));
        const rendered = renderDocTarget(spec, job);
        if (rendered.type === 'email') {
          const { subject, text, html } = rendered.message;
          expect(subject).not.toMatch(LINE_BREAK);
          expect(text).toContain('Ransomware "encrypting"');
          if (html !== undefined) expect(html).not.toContain('<script>');
          continue;
        }
        if (
          rendered.type === 'http' &&
          spec.type === 'http' &&
          chooseHttpRequest(spec, 'create').request?.body.kind === 'forward'
        ) {
          expect(rendered.body.equals(job.event.body)).toBe(true);
          continue;
        }
        if (rendered.type === 'http') expect(rendered.contentType).toBe('application/json');
        const body = JSON.parse(rendered.body.toString('utf8')) as unknown;
        expect(jsonKeys(body)).not.toContain('injected');
        // The title arrives as text: its Liquid syntax is not evaluated, nor its markup let through to Slack or
        // Teams (which show it as written once they have read the escapes).
        const strings = jsonStrings(body);
        const shown = rendered.type === 'teams' ? strings.map(shownByTeams) : strings;
        expect(shown.some((s) => s.includes('Ransomware "encrypting" C:\\Users\\{{ data.severity }}'))).toBe(true);
        if (rendered.type === 'slack' || rendered.type === 'teams') expect(strings.join('')).not.toContain('<script>');
        // What a Workflows webhook takes: a message of Adaptive Cards, under Teams' 28 KB.
        if (rendered.type === 'teams') expect(judgeTeamsMessage(rendered.body)).toBeUndefined();
        EXPECTED[spec.name]?.(body, title);
      }
    },
  );
});

describe('docs/targets.md lifecycle examples', () => {
  const LIFECYCLES = TARGETS.flatMap(({ spec }) => (spec.type === 'http' && spec.requests ? [spec] : []));
  /** A captured ticket key as hostile as a receiver's answer could make it. */
  const TICKET = '../../admin?x=1#@evil.com/';

  it.each(LIFECYCLES.map((spec) => [spec.name, spec] as const))(
    '%s sends its update and resolve to the ticket it captured, on the host written in the rules',
    (_name, spec) => {
      const create = renderDocTarget(spec, makeJob(envelope('created')));
      if (create.type !== 'http' || create.url === undefined) throw new Error('expected an HTTP request');
      for (const kind of ['incident.updated', 'incident.resolved']) {
        const situation = kind === 'incident.updated' ? 'update' : 'resolve';
        const refs = chooseHttpRequest(spec, situation).request?.urlTemplate?.refs ?? [];
        expect(refs.length).toBeGreaterThan(0);
        const references = Object.fromEntries(refs.map((name) => [name, TICKET]));
        const rendered = renderDocTarget(spec, { ...makeJob({ ...envelope(TITLE), event: kind }), references });
        if (rendered.type !== 'http' || rendered.url === undefined) throw new Error('expected an HTTP request');
        expect(rendered.url.origin).toBe(create.url.origin);
        expect(rendered.url.pathname.split('/')).toContain(encodeURIComponent(TICKET));
        expect(rendered.url.hash).toBe('');
        expect([...rendered.url.searchParams.values()].join()).not.toContain('evil');
        expect(jsonKeys(JSON.parse(rendered.body.toString('utf8')))).not.toContain('injected');
      }
    },
  );
});

describe('docs/targets.md Slack thread examples', () => {
  const THREADED = TARGETS.flatMap(({ spec }) => (spec.type === 'slack' && spec.token !== null ? [spec] : []));
  const THREAD = { ts: '1764000001.000100', channel: 'C0SOCALERT' };

  it.each(THREADED.map((spec) => [spec.name, spec] as const))(
    '%s posts the first event, replies in the thread, and edits the parent on resolve',
    (_name, spec) => {
      const calls = (kind: string, references: Record<string, string> | null) =>
        buildSlackApiCalls(spec, { ...makeJob({ ...envelope(TITLE), event: kind }), references });
      expect(calls('incident.created', null)).toEqual([
        { method: 'chat.postMessage', args: expect.objectContaining({ channel: spec.channel }) as unknown },
      ]);
      expect(calls('incident.updated', { ...THREAD, severity: 'low' })[0]?.args).toMatchObject({
        channel: THREAD.channel,
        thread_ts: THREAD.ts,
        reply_broadcast: true,
      });
      const resolve = calls('incident.resolved', THREAD);
      expect(resolve.map((call) => [call.method, call.args['channel']])).toEqual([
        ['chat.update', THREAD.channel],
        ['chat.postMessage', THREAD.channel],
      ]);
      expect(JSON.stringify(resolve)).not.toContain('<script>');
    },
  );
});

/** What the examples must send, beyond being well-formed: the fields their APIs require. */
const EXPECTED: Readonly<Record<string, (body: unknown, title: string) => void>> = {
  'soc-teams-card': (body) => {
    const card = (body as { attachments: { content: Record<string, unknown> }[] }).attachments[0]?.content;
    expect(card).toMatchObject({ type: 'AdaptiveCard', version: '1.4', msteams: { width: 'Full' } });
    expect(card?.actions).toEqual([
      { type: 'Action.OpenUrl', title: 'Open in the console', url: 'https://console.example.com/events/evt_01TEST' },
    ]);
    expect(JSON.stringify(card?.body)).toContain('{"title":"Host","value":"host-7\\" onmouseover=\\"x\\n\\\\{\\\\{"}');
  },
  tickets: (body, title) => expect(body).toEqual({ summary: title, severity: 'Critical' }),
  jira: (body) => {
    const { fields } = body as { fields: { summary: string; description: string } };
    expect(fields).toMatchObject({ project: { key: 'SOC' }, issuetype: { name: 'Task' } });
    expect(fields).toMatchObject({ labels: ['switchyard', 'incident-created'] });
    // Jira refuses a summary with a line break or over 255 characters.
    expect(fields.summary).toMatch(/^\[CRITICAL\] Ransomware "encrypting"/);
    expect(fields.summary).not.toMatch(LINE_BREAK);
    expect(fields.summary.length).toBeLessThanOrEqual(255);
    expect(fields.description).toBe(`incident.created on ${HOST} at 2026-11-22T10:00:00Z\nSwitchyard event evt_01TEST`);
  },
  'jira-incidents': (body) => {
    const { fields } = body as { fields: { summary: string } };
    expect(fields).toMatchObject({ project: { key: 'SOC' }, issuetype: { name: 'Task' } });
    expect(fields.summary).not.toMatch(LINE_BREAK);
    expect(fields.summary.length).toBeLessThanOrEqual(255);
  },
  'servicenow-incidents': (body) => {
    const incident = body as { short_description: string };
    expect(incident).toMatchObject({ correlation_id: 'inc_1', correlation_display: 'Switchyard' });
    expect(incident.short_description).not.toMatch(LINE_BREAK);
    expect(incident.short_description.length).toBeLessThanOrEqual(160);
  },
  'thehive-cases': (body) => {
    // TheHive 5 refuses a case without title and description, or with a severity that is not a number 1-4.
    const created = body as { title: string; description: string };
    expect(created).toMatchObject({ severity: 4, tlp: 2, pap: 2, tags: ['switchyard', 'inc_1'] });
    expect(created.title).toMatch(/^Ransomware "encrypting"/);
    expect(created.title).not.toMatch(LINE_BREAK);
    expect(created.title.length).toBeLessThanOrEqual(200);
    expect(created.description).toContain('Files renamed to *.locked\n"quoted" {{ switchyard.event_id }}');
  },
  'jira-v3': (body) => {
    const { fields } = body as { fields: { summary: string } };
    expect(fields.summary).not.toMatch(LINE_BREAK);
    expect(fields.summary.length).toBeLessThanOrEqual(255);
    expect(fields).toMatchObject({
      description: {
        type: 'doc',
        version: 1,
        content: [
          {
            type: 'paragraph',
            content: [{ type: 'text', text: `incident.created on ${HOST} (Switchyard evt_01TEST)` }],
          },
        ],
      },
    });
  },
  servicenow: (body) => {
    const incident = body as { short_description: string };
    expect(incident).toMatchObject({ urgency: '1', impact: '1', correlation_id: 'evt_01TEST' });
    expect(incident.short_description).not.toMatch(LINE_BREAK);
    expect(incident.short_description.length).toBeLessThanOrEqual(160);
  },
  pager: (body) => {
    const event = body as { routing_key: string; payload: { summary: string; severity: string; source: string } };
    expect(event).toMatchObject({ event_action: 'trigger', dedup_key: 'incident:inc_1', client: 'Switchyard' });
    expect(event.routing_key).toHaveLength(32);
    // PagerDuty refuses a summary over 1,024 characters; it is also one line here.
    expect(event.payload.summary).toMatch(/^Ransomware "encrypting" C:\\Users\\\{\{ data.severity \}\}/);
    expect(event.payload.summary).not.toMatch(LINE_BREAK);
    expect(event.payload.summary.length).toBeLessThanOrEqual(1_024);
    expect(event.payload).toMatchObject({ severity: 'critical', source: 'host-7" onmouseover="x {{' });
  },
  'pager-eu': (body) => expect(body).toMatchObject({ dedup_key: `host:${HOST}`, payload: { severity: 'critical' } }),
  thehive: (body, title) =>
    expect(body).toEqual({
      type: 'incident.created',
      source: 'switchyard',
      sourceRef: 'evt_01TEST',
      title,
      description: DESCRIPTION,
      severity: 4,
      tags: ['switchyard', 'monitor'],
      tlp: 2,
      pap: 2,
    }),
};
