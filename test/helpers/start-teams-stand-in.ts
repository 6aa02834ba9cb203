import { startHttpReceiver, type HttpReceiver, type ScriptedAnswer } from './start-http-receiver.js';

/**
 * Teams' limits and the payload shape a "When a Teams webhook request is received" workflow posts, written
 * out here rather than imported, so the stand-in judges the code against the docs and not against itself:
 * https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/add-incoming-webhook
 * (Workflows take Adaptive Cards only; a message over 28 KB is refused).
 */
const ADAPTIVE = 'application/vnd.microsoft.card.adaptive';
const MAX_BYTES = 28 * 1024;

function refuse(status: number, code: string, message: string): ScriptedAnswer {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ error: { code, message } }),
  };
}

function shapeProblem(payload: unknown): string | undefined {
  const message = payload as { type?: unknown; attachments?: unknown } | null;
  if (message?.type !== 'message') return "'type' must be 'message'";
  if (!Array.isArray(message.attachments) || message.attachments.length === 0) return "'attachments' is empty";
  for (const attachment of message.attachments as { contentType?: unknown; content?: unknown }[]) {
    if (attachment?.contentType !== ADAPTIVE) return `'contentType' must be '${ADAPTIVE}'`;
    const card = attachment.content as { type?: unknown; body?: unknown } | null;
    if (card?.type !== 'AdaptiveCard' || !Array.isArray(card.body)) return "'content' is not an Adaptive Card";
  }
  return undefined;
}

/**
 * What the workflow would answer this body: undefined for `202 Accepted` with no body. A payload that is not
 * a message of Adaptive Cards gets Power Automate's schema error. Over 28 KB, the real service accepts the
 * call and the workflow run then fails ("Request Entity too large"), so the message is lost silently; the
 * stand-in refuses it outright, so a test sees it.
 */
export function judgeTeamsMessage(body: Buffer): ScriptedAnswer | undefined {
  if (body.length > MAX_BYTES) return refuse(413, 'RequestEntityTooLarge', 'Request Entity too large');
  let payload: unknown;
  try {
    payload = JSON.parse(body.toString('utf8'));
  } catch {
    return refuse(400, 'InvalidRequestContent', 'The request content is not valid and could not be deserialized.');
  }
  const problem = shapeProblem(payload);
  if (problem === undefined) return undefined;
  return refuse(
    400,
    'TriggerInputSchemaMismatch',
    `The input body for trigger 'manual' of type 'Request' did not match its schema definition: ${problem}.`,
  );
}

/** A local stand-in for a Teams Workflows webhook (the workflow's HTTP POST URL). */
export function startTeamsStandIn(): Promise<HttpReceiver> {
  return startHttpReceiver({
    default: { status: 202, body: '' },
    judge: (request) => judgeTeamsMessage(request.body),
  });
}
