import { SwitchyardError } from '../switchyard-error.js';
import { certificateProblem } from './certificate-problem.js';
import type { Outcome } from './outcome.js';

/** Failures that retrying cannot fix: our own refusals and requests that cannot even be built. */
const PERMANENT_CODES: ReadonlySet<string> = new Set([
  // The link-local / cloud-metadata guard. Permanent: the address is refused by configuration, and a retry
  // would only re-resolve the same name (or hand a DNS-rebinding attacker more tries). Fix the target or set
  // `allow_link_local`, then `switchyard replay` the dead letter.
  'address_refused',
  'invalid_url',
  'ERR_INVALID_URL',
  'ERR_INVALID_PROTOCOL',
  'ERR_INVALID_CHAR',
  'ERR_INVALID_HTTP_TOKEN',
]);

/** Short readings of the usual socket and DNS errors; Node's own messages name hosts and ports. */
const DESCRIPTIONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the receiver',
  EPIPE: 'connection closed by the receiver while sending',
  ETIMEDOUT: 'connection timed out',
  ENOTFOUND: 'host name not found (DNS)',
  EAI_AGAIN: 'temporary DNS failure',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'connection closed by the receiver',
};

/**
 * A request that got no HTTP answer, as an outcome: network errors, DNS failures, timeouts, TLS problems
 * (a receiver fixes its certificate) and shutdown aborts are retried; the guard's refusal, an invalid URL and
 * an unbuildable request are permanent. Messages name the failure, never the URL. With `caOption` (the target
 * can be given a CA: `http`), a certificate that is not trusted or names another host is permanent too, with
 * what to do (certificate-problem.ts).
 */
export function classifyNetworkError(error: unknown, caOption?: string): Outcome {
  const code = errorCode(error);
  const message = error instanceof SwitchyardError ? error.message : describe(code, error);
  if (code !== undefined && PERMANENT_CODES.has(code)) return { kind: 'permanent', error: message };
  const certificate = caOption === undefined ? null : certificateProblem(error, caOption);
  if (certificate !== null) {
    return { kind: certificate.lasting ? 'permanent' : 'retry', error: `${message}; ${certificate.hint}` };
  }
  return { kind: 'retry', error: message };
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

function describe(code: string | undefined, error: unknown): string {
  if (code !== undefined && DESCRIPTIONS[code] !== undefined) return `${DESCRIPTIONS[code]} (${code})`;
  if (code === 'ERR_INVALID_URL') return 'the target URL is not a valid URL';
  const message = error instanceof Error ? error.message : String(error);
  return code === undefined ? message : `${code}: ${message}`;
}
