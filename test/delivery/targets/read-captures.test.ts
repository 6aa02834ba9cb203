import { describe, expect, it } from 'vitest';
import { readCaptures } from '../../../src/delivery/targets/read-captures.js';
import type { HttpCapture } from '../../../src/rules/rules.js';

const body = (value: unknown) => Buffer.from(JSON.stringify(value));
const CAPTURES: HttpCapture[] = [
  { name: 'ticket', from: 'body', path: ['key'] },
  { name: 'id', from: 'body', path: ['result', '0', 'sys_id'] },
  { name: 'count', from: 'body', path: ['count'] },
  { name: 'location', from: 'header', header: 'location' },
];

describe('readCaptures', () => {
  it('reads strings, numbers and list items from the JSON body and headers, as strings', () => {
    const answer = {
      headers: { location: 'https://jira.example/rest/api/2/issue/10001' },
      body: body({ id: '10001', key: 'SOC-7', count: 3, result: [{ sys_id: 'abc123' }] }),
    };
    expect(readCaptures(CAPTURES, answer)).toEqual({
      captured: { ticket: 'SOC-7', id: 'abc123', count: '3', location: 'https://jira.example/rest/api/2/issue/10001' },
      missing: [],
    });
  });

  it('names what the answer lacks: absent fields, objects, a body that is not JSON, a missing header', () => {
    expect(readCaptures(CAPTURES, { headers: {}, body: body({ key: { nested: 1 }, result: [] }) })).toEqual({
      captured: {},
      missing: [
        { name: 'ticket', reason: 'body.key is not a string, number or boolean' },
        { name: 'id', reason: 'no body.result.0.sys_id in the answer' },
        { name: 'count', reason: 'no body.count in the answer' },
        { name: 'location', reason: 'no header location in the answer' },
      ],
    });
    expect(
      readCaptures(CAPTURES.slice(0, 1), { headers: {}, body: Buffer.from('<html>created</html>') }).missing,
    ).toEqual([{ name: 'ticket', reason: 'the answer is not JSON' }]);
  });

  it('takes no value holding a NUL character, which the journal cannot keep, and says so', () => {
    const answer = { headers: {}, body: body({ key: 'SOC-\u00007', count: 2 }) };
    expect(readCaptures(CAPTURES.slice(0, 3), answer)).toEqual({
      captured: { count: '2' },
      missing: [
        { name: 'ticket', reason: 'the value holds a NUL character, which the journal cannot keep' },
        { name: 'id', reason: 'no body.result.0.sys_id in the answer' },
      ],
    });
  });

  it('reads no body value from an answer cut at the bound (a part of it is not the JSON), headers still', () => {
    const answer = {
      headers: { location: '/issues/7' },
      body: Buffer.from('{"key":"SOC-7","description":"'),
      cut: true,
    };
    expect(readCaptures([CAPTURES[0]!, CAPTURES[3]!], answer)).toEqual({
      captured: { location: '/issues/7' },
      missing: [{ name: 'ticket', reason: 'the answer is over 1 MiB, more than captures read' }],
    });
  });

  it('reads own properties only: a path through the prototype finds nothing', () => {
    const captures: HttpCapture[] = [{ name: 'x', from: 'body', path: ['constructor', 'name'] }];
    expect(readCaptures(captures, { headers: {}, body: body({}) }).missing).toEqual([
      { name: 'x', reason: 'no body.constructor.name in the answer' },
    ]);
  });

  it('joins a repeated header', () => {
    const captures: HttpCapture[] = [{ name: 'c', from: 'header', header: 'set-cookie' }];
    expect(
      readCaptures(captures, { headers: { 'set-cookie': ['a=1', 'b=2'] }, body: Buffer.alloc(0) }).captured,
    ).toEqual({
      c: 'a=1, b=2',
    });
  });
});
