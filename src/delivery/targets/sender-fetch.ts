import type { FetchFunction } from '@slack/webhook';
import { STATUS_CODES } from 'node:http';
import type { HttpAnswer, HttpSender } from '../http/create-http-sender.js';

type FetchResponse = Awaited<ReturnType<FetchFunction>>;

/**
 * A `fetch` for @slack/webhook and @slack/web-api (the same shape) built on our sender, so Slack requests get
 * the address guard, keep-alive and the attempt's abort signal, and so the caller sees the whole answer: the
 * libraries' errors carry the status and body but not `Retry-After` (or only its seconds form). The library's
 * own timeout signal is not needed: the sender enforces the same timeout.
 */
export function senderFetch(
  sender: HttpSender,
  signal: AbortSignal,
  seen: (answer: HttpAnswer) => void,
): FetchFunction {
  return async (url, init) => {
    const body = typeof init?.body === 'string' ? init.body : '';
    const answer = await sender.send({
      url: new URL(url),
      method: init?.method ?? 'POST',
      headers: init?.headers ?? {},
      body: Buffer.from(body, 'utf8'),
      signal,
    });
    seen(answer);
    return toFetchResponse(answer, String(url));
  };
}

function toFetchResponse(answer: HttpAnswer, url: string): FetchResponse {
  const text = answer.body.toString('utf8');
  const header = (name: string): string | null => {
    const value = answer.headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  };
  return {
    ok: answer.status >= 200 && answer.status < 300,
    status: answer.status,
    statusText: STATUS_CODES[answer.status] ?? '',
    url,
    headers: {
      get: header,
      entries: () => Object.keys(answer.headers).map((name): [string, string] => [name, header(name) ?? '']),
    },
    arrayBuffer: async () => new Uint8Array(answer.body).buffer,
    json: async (): Promise<unknown> => JSON.parse(text),
    text: async () => text,
  };
}
