import { createServer, type AddressInfo, type LookupFunction, type Server } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ANSWER_BOUND_BYTES,
  createHttpSender,
  type HttpSender,
  type HttpSenderOptions,
} from '../../../src/delivery/http/create-http-sender.js';
import { startHttpReceiver, type HttpReceiver } from '../../helpers/start-http-receiver.js';

const opened: { senders: HttpSender[]; receivers: HttpReceiver[] } = { senders: [], receivers: [] };
afterEach(async () => {
  for (const sender of opened.senders.splice(0)) sender.close();
  for (const receiver of opened.receivers.splice(0)) await receiver.close();
});

async function receiver(): Promise<HttpReceiver> {
  const started = await startHttpReceiver();
  opened.receivers.push(started);
  return started;
}

function sender(options: Partial<HttpSenderOptions> = {}): HttpSender {
  const made = createHttpSender({ timeoutMs: 2_000, allowLinkLocal: false, ...options });
  opened.senders.push(made);
  return made;
}

function post(url: string, signal = new AbortController().signal) {
  return {
    url: new URL(url),
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: Buffer.from('hi'),
    signal,
  };
}

/** Resolves every host name to `address`, counting the calls. */
function fixedLookup(address: string): LookupFunction & { calls: string[] } {
  const calls: string[] = [];
  const lookup = ((hostname, options, callback) => {
    calls.push(hostname);
    const family = address.includes(':') ? 6 : 4;
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction & { calls: string[] };
  lookup.calls = calls;
  return lookup;
}

/**
 * A receiver that answers 200 to the first request on each connection and keeps it open without a keep-alive
 * timeout hint, then resets the connection when another request comes on it: a server that closed an idle
 * connection just as it was reused. With `resetFirst`, it resets every connection at its first request.
 */
async function resettingReceiver(resetFirst = false): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    let served = resetFirst;
    socket.on('data', (chunk: Buffer) => {
      if (!chunk.includes('\r\n\r\n')) return;
      if (served) socket.resetAndDestroy();
      else socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
      served = true;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  opened.receivers.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) } as HttpReceiver);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, connections: () => connections };
}

describe('createHttpSender', () => {
  it('sends the request and answers status, headers and body', async () => {
    const target = await receiver();
    target.script({ status: 201, headers: { 'x-answer': 'yes' }, body: '{"id":7}' });
    const answer = await sender().send(post(`${target.url}/api/issues?x=1`));
    expect(answer).toMatchObject({ status: 201, headers: { 'x-answer': 'yes' } });
    expect(answer.body.toString()).toBe('{"id":7}');
    expect(target.requests[0]).toMatchObject({ method: 'POST', url: '/api/issues?x=1', body: Buffer.from('hi') });
    expect(target.requests[0]?.headers['content-length']).toBe('2');
  });

  it('reuses one keep-alive connection for consecutive sends', async () => {
    const target = await receiver();
    const http = sender();
    await http.send(post(target.url));
    await http.send(post(target.url));
    expect(target.requests.map((request) => request.connection)).toEqual([1, 1]);
  });

  it('sends once more, on a new connection, when a reused one was closed before any answer', async () => {
    const target = await resettingReceiver();
    const http = sender();
    expect((await http.send(post(target.url))).status).toBe(200);
    // The pooled connection is reset at this request: the retry goes on a connection of its own.
    expect((await http.send(post(target.url))).status).toBe(200);
    expect(target.connections()).toBe(2);
  });

  it('does not send again when a new connection is reset: the request may have been read', async () => {
    const target = await resettingReceiver(true);
    await expect(sender().send(post(target.url))).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(target.connections()).toBe(1);
  });

  it('keeps only the first 4 KiB of a large answer', async () => {
    const target = await receiver();
    target.script({ status: 500, body: 'x'.repeat(100_000) });
    const answer = await sender().send(post(target.url));
    expect(answer.status).toBe(500);
    expect(answer.body.length).toBe(4096);
  });

  it('keeps the whole answer up to the bound when asked (captures), and says when an answer went on', async () => {
    const target = await receiver();
    const long = `{"issue":{"id":7,"description":"${'d'.repeat(6_000)}"}}`;
    target.script({ status: 201, body: long }, { status: 201, body: long });
    const kept = await sender().send({ ...post(target.url), keepBytes: ANSWER_BOUND_BYTES });
    expect(kept.body.toString()).toBe(long);
    expect(kept.cut).toBe(false);
    const excerpt = await sender().send(post(target.url));
    expect(excerpt.body.length).toBe(4096);
    expect(excerpt.cut).toBe(true);
  });

  it('stops reading an endless answer at the bound and drops its connection, without waiting for the timeout', async () => {
    let closed = false;
    const endless = createHttpServer((_request, response) => {
      response.writeHead(201, { 'content-type': 'application/json' });
      response.write('{"issue":{"id":7,"description":"');
      const chunk = 'x'.repeat(64 * 1024);
      const pump = (): void => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once('drain', pump);
      };
      pump();
      response.socket?.once('close', () => (closed = true));
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    opened.receivers.push({ close: () => new Promise<void>((r) => endless.close(() => r())) } as HttpReceiver);
    const url = `http://127.0.0.1:${(endless.address() as AddressInfo).port}/issues.json`;

    const started = Date.now();
    const answer = await sender({ timeoutMs: 20_000 }).send({ ...post(url), keepBytes: ANSWER_BOUND_BYTES });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(answer.status).toBe(201);
    expect(answer.body.length).toBe(ANSWER_BOUND_BYTES);
    expect(answer.cut).toBe(true);
    await vi.waitFor(() => expect(closed).toBe(true));
  });

  it('does not follow redirects', async () => {
    const target = await receiver();
    target.script({ status: 302, headers: { location: `${target.url}/elsewhere` } });
    expect((await sender().send(post(target.url))).status).toBe(302);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(target.requests).toHaveLength(1);
  });

  it('gives up when no answer comes within the timeout', async () => {
    const target = await receiver();
    target.script({ delayMs: 2_000 });
    await expect(sender({ timeoutMs: 150 }).send(post(target.url))).rejects.toMatchObject({
      code: 'attempt_timeout',
      message: 'no answer within 150 ms',
    });
  });

  it('stops when the signal aborts', async () => {
    const target = await receiver();
    target.script({ delayMs: 2_000 });
    const controller = new AbortController();
    const sending = sender().send(post(target.url, controller.signal));
    await target.waitForRequests(1);
    controller.abort();
    await expect(sending).rejects.toMatchObject({ code: 'attempt_aborted' });
  });

  it('reports a refused connection', async () => {
    const target = await receiver();
    await target.close();
    await expect(sender().send(post(target.url))).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('checks addresses after DNS: a name resolving to the metadata address is refused, nothing sent', async () => {
    const target = await receiver();
    const lookup = fixedLookup('169.254.169.254');
    await expect(sender({ lookup }).send(post(`http://tickets.internal:${target.port}/`))).rejects.toMatchObject({
      code: 'address_refused',
      message: expect.stringContaining('169.254.169.254 (resolved from tickets.internal)'),
    });
    expect(lookup.calls).toEqual(['tickets.internal']);
    expect(target.requests).toHaveLength(0);
  });

  it('checks IPv6 answers after DNS too: a name resolving to fd00:ec2::254 (AWS metadata) is refused', async () => {
    const target = await receiver();
    const lookup = fixedLookup('fd00:ec2::254');
    await expect(sender({ lookup }).send(post(`http://tickets.internal:${target.port}/`))).rejects.toMatchObject({
      code: 'address_refused',
      message: expect.stringContaining('fd00:ec2::254 (resolved from tickets.internal)'),
    });
    expect(lookup.calls).toEqual(['tickets.internal']);
    expect(target.requests).toHaveLength(0);
  });

  // No listener can exist on these addresses here, so the proof is the refusal itself and that the answer
  // names the address: an attempted connection would fail with a network error instead.
  it.each(['64:ff9b::6464:64c8', '64:ff9b:1:6464:64:c800::', '::ffff:c000:c0', '2001:0:4136:e378:8000:63bf:3fff:ff3f'])(
    'refuses a name resolving to %s (a metadata address embedded in IPv6), nothing sent',
    async (address) => {
      const lookup = fixedLookup(address);
      await expect(sender({ lookup }).send(post('http://tickets.internal:9/'))).rejects.toMatchObject({
        code: 'address_refused',
        message: expect.stringContaining(`${address} (resolved from tickets.internal)`),
      });
      expect(lookup.calls).toEqual(['tickets.internal']);
    },
  );

  it('uses the injected lookup for allowed addresses', async () => {
    const target = await receiver();
    const lookup = fixedLookup('127.0.0.1');
    await sender({ lookup }).send(post(`http://tickets.internal:${target.port}/`));
    expect(lookup.calls).toEqual(['tickets.internal']);
    expect(target.requests[0]?.headers.host).toBe(`tickets.internal:${target.port}`);
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:169.254.169.254]/',
    'http://[fe80::1]/',
    'http://[fd00:ec2::254]/',
    'http://100.100.100.200/',
    'http://192.0.0.192/',
    'http://2852039166/', // 169.254.169.254 as one number: the URL parser normalises it
    'https://169.254.169.254/',
    'http://[64:ff9b::6464:64c8]/', // 100.100.100.200 through NAT64 (issue 10)
    'http://[64:ff9b:1:c000:0:c000::]/', // 192.0.0.192 through the local-use NAT64 prefix /48
    'http://[2002:a9fe:a9fe::1]/', // 169.254.169.254 through 6to4
    'http://0x64.0x64.0x64.0xc8/', // 100.100.100.200 in hex
  ])('refuses the IP literal in %s before connecting', async (url) => {
    const lookup = fixedLookup('127.0.0.1');
    await expect(sender({ lookup }).send(post(url))).rejects.toMatchObject({ code: 'address_refused' });
    expect(lookup.calls).toEqual([]);
  });

  it('allow_link_local turns the guard off (the connection is then attempted)', async () => {
    // A link-local address on the loopback interface: the attempt fails locally and never leaves this machine.
    const lookup = fixedLookup('fe80::1%lo');
    const guarded = await sender({ lookup, timeoutMs: 500 })
      .send(post('http://metadata.internal:9/'))
      .catch((e: unknown) => e);
    expect(guarded).toMatchObject({ code: 'address_refused' });
    const allowed = sender({ lookup, timeoutMs: 500, allowLinkLocal: true });
    const error: unknown = await allowed.send(post('http://metadata.internal:9/')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toMatchObject({ code: 'address_refused' });
  });

  it('rejects schemes other than http and https, and sends after close', async () => {
    await expect(sender().send(post('ftp://127.0.0.1/'))).rejects.toMatchObject({ code: 'invalid_url' });
    const http = sender();
    http.close();
    await expect(http.send(post('http://127.0.0.1:9/'))).rejects.toMatchObject({ code: 'target_closed' });
  });

  it('rejects a header value Node refuses, without leaking a timer', async () => {
    const request = { ...post('http://127.0.0.1:9/'), headers: { authorization: 'Bearer a\nb' } };
    await expect(sender({ timeoutMs: 50 }).send(request)).rejects.toMatchObject({ code: 'ERR_INVALID_CHAR' });
    await new Promise((resolve) => setTimeout(resolve, 100)); // the timer firing now would throw
  });
});
