import { classifyNetworkError } from '../delivery/classify-network-error.js';
import { redactDetail } from '../delivery/redact-detail.js';
import { SwitchyardError } from '../switchyard-error.js';

/** Enough for any error message or token answer; a long agent list is not read to its end. */
const BODY_LIMIT = 64 * 1024;
const DEFAULT_TIMEOUT_MS = 10_000;

export interface UpstreamRequest {
  readonly method: 'GET' | 'POST';
  /** Appended to the base URL's path: `/v1/webhooks`. */
  readonly path: string;
  readonly bearer?: string | undefined;
  readonly json?: unknown;
  /** Values no message may show (the bearer is always among them). */
  readonly secrets?: readonly string[];
  readonly timeoutMs?: number;
}

export interface UpstreamAnswer {
  readonly status: number;
  /** The body's first 64 KiB. */
  readonly text: string;
  /** For a redirect: where it pointed, cut to scheme and host. */
  readonly location: string | undefined;
}

/**
 * One request to the monitoring service; resolves with any HTTP answer. Redirects are not followed
 * (`redirect: 'manual'`): a redirect would carry the credentials to wherever it points, so the operator is
 * told to give the final URL instead. Rejects with `upstream_unreachable` when there is no answer, with a
 * message that names the service by scheme and host only and never shows a credential.
 */
export async function upstreamRequest(baseUrl: URL, request: UpstreamRequest): Promise<UpstreamAnswer> {
  // The path is set on a copy of the base, never resolved against it: a base path starting with `//` would
  // otherwise be read as another host, and the credentials would go there.
  const url = new URL(baseUrl.href);
  url.pathname = `${baseUrl.pathname.replace(/\/+$/, '')}${request.path}`;
  url.search = '';
  url.hash = '';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (request.bearer !== undefined) headers.authorization = `Bearer ${request.bearer}`;
  if (request.json !== undefined) headers['content-type'] = 'application/json';
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const secrets = [...(request.secrets ?? []), ...(request.bearer === undefined ? [] : [request.bearer])];
  try {
    const response = await fetch(url, {
      method: request.method,
      headers,
      ...(request.json === undefined ? {} : { body: JSON.stringify(request.json) }),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const location = response.headers.get('location');
    return {
      status: response.status,
      text: await readCapped(response),
      // The origin only: no user, path or query, where a redirect could carry a token.
      location: location === null || !URL.canParse(location, url.href) ? undefined : new URL(location, url).origin,
    };
  } catch (error) {
    const reason =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms`
        : describeFailure(error);
    throw new SwitchyardError(
      'upstream_unreachable',
      `cannot reach ${baseUrl.origin}: ${redactDetail(reason, secrets)}`,
    );
  }
}

/** fetch rejects with `TypeError: fetch failed` and the socket, DNS or TLS error as its cause. */
function describeFailure(error: unknown): string {
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  const outcome = classifyNetworkError(cause);
  return outcome.kind === 'delivered' ? 'no answer' : outcome.error;
}

async function readCapped(response: Response): Promise<string> {
  if (response.body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Leaving the loop early cancels the rest of the stream.
  for await (const chunk of response.body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= BODY_LIMIT) break;
  }
  return Buffer.concat(chunks).subarray(0, BODY_LIMIT).toString('utf8');
}
