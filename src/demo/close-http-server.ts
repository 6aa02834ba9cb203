import type { Server } from 'node:http';

/** Stops a stand-in at once: keep-alive connections from the daemon's targets would otherwise hold it open. */
export function closeHttpServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
