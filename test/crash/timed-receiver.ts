import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/** One request as the target saw it: when it started and ended, and how (or whether) it was answered. */
export interface TimedRequest {
  /** The `Idempotency-Key` header: the delivery id. */
  readonly key: string;
  /** Path: the crash tests give each instance its own path, so it names the sender. */
  readonly path: string;
  /** `data.incident_id` of the forwarded envelope ('' until the body is read). */
  incident: string;
  readonly start: number;
  /** When it was answered or its connection closed; undefined while in flight. */
  end: number | undefined;
  /**
   * The status written, or undefined when the connection was gone first. A sender killed while it waits
   * usually still shows the status here: the answer goes into the socket of a peer that is gone.
   */
  status: number | undefined;
}

export interface TimedReceiver {
  readonly url: string;
  readonly requests: TimedRequest[];
  /** Status for the requests that arrive from now on. */
  answer(status: number): void;
  /** Resolves as soon as a request matching `check` arrives (before it is answered). */
  nextRequest(check: (request: TimedRequest) => boolean): Promise<TimedRequest>;
  /** Resolves once `check(requests)` holds; polls every 50 ms. */
  waitFor(check: (requests: readonly TimedRequest[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** A slow HTTP target recording start and end times (performance.now) of every request. */
export async function startTimedReceiver(options: { delayMs: number; status?: number }): Promise<TimedReceiver> {
  const requests: TimedRequest[] = [];
  const watchers: { check: (request: TimedRequest) => boolean; resolve: (request: TimedRequest) => void }[] = [];
  let status = options.status ?? 200;
  const server: Server = createServer((request, response) => {
    const record: TimedRequest = {
      key: String(request.headers['idempotency-key'] ?? ''),
      path: request.url ?? '',
      incident: '',
      start: performance.now(),
      end: undefined,
      status: undefined,
    };
    requests.push(record);
    for (const watcher of [...watchers]) {
      if (!watcher.check(record)) continue;
      watchers.splice(watchers.indexOf(watcher), 1);
      watcher.resolve(record);
    }
    const answerWith = status;
    response.on('close', () => (record.end ??= performance.now()));
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { incident_id?: string } };
        record.incident = body.data?.incident_id ?? '';
      } catch {
        record.incident = '(unparsable)';
      }
      setTimeout(() => {
        if (response.destroyed) return;
        response.writeHead(answerWith, { 'content-type': 'text/plain' });
        response.end('ok', () => {
          record.status = answerWith;
          record.end = performance.now();
        });
      }, options.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    answer: (next) => void (status = next),
    nextRequest: (check) => new Promise((resolve) => watchers.push({ check, resolve })),
    async waitFor(check, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (!check(requests)) {
        if (Date.now() > deadline) throw new Error(`receiver: condition not met after ${requests.length} requests`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
