import { certificateProblem } from './certificate-problem.js';
import type { Outcome } from './outcome.js';
import { redactDetail } from './redact-detail.js';

/**
 * Failures without a reply code that only an operator can fix (credentials, our own configuration or
 * message): retrying gets the same answer, so they are dead-lettered at once and replayed after the fix.
 */
const CONFIG_CODES = new Set([
  'EAUTH',
  'ENOAUTH',
  'EOAUTH2',
  'ECONFIG',
  'EENVELOPE',
  'EMESSAGE',
  'ESTREAM',
  'EMAXRECIPIENTS',
  'EREQUIRETLS',
  // The link-local/metadata guard (see classify-network-error.ts for why it is permanent).
  'address_refused',
]);

/**
 * Turns a nodemailer failure into an outcome. The reply code decides when there is one (RFC 5321 §4.2.1:
 * 4yz transient, 5yz permanent). 503 "bad sequence of commands" is permanent too, although nodemailer's
 * `isPermanentResponseCode` excepts it: RFC 5321 puts it among the 5yz replies after which "the SMTP client
 * SHOULD NOT repeat the exact request (in the same sequence)", and a retry would replay the same sequence
 * from the same client; servers also use it for configuration mismatches (Postfix's "503 5.5.1 Error:
 * authentication not enabled"), which no retry fixes. So `requireTls` against a server that does not offer
 * STARTTLS is permanent (it answers STARTTLS with 5yz: a configuration mismatch), and RFC 3207's 454 "TLS not
 * available for a temporary reason" retries. Without a reply code, the error code decides: missing credentials and
 * unbuildable messages are permanent; network trouble, timeouts and TLS handshake failures (an expired
 * certificate, renewed at the server) retry, as the HTTP target treats them, and so does anything
 * unknown (the retry policy bounds it). A certificate that is not trusted or names another host is permanent:
 * configuration, ours (`smtp.ca`) or the server's; the error says what to do (certificate-problem.ts).
 * `secrets` (SMTP password, credentials) are masked in the excerpt, also in the base64 forms AUTH sends.
 */
export function classifySmtpError(error: unknown, secrets: readonly string[]): Outcome {
  const { code, responseCode, message } = readError(error);
  const excerpt = redactDetail(message, secrets);
  if (responseCode !== undefined && responseCode >= 400 && responseCode < 600) {
    return responseCode < 500
      ? { kind: 'retry', status: responseCode, error: excerpt }
      : { kind: 'permanent', status: responseCode, error: excerpt };
  }
  if (code !== undefined && CONFIG_CODES.has(code)) return { kind: 'permanent', error: excerpt };
  const certificate = certificateProblem(error, 'smtp.ca');
  if (certificate !== null) {
    return { kind: certificate.lasting ? 'permanent' : 'retry', error: `${excerpt}; ${certificate.hint}` };
  }
  // ECONNECTION, ETIMEDOUT (connect, greeting, socket), ESOCKET (ECONNREFUSED, ...), EDNS, ETLS, EPROTOCOL, ...
  return { kind: 'retry', error: excerpt };
}

function readError(error: unknown): { code?: string; responseCode?: number; message: string } {
  if (typeof error !== 'object' || error === null) return { message: String(error) };
  const record = error as { code?: unknown; originalCode?: unknown; responseCode?: unknown; message?: unknown };
  const code = typeof record.code === 'string' ? record.code : undefined;
  const original = typeof record.originalCode === 'string' ? record.originalCode : undefined;
  const responseCode = typeof record.responseCode === 'number' ? record.responseCode : undefined;
  const text = typeof record.message === 'string' && record.message !== '' ? reword(record.message) : 'SMTP error';
  // nodemailer replaces a system code (ECONNREFUSED) with its own (ESOCKET) and keeps the first as originalCode.
  const label = [code, original].filter((part) => part !== undefined).join('/');
  return { code, responseCode, message: label === '' ? text : `${label}: ${text}` };
}

/** The pool says "retries" where, with `maxRequeues: 0`, it made none: name what happened instead. */
function reword(message: string): string {
  return message.startsWith('Reached maximum number of retries after connection was closed')
    ? 'connection closed by the server before the message was accepted'
    : message;
}
