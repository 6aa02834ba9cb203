import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listener {
  /** The port actually bound (useful with port 0). */
  readonly port: number;
  /** Stops accepting, lets requests in flight finish, closes idle keep-alive connections. */
  close(): Promise<void>;
}

/** Binds `server` and hands back how to close it, so each listener registers its own release. */
export function startListener(server: Server, host: string, port: number): Promise<Listener> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
          }),
      });
    });
  });
}
