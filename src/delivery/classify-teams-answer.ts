import { classifyHttpStatus } from './classify-http-status.js';
import type { Outcome } from './outcome.js';

/** What a refusal usually means for the operator, by status; the answer's own error code is shown with it. */
const HINTS: Readonly<Record<number, string>> = {
  400: 'the workflow refused the payload; check the target message template',
  401: 'the webhook URL was refused (its sig is wrong or was regenerated); copy it again from the workflow',
  403: 'the webhook URL was refused (the workflow is off or may not be called); check the workflow',
  404: 'no such workflow (deleted, or the URL is mistyped)',
};

/**
 * A Teams Workflows webhook answer as an outcome. The trigger ("When a Teams webhook request is received")
 * answers 202 Accepted once the workflow run is queued (200 for some), with an empty body; errors come from
 * Power Automate as `{"error": {"code": "...", "message": "..."}}`. The status decides: 400, 401, 403 and 404
 * are permanent (the payload or the webhook is wrong, and a retry sends the same), 408, 429 and 5xx are
 * retried (classifyHttpStatus). The answer is kept whole: the engine cuts it after masking secrets.
 */
export function classifyTeamsAnswer(status: number, bodyText: string, retryAfterMs: number | undefined): Outcome {
  const answer = bodyText.trim();
  if (status >= 200 && status < 300) return { kind: 'delivered', status, detail: answer || undefined };
  const said = [readError(answer), HINTS[status] === undefined ? '' : `(${HINTS[status]})`];
  const outcome = classifyHttpStatus(status, retryAfterMs, said.filter((part) => part !== '').join(' '));
  return outcome.kind === 'delivered' ? outcome : { ...outcome, error: `Teams answered ${outcome.error}` };
}

/** `code: message` from a Power Automate error object, else the answer as it came. */
function readError(answer: string): string {
  try {
    const error = (JSON.parse(answer) as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    if (typeof error?.code === 'string') {
      return typeof error.message === 'string' ? `${error.code}: ${error.message}` : error.code;
    }
  } catch {
    // Not JSON (a proxy's HTML page): shown as it came.
  }
  return answer;
}
