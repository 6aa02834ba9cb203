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
      missing: ['ticket', 'id', 'count', 'location'],
    });
    expect(
      readCaptures(CAPTURES.slice(0, 1), { headers: {}, body: Buffer.from('<html>created</html>') }).missing,
    ).toEqual(['ticket']);
  });

  it('reads own properties only: a path through the prototype finds nothing', () => {
    const captures: HttpCapture[] = [{ name: 'x', from: 'body', path: ['constructor', 'name'] }];
    expect(readCaptures(captures, { headers: {}, body: body({}) }).missing).toEqual(['x']);
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
