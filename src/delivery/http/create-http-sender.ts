import { lookup as dnsLookup } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { SwitchyardError } from '../../switchyard-error.js';
import { addressRefused } from './address-refused.js';
import { createAddressGuard } from './create-address-guard.js';
import { guardLookup } from './guard-lookup.js';

/** Enough of an answer for the attempt record (Slack says `ok`, APIs a short JSON error). */
export const EXCERPT_BYTES = 4096;
/**
 * The most of an answer that is read: what `capture:` may keep (an answer repeating a whole ticket is several
 * KiB); beyond it the rest is not worth draining, and the socket is dropped instead of reused.
 */
export const ANSWER_BOUND_BYTES = 1024 * 1024;
/** How a write to a connection the other end has closed fails. */
const STALE_CODES = new Set(['ECONNRESET', 'EPIPE']);

export interface HttpSenderOptions {
  /** Per attempt, from the first byte sent (DNS and connect included) to the end of the answer. */
  readonly timeoutMs: number;
  /** Disables the link-local / cloud-metadata guard. */
  readonly allowLinkLocal: boolean;
  /** Default `dns.lookup`. */
  readonly lookup?: LookupFunction | undefined;
  /** PEM certificates trusted for https:// instead of the public roots. */
  readonly ca?: string | undefined;
}

export interface OutboundRequest {
  readonly url: URL;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** Aborts the attempt (shutdown deadline). */
  readonly signal: AbortSignal;
  /** How much of the answer's body to keep: `EXCERPT_BYTES` unless the caller reads more (captures). */
  readonly keepBytes?: number | undefined;
}

export interface HttpAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The first bytes of the body, at most `keepBytes`; the rest was read and discarded, or not read. */
  readonly body: Buffer;
  /** True when the body went on beyond what was kept. */
  readonly cut: boolean;
}

/** One target's outbound HTTP: its own keep-alive connections, the address guard, a per-attempt timeout. */
export interface HttpSender {
  /** Resolves with any HTTP answer (redirects are not followed); rejects when there is none. */
  send(request: OutboundRequest): Promise<HttpAnswer>;
  /** Closes pooled connections; later sends reject. */
  close(): void;
}

export function createHttpSender(options: HttpSenderOptions): HttpSender {
  const isRefused = options.allowLinkLocal ? () => false : createAddressGuard();
  const lookup = guardLookup(options.lookup ?? (dnsLookup as LookupFunction), isRefused);
  // One pool per target, so a slow receiver cannot hold connections another target needs.
  const agents = {
    http: new HttpAgent({ keepAlive: true, lookup }),
    https: new HttpsAgent({ keepAlive: true, lookup, ...(options.ca === undefined ? {} : { ca: options.ca }) }),
  };
  let closed = false;

  function send(request: OutboundRequest): Promise<HttpAnswer> {
    const { url, signal } = request;
    if (closed) return Promise.reject(new SwitchyardError('target_closed', 'the target is shut down'));
    if (signal.aborted) return Promise.reject(aborted());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return Promise.reject(new SwitchyardError('invalid_url', `unsupported URL scheme ${url.protocol}`));
    }
    // Node does not call `lookup` for an IP literal, so the guard looks at those itself.
    const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(literal) !== 0 && isRefused(literal)) return Promise.reject(addressRefused(literal));

    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (finish: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        finish();
      };
      // Set once the status line is in: from then on the receiver has decided, and a timeout, an abort or a
      // body cut short ends the attempt with that answer rather than an error.
      let answered: (() => HttpAnswer) | undefined;
      const fail = (error: unknown): void =>
        settle(() => {
          outgoing?.destroy();
          if (answered) resolve(answered());
          else reject(error);
        });
      const onAbort = (): void => fail(aborted());
      const timer = setTimeout(
        () => fail(new SwitchyardError('attempt_timeout', `no answer within ${options.timeoutMs} ms`)),
        options.timeoutMs,
      );
      signal.addEventListener('abort', onAbort, { once: true });

      let outgoing: ClientRequest | undefined;
      // `fresh`: on a connection of its own, outside the pool (the retry below).
      const start = (fresh: boolean): void => {
        let sent: ClientRequest;
        try {
          // Throws at once on a header value Node refuses (e.g. a newline from a misconfigured `${VAR}`).
          sent = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
            method: request.method,
            headers: { ...request.headers, 'content-length': String(request.body.length) },
            agent: fresh ? false : url.protocol === 'https:' ? agents.https : agents.http,
            lookup,
          });
        } catch (error) {
          fail(error);
          return;
        }
        outgoing = sent;
        sent.on('error', (error: NodeJS.ErrnoException) => {
          // A pooled connection that the receiver closed while it sat idle (its keep-alive timeout ran out as the
          // request went, or our expiry of it was late): reset before any answer, so the request was never read.
          // It goes once more, on a new connection, as Node's documentation advises.
          // https://nodejs.org/api/http.html#requestreusedsocket
          const stale = sent.reusedSocket && answered === undefined && STALE_CODES.has(error.code ?? '');
          if (stale && !fresh && !settled && !signal.aborted) start(true);
          else fail(error);
        });
        sent.on('response', (incoming) => {
          const kept: Buffer[] = [];
          const keep = Math.min(request.keepBytes ?? EXCERPT_BYTES, ANSWER_BOUND_BYTES);
          let keptBytes = 0;
          let seenBytes = 0;
          const answer = (): HttpAnswer => ({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            body: Buffer.concat(kept, keptBytes),
            cut: seenBytes > keptBytes,
          });
          answered = answer;
          incoming.on('data', (chunk: Buffer) => {
            seenBytes += chunk.length;
            if (keptBytes < keep) {
              const piece = chunk.subarray(0, keep - keptBytes);
              kept.push(piece);
              keptBytes += piece.length;
            }
            if (seenBytes > ANSWER_BOUND_BYTES) fail(undefined);
          });
          incoming.on('end', () => settle(() => resolve(answer())));
          incoming.on('error', fail);
        });
        sent.end(request.body);
      };
      start(false);
    });
  }

  return {
    send,
    close() {
      closed = true;
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

function aborted(): SwitchyardError {
  return new SwitchyardError('attempt_aborted', 'the attempt was cancelled (shutting down)');
}
