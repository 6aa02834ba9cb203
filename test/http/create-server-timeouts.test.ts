import { connect } from 'node:net';
import type { Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../src/http/create-server.js';
import { startListener, type Listener } from '../../src/http/start-listener.js';

let listener: Listener | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

async function listen(server: Server): Promise<number> {
  listener = await startListener(server, '127.0.0.1', 0);
  return listener.port;
}

/** Trickles request headers one byte every `everyMs` and answers how long until the server closed the socket. */
function trickleHeaders(port: number, everyMs: number, giveUpMs: number): Promise<number | null> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    const text = 'POST /webhooks/monitor HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(1_000);
    let sent = 0;
    const ticker = setInterval(() => {
      if (!socket.destroyed) socket.write(text.charAt(sent++ % text.length));
    }, everyMs);
    const finish = (closedAfter: number | null): void => {
      clearInterval(ticker);
      clearTimeout(giveUp);
      socket.destroy();
      resolve(closedAfter);
    };
    const giveUp = setTimeout(() => finish(null), giveUpMs);
    socket.on('error', () => undefined);
    socket.on('close', () => finish(Date.now() - started));
  });
}

describe('HTTP server timeouts hold within about a second of their setting', () => {
  it('closes a connection whose headers trickle in past headersTimeout (slowloris)', async () => {
    const never = (): void => undefined;
    const port = await listen(createHttpServer(never, never, { headersTimeoutMs: 1_000, bodyTimeoutMs: 1_000 }));
    const closedAfter = await trickleHeaders(port, 200, 8_000);
    // A behavioural bound, not a performance figure: Node's default 30 s sweep would leave it open here.
    expect(closedAfter).not.toBeNull();
    expect(closedAfter).toBeGreaterThanOrEqual(900);
    expect(closedAfter).toBeLessThan(4_000);
  });
});
