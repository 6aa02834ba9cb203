import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DeduplicatingReceiver {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Idempotency keys of every request, in arrival order. */
  readonly keys: string[];
  /** The keys it processed (first 2xx per key), in order; a repeated key is answered 200 but dropped. */
  readonly accepted: string[];
  close(): Promise<void>;
}

/**
 * A real receiver that behaves like common webhook APIs: it drops a request whose `Idempotency-Key` it already
 * processed (answering 200, as Stripe does), and with `refuseNewOnce` it answers 429 the first time it sees a
 * key (optionally with `Retry-After`), as a rate limiter that admits each new request only on its second try.
 */
export async function startDeduplicatingReceiver(
  options: { refuseNewOnce?: { retryAfter?: string } } = {},
): Promise<DeduplicatingReceiver> {
  const keys: string[] = [];
  const accepted: string[] = [];
  const seen = new Set<string>();
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const key = String(request.headers['idempotency-key'] ?? '');
      keys.push(key);
      if (options.refuseNewOnce !== undefined && !seen.has(key)) {
        seen.add(key);
        const retryAfter = options.refuseNewOnce.retryAfter;
        response.writeHead(429, retryAfter === undefined ? {} : { 'retry-after': retryAfter });
        response.end('slow down');
        return;
      }
      seen.add(key);
      const duplicate = accepted.includes(key);
      if (!duplicate) accepted.push(key);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ duplicate }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    keys,
    accepted,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
