import { redactDetail } from '../delivery/redact-detail.js';
import { SwitchyardError } from '../switchyard-error.js';
import { readErrorMessage } from './read-error-message.js';
import type { UpstreamAnswer } from './upstream-request.js';

/** What a status means, said once for every call; callers add what to do about it. */
const MEANINGS: Readonly<Record<number, string>> = {
  400: 'the request was refused as malformed',
  401: 'the credentials were refused',
  403: 'the credentials are not allowed to do this',
  404: 'no such endpoint: is the base URL right?',
  409: 'it conflicts with what the service already has',
  422: 'the service refused the values sent',
  429: 'too many requests: try again later',
};

/**
 * An unsuccessful answer as an error: what was attempted, the status and its meaning, a hint from the caller
 * for that status, and the service's own message, with `secrets` masked and URLs cut to scheme and host.
 * 4xx and redirects are `upstream_refused`, 5xx `upstream_failed`.
 */
export function upstreamFailure(
  what: string,
  answer: UpstreamAnswer,
  secrets: readonly string[],
  hints: Readonly<Partial<Record<number, string>>> = {},
): SwitchyardError {
  const { status } = answer;
  let meaning = MEANINGS[status];
  if (status >= 300 && status < 400) {
    meaning = `the service redirects${answer.location === undefined ? '' : ` to ${answer.location}`}; give that URL as --base-url (credentials are not sent on to a redirect)`;
  } else if (status >= 500) {
    meaning = 'the service failed: nothing was changed here; try again later';
  }
  const said = redactDetail(readErrorMessage(answer.text), secrets);
  const parts = [`${what}: ${status}${meaning === undefined ? '' : ` (${meaning})`}`];
  if (said !== '') parts.push(`the service says: ${said}`);
  const hint = hints[status];
  if (hint !== undefined) parts.push(hint);
  return new SwitchyardError(status >= 500 ? 'upstream_failed' : 'upstream_refused', parts.join('; '), { status });
}
