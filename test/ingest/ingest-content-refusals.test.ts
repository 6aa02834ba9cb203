import { randomBytes } from 'node:crypto';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EVENT_KIND_LENGTH } from '../../src/ingest/parse-envelope.js';
import { waitFor } from '../delivery/engine/engine-harness.js';
import { forwardAllRules } from '../helpers/forward-all-rules.js';
import { envelope, postWebhook } from '../helpers/post-webhook.js';
import { startHttpReceiver, type HttpReceiver } from '../helpers/start-http-receiver.js';
import { startPostgresDaemon } from '../helpers/start-postgres-daemon.js';
import { SOURCE_SECRET, startTestDaemon } from '../helpers/start-test-daemon.js';
import { describePostgres } from '../store/describe-postgres.js';
import { tempPostgresJournal, testDatabaseUrl } from '../store/temp-postgres-journal.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A running daemon on one journal, and the journal's row counts read through a store of its own. */
interface Ingest {
  readonly url: string;
  counts(): Promise<{ events: number; deliveries: number }>;
  rawLogs(): string;
  close(): Promise<void>;
}

const TIMESTAMP = '2026-11-22T10:00:00Z';
const raw = (event: string, data: string): string => `{"event":${event},"timestamp":"${TIMESTAMP}","data":${data}}`;
const plain = envelope('incident.created', { incident_id: 'inc_plain', severity: 'high', title: 'Plain' });

// Signed, well-formed JSON the journals or the delivery path cannot take as it is: each gets the same 4xx on
// both journals, before anything is stored.
const REFUSED: readonly {
  what: string;
  body: string | Buffer;
  headers?: Record<string, string>;
  status: number;
  code: string;
}[] = [
  { what: 'a NUL in event', body: raw('"incident.created\\u0000"', '{}'), status: 400, code: 'invalid_envelope' },
  {
    what: 'a NUL in data.title',
    body: raw('"incident.created"', '{"title":"a\\u0000b"}'),
    status: 400,
    code: 'invalid_envelope',
  },
  {
    what: 'a NUL in data.severity',
    body: raw('"incident.created"', '{"severity":"high\\u0000"}'),
    status: 400,
    code: 'invalid_envelope',
  },
  {
    what: 'a NUL in a nested key',
    body: raw('"incident.created"', '{"agent":{"na\\u0000me":"x"}}'),
    status: 400,
    code: 'invalid_envelope',
  },
  {
    what: 'a NUL after an escaped backslash',
    body: raw('"incident.created"', '{"path":"C:\\\\\\u0000"}'),
    status: 400,
    code: 'invalid_envelope',
  },
  {
    what: 'a UTF-8 byte order mark',
    body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(plain)]),
    status: 400,
    code: 'invalid_json',
  },
  {
    what: 'a duplicate "event"',
    body: `{"event":"agent.offline","event":"incident.created","timestamp":"${TIMESTAMP}","data":{}}`,
    status: 400,
    code: 'invalid_json',
  },
  {
    what: 'a duplicate key in data',
    body: raw('"incident.created"', '{"severity":"low","severity":"critical"}'),
    status: 400,
    code: 'invalid_json',
  },
  {
    what: 'a duplicate key deep in data',
    body: raw('"incident.created"', '{"agent":{"tags":[{"k":1,"k" : 2}]}}'),
    status: 400,
    code: 'invalid_json',
  },
  {
    what: `an event kind over ${MAX_EVENT_KIND_LENGTH} characters`,
    body: envelope('x'.repeat(100_000), {}),
    status: 400,
    code: 'invalid_envelope',
  },
  {
    what: 'Content-Encoding: gzip (a real gzip body)',
    body: gzipSync(plain),
    headers: { 'content-encoding': 'gzip' },
    status: 415,
    code: 'unsupported_content_encoding',
  },
  {
    what: 'Content-Encoding: br',
    body: brotliCompressSync(plain),
    headers: { 'content-encoding': 'br' },
    status: 415,
    code: 'unsupported_content_encoding',
  },
  {
    what: 'charset=utf-16',
    body: Buffer.from(plain, 'utf16le'),
    headers: { 'content-type': 'application/json; charset=utf-16' },
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    what: 'charset=iso-8859-1, even for ASCII',
    body: plain,
    headers: { 'content-type': 'application/json;charset="ISO-8859-1"' },
    status: 415,
    code: 'unsupported_media_type',
  },
];

// Near misses of the refusals: accepted, journaled, and delivered with the exact bytes received.
const ACCEPTED: readonly { what: string; body: string; headers?: Record<string, string> }[] = [
  { what: 'an escaped backslash before u0000 (no NUL)', body: raw('"incident.created"', '{"path":"C:\\\\u0000"}') },
  { what: 'one key name in sibling objects', body: raw('"incident.created"', '{"a":{"k":1},"b":{"k":2},"k":3}') },
  { what: 'a key name that is also a value', body: raw('"incident.created"', '{"k":"k","l":["k",{"k":"k"}]}') },
  { what: 'a "\\":" inside a string', body: raw('"incident.created"', '{"note":"a\\":b","x":"\\\\"}') },
  {
    what: `an event kind of ${MAX_EVENT_KIND_LENGTH} characters`,
    body: envelope('k'.repeat(MAX_EVENT_KIND_LENGTH), {}),
  },
  // The journals get U+FFFD for a lone surrogate (both drivers encode strings as UTF-8); the body keeps the escape.
  { what: 'lone surrogates in the kind and data.title', body: raw('"incident.\\ud800"', '{"title":"a\\udc00b"}') },
  // Thousands of incompressible characters failed PostgreSQL's index on the event counts: the journal keeps 100.
  {
    what: 'a data.severity of 6,000 random characters',
    body: envelope('incident.created', { severity: randomBytes(4_500).toString('base64') }),
  },
  {
    what: 'charset="UTF-8" and Content-Encoding: identity',
    body: envelope('incident.created', { title: 'Zürich ✓' }),
    headers: { 'content-type': 'application/json; Charset="UTF-8"', 'content-encoding': 'identity' },
  },
];

function contentRefusals(start: (receiver: HttpReceiver) => Promise<Ingest>): void {
  let ingest: Ingest;
  let receiver: HttpReceiver;
  beforeAll(async () => {
    receiver = await startHttpReceiver();
    ingest = await start(receiver);
  });
  afterAll(async () => {
    await ingest?.close();
    await receiver?.close();
  });

  it.each(REFUSED)('$status $code for $what, storing nothing', async ({ body, headers, status, code }) => {
    const answer = await postWebhook(ingest.url, body, {
      secret: SOURCE_SECRET,
      ...(headers?.['content-type'] === undefined ? {} : { contentType: headers['content-type'] }),
      ...(headers === undefined ? {} : { headers }),
    });
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ error: { code, message: expect.any(String) } });
    // RFC 9110 §15.5.16: a 415 for a content coding says which codings are accepted.
    expect(answer.headers.get('accept-encoding')).toBe(code === 'unsupported_content_encoding' ? 'identity' : null);
    expect(await ingest.counts()).toEqual({ events: 0, deliveries: 0 });
  });

  it('never logs a refused kind whole', () => {
    expect(ingest.rawLogs()).toContain('webhook rejected');
    expect(ingest.rawLogs()).not.toContain('x'.repeat(MAX_EVENT_KIND_LENGTH + 1));
  });

  it('accepts and delivers the near misses, byte for byte', async () => {
    for (const { what, body, headers } of ACCEPTED) {
      const answer = await postWebhook(ingest.url, body, {
        secret: SOURCE_SECRET,
        ...(headers?.['content-type'] === undefined ? {} : { contentType: headers['content-type'] }),
        ...(headers === undefined ? {} : { headers }),
      });
      expect({ what, status: answer.status }).toEqual({ what, status: 200 });
    }
    const delivered = await receiver.waitForRequests(ACCEPTED.length);
    expect(delivered.map((request) => request.body.toString('utf8')).sort()).toEqual(
      ACCEPTED.map(({ body }) => body).sort(),
    );
    await waitFor(
      () => ingest.counts(),
      (counts) => counts.events === ACCEPTED.length,
    );
  });
}

describe('ingest on SQLite: content the journal or the delivery path cannot take is refused, never a 500', () => {
  contentRefusals(async (receiver) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-content-'));
    const daemon = await startTestDaemon(dir, { rules: forwardAllRules(`${receiver.url}/api/events`) });
    return {
      url: daemon.url,
      counts: daemon.counts,
      rawLogs: daemon.rawLogs,
      close: async () => {
        await daemon.running.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});

describePostgres(
  'ingest on PostgreSQL: content the journal or the delivery path cannot take is refused, never a 500',
  () => {
    contentRefusals(async (receiver) => {
      const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-content-'));
      const journal = await tempPostgresJournal();
      const daemon = await startPostgresDaemon(dir, {
        databaseUrl: testDatabaseUrl,
        schema: journal.schema,
        rules: forwardAllRules(`${receiver.url}/api/events`),
      });
      return {
        url: daemon.url,
        rawLogs: daemon.rawLogs,
        counts: async () => {
          const store = journal.openWith({});
          try {
            return await store.counts();
          } finally {
            await store.close();
          }
        },
        close: async () => {
          await daemon.running.close();
          await journal.dispose();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    });
  },
);
