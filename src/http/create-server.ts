import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { WEBHOOK_PREFIX } from '../ingest/ingest-handler.js';
import { createTimedServer } from './create-timed-server.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * One listener: webhook deliveries take the lean node:http path, everything else goes to express.
 * Timeouts bound how long a slow or stalled client can hold a socket (slowloris).
 */
export function createHttpServer(
  ingest: Handler,
  rest: Handler,
  options: { headersTimeoutMs: number; bodyTimeoutMs: number; maxConnections?: number },
): Server {
  const server = createTimedServer(
    (req, res) => {
      if (req.url?.startsWith(WEBHOOK_PREFIX)) ingest(req, res);
      else rest(req, res);
    },
    {
      headersTimeoutMs: options.headersTimeoutMs,
      // The ingest path answers a stalled body itself (408, JSON); this is only the backstop behind it.
      requestTimeoutMs: options.headersTimeoutMs + options.bodyTimeoutMs + 5_000,
    },
  );
  // Past it node:http closes new connections at once: each open socket costs memory even before a body.
  if (options.maxConnections !== undefined) server.maxConnections = options.maxConnections;
  return server;
}
