import type { Server } from 'node:net';
import type { AddressInfo } from 'node:net';

/** Starts `server` on a free port of 127.0.0.1 and returns the port: the stand-ins never clash with anything. */
export function listenOnLoopback(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
