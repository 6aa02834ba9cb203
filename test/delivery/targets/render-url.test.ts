import { describe, expect, it } from 'vitest';
import { renderUrl } from '../../../src/delivery/targets/render-url.js';
import type { UrlTemplate } from '../../../src/rules/rules.js';
import { httpSpecCompiler } from './http-spec-compiler.js';

const compile = httpSpecCompiler();
// The create of a lifecycle target, which captures what its URL may use (check refuses a ref never captured).
const urlTemplate = (url: string): UrlTemplate => {
  const capture = '{ ticket: body.key, sys_id: body.sys_id, a: body.a }';
  const create = `requests:\n  create: { url: ${JSON.stringify(url)}, capture: ${capture} }`;
  const template = compile(create).requests?.create.urlTemplate;
  if (template === null || template === undefined) throw new Error('no template');
  return template;
};

const COMMENT = urlTemplate(
  'https://jira.example:8443/rest/api/2/issue/{{ ref.ticket }}/comment?source={{ data.source }}',
);
/** Values an event (or a receiver's answer, captured) could hold to move a request somewhere else. */
const HOSTILE = [
  '../../admin',
  'x/y?z#w',
  '%2e%2e',
  '%2F..%2F',
  '@evil.com',
  ':80@evil.com',
  'https://evil.com:444/steal?x=1',
  '\\..\\..\\admin',
  '?admin=1&source=x',
  '#fragment',
  'SOC-1/../../../secure/admin',
  'a b\r\nHost: evil.com',
  '\uD800 lone surrogate',
];

describe('renderUrl', () => {
  it('inserts values percent-encoded, leaving the literal parts as written', () => {
    const url = renderUrl(COMMENT, { ref: { ticket: 'SOC-12' }, data: { source: 'edr & ndr' } });
    expect(url.href).toBe('https://jira.example:8443/rest/api/2/issue/SOC-12/comment?source=edr%20%26%20ndr');
  });

  it.each(HOSTILE)('keeps host, port, path segments and query keys whatever a value holds: %j', (value) => {
    const url = renderUrl(COMMENT, { ref: { ticket: value }, data: { source: value } });
    expect(url.host).toBe('jira.example:8443');
    expect(url.username + url.password).toBe('');
    expect(url.hash).toBe('');
    const segments = url.pathname.split('/');
    expect(segments).toHaveLength(7);
    expect(segments.slice(0, 5)).toEqual(['', 'rest', 'api', '2', 'issue']);
    expect(segments[6]).toBe('comment');
    // The segment reads back as the value: nothing of it was taken as structure.
    expect(decodeURIComponent(segments[5] ?? '')).toBe(value.replace(/\uD800/, '\uFFFD'));
    expect([...url.searchParams.keys()]).toEqual(['source']);
    expect(url.searchParams.get('source')).toBe(value.replace(/\uD800/, '\uFFFD'));
  });

  it.each(['..', '.', '', '%2e'])(
    'refuses a value that would make a segment %j, which would drop or climb it',
    (value) => {
      // `%2e` is encoded to `%252e`, a plain segment; `.` and `..`, encoded or not, are dot segments to URL parsers.
      if (value === '%2e') {
        expect(renderUrl(COMMENT, { ref: { ticket: value } }).pathname).toBe('/rest/api/2/issue/%252e/comment');
        return;
      }
      expect(() => renderUrl(COMMENT, { ref: { ticket: value } })).toThrow(
        /URL template rendered wrong: path segment 5 is (empty|"\.\.?")/,
      );
    },
  );

  it('refuses a missing value in a path segment rather than sending to the parent resource', () => {
    expect(() => renderUrl(COMMENT, { ref: {} })).toThrow(/path segment 5 is empty/);
  });

  it('refuses a path whose slashes depend on a condition', () => {
    const template = urlTemplate('https://h.example/a{% if data.x %}/{{ data.x }}{% endif %}/b');
    expect(renderUrl(template, { data: { x: 'y' } }).pathname).toBe('/a/y/b');
    expect(() => renderUrl(template, { data: {} })).toThrow(/its path has 2 segments where the URL as written has 3/);
  });

  it('splits segments outside Liquid only: a slash inside a tag is not structure', () => {
    const template = urlTemplate("https://h.example/a/{{ data.path | split: '/' | last }}");
    expect(template.segments).toEqual([false, true]);
    expect(renderUrl(template, { data: { path: 'x/y/z' } }).pathname).toBe('/a/z');
  });

  it('knows which ref values the URL needs', () => {
    expect(COMMENT.refs).toEqual(['ticket']);
    expect(urlTemplate("https://h.example/{{ ref['sys_id'] }}/{{ ref.a }}?x={{ ref.a }}").refs).toEqual([
      'sys_id',
      'a',
    ]);
  });
});
