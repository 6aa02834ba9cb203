import { Agent, createServer, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startListener } from '../../src/http/start-listener.js';

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

function socketClosed(socket: Socket): Promise<void> {
  return new Promise((resolve) => socket.once('close', () => resolve()));
}

describe('startListener close', () => {
  it('does not wait for a connection that never sent a request (a browser preconnect)', async () => {
    // Without a header timeout sweep, Node would wait for such a socket for as long as it stays open.
    const server = createServer((_req, res) => res.end('ok'));
    const listener = await startListener(server, '127.0.0.1', 0);
    const socket = await openSocket(listener.port);
    const closedByServer = socketClosed(socket);
    await listener.close();
    await closedByServer;
    expect(server.listening).toBe(false);
  });

  it('lets a request in flight finish with its answer, then closes its kept-alive socket', async () => {
    let answer: (() => void) | undefined;
    const server = createServer((_req, res) => {
      answer = () => res.end('finished');
    });
    // Without the listener's care, the kept-alive socket would hold the close for this long after the answer.
    server.keepAliveTimeout = 60_000;
    const listener = await startListener(server, '127.0.0.1', 0);
    // A client that keeps its socket open for as long as the server does (Node's global agent gives up at 5 s).
    const agent = new Agent({ keepAlive: true });
    const body = new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: listener.port, path: '/', agent }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      req.end();
    });
    await expect.poll(() => answer).toBeDefined();
    const closed = listener.close();
    answer?.();
    expect(await body).toBe('finished');
    await closed;
    expect(server.listening).toBe(false);
    agent.destroy();
  });
});
