import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** How the receiver answers one request. */
export interface ScriptedAnswer {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  /** Wait this long before answering (a slow receiver). */
  readonly delayMs?: number;
  /** Close the connection without any answer. */
  readonly hangUp?: boolean;
}

/** A JSON answer, as the APIs the stand-ins play send them. */
export function jsonAnswer(status: number, body: unknown, contentType = 'application/json'): ScriptedAnswer {
  return { status, headers: { 'content-type': contentType }, body: JSON.stringify(body) };
}

export interface ReceivedRequest {
  readonly method: string;
  /** Path and query. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  /** 1-based number of the TCP connection it came on: equal numbers mean a reused (keep-alive) connection. */
  readonly connection: number;
  /** Date.now() when its headers arrived: lets a test bound when a request was sent, not when it was polled. */
  readonly receivedAt: number;
}

export interface HttpReceiver {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Every request, in arrival order (recorded once its body is read, before it is answered). */
  readonly requests: ReceivedRequest[];
  /** Queues answers for the next requests, in order; once used up, the default answer applies. */
  script(...answers: ScriptedAnswer[]): void;
  /** The answer once the queue is empty; `200 ok` unless set. */
  setDefault(answer: ScriptedAnswer): void;
  /** Resolves once `count` requests have arrived. */
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/**
 * A real HTTP server on a free loopback port that records what it receives and answers from a script:
 * for targets (Slack, ticketing APIs) and for the delivery engine's end-to-end tests.
 */
export async function startHttpReceiver(
  options: {
    answers?: readonly ScriptedAnswer[];
    default?: ScriptedAnswer;
    /** Answers from what was received, once the queue is empty (undefined: the default answer): a validating stand-in. */
    judge?: (request: ReceivedRequest) => ScriptedAnswer | undefined;
  } = {},
): Promise<HttpReceiver> {
  const queue: ScriptedAnswer[] = [...(options.answers ?? [])];
  let fallback: ScriptedAnswer = options.default ?? { status: 200, body: 'ok' };
  const requests: ReceivedRequest[] = [];
  const waiters: (() => void)[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const connections = new WeakMap<Socket, number>();
  let connectionCount = 0;

  const server = createServer((request, response) => {
    const receivedAt = Date.now();
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received: ReceivedRequest = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
        connection: connections.get(request.socket) ?? 0,
        receivedAt,
      };
      requests.push(received);
      for (const wake of waiters.splice(0)) wake();
      const answer = queue.shift() ?? options.judge?.(received) ?? fallback;
      if (!answer.delayMs) return respond(response, answer);
      const timer = setTimeout(() => {
        timers.delete(timer);
        respond(response, answer);
      }, answer.delayMs);
      timers.add(timer);
    });
  });
  server.on('connection', (socket: Socket) => connections.set(socket, ++connectionCount));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    script: (...answers) => void queue.push(...answers),
    setDefault: (answer) => void (fallback = answer),
    async waitForRequests(count, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} requests, got ${requests.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return requests;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function respond(response: ServerResponse, answer: ScriptedAnswer): void {
  if (answer.hangUp) return void response.socket?.destroy();
  if (response.destroyed) return;
  response.writeHead(answer.status ?? 200, { 'content-type': 'text/plain', ...answer.headers });
  response.end(answer.body ?? '');
}
