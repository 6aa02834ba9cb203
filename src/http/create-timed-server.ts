import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface ServerTimeouts {
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
}

/**
 * An http.Server whose header and request timeouts hold to within a second. Node enforces both only when it
 * sweeps its connections, every `connectionsCheckingInterval` (30 s by default), so a 10 s header timeout let
 * a 1 byte/s sender hold its socket for 35 s (https://nodejs.org/api/http.html#httpcreateserveroptions-requestlistener).
 */
export function createTimedServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  timeouts: ServerTimeouts,
): Server {
  const sweepMs = Math.max(100, Math.min(1_000, timeouts.headersTimeoutMs / 2));
  const server = createServer({ connectionsCheckingInterval: sweepMs }, handler);
  server.headersTimeout = timeouts.headersTimeoutMs;
  server.requestTimeout = timeouts.requestTimeoutMs;
  server.keepAliveTimeout = 5_000;
  return server;
}
