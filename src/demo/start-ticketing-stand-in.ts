import { createServer } from 'node:http';
import { closeHttpServer } from './close-http-server.js';
import { listenOnLoopback } from './listen-on-loopback.js';
import { readRequestBody } from './read-request-body.js';

export interface TicketingRequest {
  readonly method: string;
  readonly path: string;
  /** What the stand-in answered: 503 while down, 201 after. */
  readonly status: number;
  readonly body: string;
  /** The ticket id answered with 201, e.g. `TCK-1`. */
  readonly ticket: string | null;
}

export interface TicketingStandIn {
  /** `http://127.0.0.1:<port>`; any path is accepted. */
  readonly url: string;
  /** Every request, answered or refused, in arrival order. */
  readonly requests: TicketingRequest[];
  close(): Promise<void>;
}

/**
 * A ticketing API that is down for a while and recovers: its first `failFirst` requests are answered
 * `503` with `Retry-After: 1`, every later one `201 {"id": "TCK-<n>"}`. Counting requests rather than seconds
 * keeps the demo's outcome the same on a slow machine; staying under the circuit breaker's default threshold
 * of 5 consecutive failures keeps it from pausing the target for its 30 s cool-down.
 */
export async function startTicketingStandIn(options: { failFirst: number }): Promise<TicketingStandIn> {
  const requests: TicketingRequest[] = [];
  let tickets = 0;
  const server = createServer((request, response) => {
    void readRequestBody(request).then((body) => {
      const down = requests.length < options.failFirst;
      const ticket = down ? null : `TCK-${++tickets}`;
      const status = down ? 503 : 201;
      requests.push({
        method: request.method ?? '',
        path: request.url ?? '',
        status,
        body: body.toString('utf8'),
        ticket,
      });
      response.writeHead(status, { 'content-type': 'application/json', ...(down ? { 'retry-after': '1' } : {}) });
      response.end(JSON.stringify(down ? { error: 'maintenance in progress' } : { id: ticket }));
    });
  });
  const port = await listenOnLoopback(server);
  return { url: `http://127.0.0.1:${port}`, requests, close: () => closeHttpServer(server) };
}
