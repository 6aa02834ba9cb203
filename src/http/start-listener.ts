import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Listener {
  /** The port actually bound (useful with port 0). */
  readonly port: number;
  /** Stops accepting, lets requests in flight finish with their answers, then closes every connection. */
  close(): Promise<void>;
}

/** Binds `server` and hands back how to close it, so each listener registers its own release. */
export function startListener(server: Server, host: string, port: number): Promise<Listener> {
  // `server.close()` alone waits for two kinds of connection Node counts neither idle nor finished: sockets a
  // browser opened ahead of need and never used (Chromium's preconnect), held until the header timeout sweeps
  // them, and keep-alive sockets whose request was in flight, held for the keep-alive timeout after it. A
  // console tab left open delayed the daemon's shutdown by both.
  const unused = new Set<Socket>();
  const answering = new Set<ServerResponse>();
  let closing = false;
  server.on('connection', (socket: Socket) => {
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  // One listener for every answer rather than a closure (and once() wrapper) per request; an answer closes once.
  function answered(this: ServerResponse): void {
    answering.delete(this);
    if (closing) setImmediate(() => server.closeIdleConnections());
  }
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    unused.delete(req.socket);
    answering.add(res);
    if (closing) res.shouldKeepAlive = false;
    res.on('close', answered);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            closing = true;
            server.close(() => done());
            server.closeIdleConnections();
            // No request was read on these, so none is cut short.
            for (const socket of unused) socket.destroy();
            for (const res of answering) if (!res.headersSent) res.shouldKeepAlive = false;
          }),
      });
    });
  });
}
