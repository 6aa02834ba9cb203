import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { WEBHOOK_PREFIX } from '../ingest/ingest-handler.js';

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
  // Node enforces headersTimeout and requestTimeout only on a sweep every connectionsCheckingInterval
  // (30 s by default), so a 10 s header timeout held for up to 40 s (issue 10, item 7); sweeping every
  // second (or faster for a smaller timeout) keeps each within about a second of its setting.
  // https://nodejs.org/api/http.html#httpcreateserveroptions-requestlistener
  const connectionsCheckingInterval = Math.max(50, Math.min(1_000, Math.floor(options.headersTimeoutMs / 4)));
  const server = createServer({ connectionsCheckingInterval }, (req, res) => {
    if (req.url?.startsWith(WEBHOOK_PREFIX)) ingest(req, res);
    else rest(req, res);
  });
  server.headersTimeout = options.headersTimeoutMs;
  // The ingest path answers a stalled body itself (408, JSON); this is only the backstop behind it.
  server.requestTimeout = options.headersTimeoutMs + options.bodyTimeoutMs + 5_000;
  server.keepAliveTimeout = 5_000;
  // Past it node:http closes new connections at once: each open socket costs memory even before a body.
  if (options.maxConnections !== undefined) server.maxConnections = options.maxConnections;
  return server;
}
