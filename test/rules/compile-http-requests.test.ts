import { describe, expect, it } from 'vitest';
import { runCheck } from '../../src/cli/check-command.js';
import type { HttpTargetSpec } from '../../src/rules/rules.js';
import { fakeCliIo } from './support/fake-cli-io.js';
import { rulesLoader } from './support/load-rules-text.js';
import { useTempDir } from './support/temp-dir.js';

const { load, compile } = rulesLoader();
const temp = useTempDir();

/** A rules file whose only target is `jira`, its options written from line 3 on. */
const rules = (options: string) =>
  `targets:\n  jira:\n    type: http\n${options}routes: [{ name: r, to: [jira] }]\nfallback: []\n`;

function problems(options: string, env: Record<string, string> = {}): string[] {
  const result = load(rules(options), env);
  const list = result.ok ? result.warnings : result.problems;
  return list.map((p) => `${p.line}:${p.column} ${p.severity} ${p.code}: ${p.message}`);
}

const LIFECYCLE = `    key: '{{ data.incident_id }}'
    requests:
      create:
        url: https://jira.example/rest/api/2/issue
        body: { fields: { summary: '{{ data.title }}' } }
        capture: { ticket: body.key, location: header.Location }
      update:
        method: PUT
        url: 'https://jira.example/rest/api/2/issue/{{ ref.ticket }}/comment?notify={{ situation }}'
        body: { body: '{{ data.title }}' }
`;

describe('compiled HTTP requests per situation', () => {
  it('give each situation its request, captures and URL template, and the target its key', () => {
    const spec = compile(rules(LIFECYCLE)).targets.get('jira') as HttpTargetSpec;
    expect(spec.correlationKey?.render({ data: { incident_id: 'inc_9' } })).toBe('inc_9');
    expect(spec.requests?.create).toMatchObject({
      method: 'POST',
      url: 'https://jira.example/rest/api/2/issue',
      urlTemplate: null,
      body: { kind: 'json' },
      capture: [
        { name: 'ticket', from: 'body', path: ['key'] },
        { name: 'location', from: 'header', header: 'location' },
      ],
    });
    expect(spec.requests?.update).toMatchObject({
      method: 'PUT',
      capture: [],
      urlTemplate: {
        authorityLength: 'https://jira.example'.length,
        segments: [false, false, false, false, true, false],
      },
    });
    expect(spec.requests?.update?.urlTemplate?.refs).toEqual(['ticket']);
    expect(spec.requests?.resolve).toBeNull();
  });

  it('a target with one templated url keeps it as its one request', () => {
    const spec = compile(rules(`    url: 'https://h.example/hooks/{{ data.source }}'\n`)).targets.get('jira');
    expect(spec).toMatchObject({
      url: 'https://h.example/hooks/{{ data.source }}',
      requests: null,
      correlationKey: null,
    });
    expect((spec as HttpTargetSpec).urlTemplate?.segments).toEqual([false, true]);
  });

  it('a slack target takes key: too', () => {
    const text = `targets:\n  chat: { type: slack, webhook_url: 'https://hooks.example/x', key: '{{ data.host }}' }\nroutes: [{ name: r, to: [chat] }]\nfallback: []\n`;
    expect(compile(text).targets.get('chat')?.correlationKey?.source).toBe('{{ data.host }}');
  });
});

describe('HTTP request problems', () => {
  it('templates in the scheme, user, host or port are refused where they are written', () => {
    expect(
      problems(`    requests:
      create: { url: 'https://{{ data.host }}/rest/api/2/issue' }
      update: { url: 'https://jira.example:{{ data.port }}/x' }
      resolve: { url: 'https://{{ data.user }}@jira.example/x/{{ data.id }}' }
`),
    ).toEqual([
      '5:22 error template_in_host: targets.jira.requests.create.url: templates may appear only in the path and query, not in the scheme, user, host or port',
      '6:22 error template_in_host: targets.jira.requests.update.url: templates may appear only in the path and query, not in the scheme, user, host or port',
      '7:23 error template_in_host: targets.jira.requests.resolve.url: templates may appear only in the path and query, not in the scheme, user, host or port',
    ]);
    expect(problems(`    url: 'https://jira.example{{ data.path }}'\n`)).toEqual([
      expect.stringMatching(/^4:10 error template_in_host: targets\.jira\.url: /),
    ]);
  });

  it('an unknown situation, a requests map without create and a capture that is not body. or header. are located', () => {
    expect(
      problems(`    requests:
      update: { url: 'https://jira.example/x/{{ ref.ok }}', capture: { id: 'json.id', ok: body.id } }
      reopen: { url: 'https://jira.example/x' }
`),
    ).toEqual([
      '5:7 error schema: targets.jira.requests: missing required property "create"',
      '5:76 error bad_capture: targets.jira.requests.update.capture.id: must be body.<field path> (a field of the JSON answer, e.g. body.key) or header.<name>',
      '6:7 error schema: targets.jira.requests: unknown property "reopen" (allowed: create, update, resolve)',
    ]);
  });

  it('url, method or body beside requests, a target with neither, `| raw` and a space in a URL are errors', () => {
    expect(
      problems(`    url: https://jira.example/x
    body: { a: b }
    requests:
      create: { url: 'https://jira.example/{{ data.id | raw }}' }
      update: { url: 'https://jira.example/a b/{{ data.id }}' }
`),
    ).toEqual([
      '4:5 error conflicting_options: targets.jira.url: give url inside each request of requests, not beside it',
      '5:5 error conflicting_options: targets.jira.body: give body inside each request of requests, not beside it',
      expect.stringMatching(/^7:22 error template_syntax: targets\.jira\.requests\.create\.url: undefined filter: raw/),
      '8:22 error bad_url: targets.jira.requests.update.url: is not a valid URL (outside its templates)',
    ]);
    expect(problems(`    method: PUT\n`)).toEqual(['2:3 error missing_option: targets.jira: needs url (or requests)']);
    expect(problems(`    url: 'https://jira.example/a b'\n`)).toEqual([
      '4:10 error bad_url: targets.jira.url: is not a valid URL (it holds a space or line break)',
    ]);
  });

  it('a ref.X that no request of the target captures is an error where it is used, in URLs and bodies', () => {
    expect(
      problems(`    requests:
      create:
        url: https://tickets.example/issues.json
        body: { issue: { subject: '{{ data.title }}' } }
        capture: { tid: body.issue.id }
      update:
        url: 'https://tickets.example/issues/{{ ref.ticket }}.json'
        body: { issue: { notes: '{{ data.title }} ({{ ref.tid }})', links: ['{{ ref.url }}'] } }
      resolve:
        url: 'https://tickets.example/issues/{{ ref.tid }}.json'
        raw_body: '{"id": "{{ ref["tids"] }}"}'
        content_type: application/json
`),
    ).toEqual([
      '10:14 error uncaptured_ref: targets.jira.requests.update.url: uses ref.ticket, but no request of this target captures ticket (it captures only tid)',
      '11:77 error uncaptured_ref: targets.jira.requests.update.body.issue.links[0]: uses ref.url, but no request of this target captures url (it captures only tid)',
      '14:19 error uncaptured_ref: targets.jira.requests.resolve.raw_body: uses ref.tids, but no request of this target captures tids (it captures only tid): did you mean "tid"?',
    ]);
    // A target without requests captures nothing: its `ref` is always empty.
    expect(problems(`    url: 'https://h.example/x/{{ ref.ticket }}'\n`)).toEqual([
      '4:10 error uncaptured_ref: targets.jira.url: uses ref.ticket, but no request of this target captures ticket (it captures nothing)',
    ]);
  });

  it('a capture indented into body is a warning: it is sent as JSON and captures nothing', () => {
    expect(
      problems(`    requests:
      create:
        url: https://tickets.example/issues.json
        body:
          issue: { subject: '{{ data.title }}' }
          capture: { ticket: body.issue.id }
`),
    ).toEqual([
      '9:11 warning capture_in_body: targets.jira.requests.create.body.capture: capture inside body is sent as part of the JSON and captures nothing; to capture, give it beside body (one level up)',
    ]);
  });

  it('switchyard check prints them as file:line:column and fails', async () => {
    temp.write('jira.yaml', rules(`    requests:\n      create: { url: 'https://{{ data.host }}/x' }\n`));
    const io = fakeCliIo(temp.dir);
    expect(await runCheck(['jira.yaml'], io)).toBe(1);
    expect(io.out()).toMatch(
      /^jira\.yaml:5:22: error: targets\.jira\.requests\.create\.url: templates may appear only/m,
    );
  });
});
