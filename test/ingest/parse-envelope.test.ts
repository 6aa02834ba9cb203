import { describe, expect, it } from 'vitest';
import { MAX_EVENT_DEPTH, MAX_EVENT_KIND_LENGTH, parseBody, parseEnvelope } from '../../src/ingest/parse-envelope.js';
import { SwitchyardError } from '../../src/switchyard-error.js';

const ok = { event: 'incident.created', timestamp: '2026-11-22T10:00:00Z', data: { severity: 'high' } };

function codeOf(body: string): string | undefined {
  try {
    parseEnvelope(Buffer.from(body));
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(SwitchyardError);
    expect((error as SwitchyardError).status).toBe(400);
    return (error as SwitchyardError).code;
  }
}

describe('parseEnvelope', () => {
  it('returns the envelope, keeping unknown kinds and extra fields', () => {
    const env = parseEnvelope(
      Buffer.from(JSON.stringify({ ...ok, event: 'future.kind', extra: 1, data: { a: { b: 2 } } })),
    );
    expect(env).toEqual({ event: 'future.kind', timestamp: ok.timestamp, data: { a: { b: 2 } } });
  });
  it.each([
    '2026-11-22T10:00:00Z',
    '2026-11-22T10:00:00.123Z',
    '2026-11-22T10:00:00.123456+02:00',
    '2026-11-22T10:00:00-0530',
    '2028-02-29T10:00:00Z',
    '2000-02-29T10:00:00Z',
    '2026-04-30T10:00:00Z',
    '2026-12-31T23:59:59Z',
    '0100-01-01T00:00:00Z',
  ])('accepts timestamp %s', (timestamp) => {
    expect(codeOf(JSON.stringify({ ...ok, timestamp }))).toBeUndefined();
  });
  it.each([
    ['invalid JSON', '{"event":', 'invalid_json'],
    ['empty body', '', 'invalid_json'],
    ['an array', '[]', 'invalid_envelope'],
    ['a string', '"hello"', 'invalid_envelope'],
    ['null', 'null', 'invalid_envelope'],
    ['missing event', JSON.stringify({ timestamp: ok.timestamp, data: {} }), 'invalid_envelope'],
    ['empty event', JSON.stringify({ ...ok, event: '' }), 'invalid_envelope'],
    ['numeric event', JSON.stringify({ ...ok, event: 5 }), 'invalid_envelope'],
    ['missing timestamp', JSON.stringify({ event: 'a', data: {} }), 'invalid_envelope'],
    ['date-only timestamp', JSON.stringify({ ...ok, timestamp: '2026-11-22' }), 'invalid_envelope'],
    ['zone-less timestamp', JSON.stringify({ ...ok, timestamp: '2026-11-22T10:00:00' }), 'invalid_envelope'],
    ['epoch number timestamp', JSON.stringify({ ...ok, timestamp: 1763805600 }), 'invalid_envelope'],
    ['impossible month', JSON.stringify({ ...ok, timestamp: '2026-13-22T10:00:00Z' }), 'invalid_envelope'],
    ['impossible day', JSON.stringify({ ...ok, timestamp: '2026-02-30T10:00:00Z' }), 'invalid_envelope'],
    ['29 February of a common year', JSON.stringify({ ...ok, timestamp: '2026-02-29T10:00:00Z' }), 'invalid_envelope'],
    ['29 February of a century', JSON.stringify({ ...ok, timestamp: '2100-02-29T10:00:00Z' }), 'invalid_envelope'],
    ['31 April', JSON.stringify({ ...ok, timestamp: '2026-04-31T10:00:00Z' }), 'invalid_envelope'],
    ['day 0', JSON.stringify({ ...ok, timestamp: '2026-04-00T10:00:00Z' }), 'invalid_envelope'],
    ['month 0', JSON.stringify({ ...ok, timestamp: '2026-00-10T10:00:00Z' }), 'invalid_envelope'],
    // Date.UTC reads years 0-99 as 1900-1999, so they never passed the calendar check; they still do not.
    ['a year below 100', JSON.stringify({ ...ok, timestamp: '0099-11-22T10:00:00Z' }), 'invalid_envelope'],
    ['free text timestamp', JSON.stringify({ ...ok, timestamp: 'yesterday' }), 'invalid_envelope'],
    ['missing data', JSON.stringify({ event: 'a', timestamp: ok.timestamp }), 'invalid_envelope'],
    ['data as array', JSON.stringify({ ...ok, data: [] }), 'invalid_envelope'],
    ['data as null', JSON.stringify({ ...ok, data: null }), 'invalid_envelope'],
  ])('refuses %s', (_what, body, code) => {
    expect(codeOf(body)).toBe(code);
  });
});

describe('parseEnvelope: depth and encoding', () => {
  const nested = (depth: number): string =>
    `{"event":"a.b","timestamp":"2026-11-22T10:00:00Z","data":${'['.repeat(depth - 1)}{}${']'.repeat(depth - 1)}}`;
  it('takes an envelope exactly MAX_EVENT_DEPTH deep and refuses one level more', () => {
    expect(codeOf(nested(MAX_EVENT_DEPTH - 1))).toBe('invalid_envelope'); // an array data, but not too deep
    expect(codeOf(nested(MAX_EVENT_DEPTH))).toBe('event_too_deep');
    const data = `${'{"a":'.repeat(MAX_EVENT_DEPTH - 1)}1${'}'.repeat(MAX_EVENT_DEPTH - 1)}`;
    expect(codeOf(`{"event":"a.b","timestamp":"2026-11-22T10:00:00Z","data":{"x":${data}}}`)).toBe('event_too_deep');
    expect(codeOf(`{"event":"a.b","timestamp":"2026-11-22T10:00:00Z","data":${data}}`)).toBeUndefined();
  });
  it('refuses bytes that are not UTF-8 as invalid_json', () => {
    const bytes = Buffer.from(JSON.stringify(ok));
    bytes[bytes.indexOf('h')] = 0xff;
    expect(() => parseEnvelope(bytes)).toThrow(expect.objectContaining({ code: 'invalid_json' }));
  });
});

describe('parseEnvelope: what the journals and the delivery path cannot take as the ingest reads it', () => {
  const env = (data: string, event = '"a.b"'): string =>
    `{"event":${event},"timestamp":"${ok.timestamp}","data":${data}}`;
  it.each([
    ['a NUL in a value', env('{"title":"a\\u0000"}')],
    ['a NUL in a key', env('{"ti\\u0000tle":"a"}')],
    ['a NUL in the kind', env('{}', '"a\\u0000"')],
    ['a NUL after an escaped backslash', env('{"p":"\\\\\\u0000"}')],
  ])('refuses %s as invalid_envelope', (_what, body) => {
    expect(codeOf(body)).toBe('invalid_envelope');
  });
  it.each([
    ['an escaped backslash before u0000', env('{"p":"\\\\u0000"}')],
    ['two escaped backslashes before u0000', env('{"p":"\\\\\\\\u0000"}')],
    ['another escape of a control character', env('{"p":"\\u0001\\u000a"}')],
  ])('accepts %s', (_what, body) => {
    expect(codeOf(body)).toBeUndefined();
  });
  it('takes a kind of MAX_EVENT_KIND_LENGTH characters and refuses one more', () => {
    expect(codeOf(env('{}', JSON.stringify('k'.repeat(MAX_EVENT_KIND_LENGTH))))).toBeUndefined();
    expect(codeOf(env('{}', JSON.stringify('k'.repeat(MAX_EVENT_KIND_LENGTH + 1))))).toBe('invalid_envelope');
  });
  it('refuses a duplicate key as invalid_json', () => {
    expect(codeOf(`{"event":"a.b","event":"c.d","timestamp":"${ok.timestamp}","data":{}}`)).toBe('invalid_json');
    expect(codeOf(env('[{"k":1,"k":1}]'))).toBe('invalid_json');
  });

  // The delivery engine, the admin API, the CLI and digests read a stored body as Buffer#toString + JSON.parse:
  // whatever the ingest accepts must read the same there, or an acknowledged event could never be delivered.
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  it.each([
    ['a byte order mark', Buffer.concat([bom, Buffer.from(JSON.stringify(ok))])],
    ['a byte order mark after whitespace', Buffer.concat([Buffer.from(' '), bom, Buffer.from(JSON.stringify(ok))])],
    ['a byte order mark inside a string', Buffer.from(env(`{"title":"${'\ufeff'}x"}`))],
    ['non-ASCII text', Buffer.from(env('{"title":"Zürich ✓ 🚨"}'))],
    ['escaped surrogates', Buffer.from(env('{"title":"\\ud83d\\udea8 \\ud800"}'))],
    ['whitespace around everything', Buffer.from(` \r\n\t${env('{ "k" : 1 }')} \n`)],
  ])('reads a body with %s as the delivery side does, or refuses it', (_what, body) => {
    let accepted: unknown;
    try {
      accepted = parseBody(body);
    } catch (error) {
      expect(error).toMatchObject({ code: 'invalid_json', status: 400 });
      return;
    }
    expect(JSON.parse(body.toString('utf8'))).toEqual(accepted);
  });
  it('refuses a leading byte order mark with a message that says so', () => {
    expect(() => parseBody(Buffer.concat([bom, Buffer.from(JSON.stringify(ok))]))).toThrow(/byte order mark/);
  });
});
