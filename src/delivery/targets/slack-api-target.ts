import { LogLevel, WebAPIRequestError, WebClient, type Logger as SlackLogger } from '@slack/web-api';
import type { SlackTargetSpec } from '../../rules/rules.js';
import { classifyNetworkError } from '../classify-network-error.js';
import { classifySlackApiAnswer, slackApiErrorCode } from '../classify-slack-api-answer.js';
import { createHttpSender, type HttpAnswer, type HttpSender } from '../http/create-http-sender.js';
import { responseExcerpt } from '../http/response-excerpt.js';
import type { Outcome } from '../outcome.js';
import { parseRetryAfter } from '../parse-retry-after.js';
import type { DeliveryJob, Target, TargetDeps } from '../target.js';
import { buildSlackApiCalls, type SlackApiCall } from './build-slack-api-calls.js';
import { renderFailure } from './render-failure.js';
import { senderFetch } from './sender-fetch.js';

/** Answers saying the remembered thread parent is gone (deleted by someone): start a new thread instead. */
const PARENT_GONE: ReadonlySet<string> = new Set(['message_not_found', 'thread_not_found']);

type CallResult =
  | { readonly ok: true; readonly body: Record<string, unknown> }
  | { readonly ok: false; readonly outcome: Outcome; readonly code?: string };

/**
 * Slack's Web API with a bot token (issue 14): a thread per correlation key (build-slack-api-calls.ts), through
 * @slack/web-api's WebClient with its retries and rate-limit waits off (the engine alone retries and paces) and
 * our sender underneath as its `fetch` (address guard, keep-alive, timeout, the attempt's signal). The token
 * travels in the Authorization header only and never appears in an outcome (the engine also masks it).
 */
export function createSlackApiTarget(spec: SlackTargetSpec, deps: TargetDeps): Target {
  const sender = createHttpSender({
    timeoutMs: spec.policy.timeoutMs,
    allowLinkLocal: spec.allowLinkLocal,
    lookup: deps.lookup,
  });
  const validUrl = URL.canParse(spec.baseUrl);

  return {
    async send(job, signal): Promise<Outcome> {
      if (!validUrl) return { kind: 'permanent', error: 'the base_url is not a valid URL' };
      let calls: SlackApiCall[];
      try {
        calls = buildSlackApiCalls(spec, job);
      } catch (error) {
        return renderFailure(error, 'the Slack message');
      }
      const result = await runCalls(calls, signal);
      if (result.ok || result.code === undefined || !PARENT_GONE.has(result.code)) {
        return result.ok ? delivered(job, calls, result.body) : result.outcome;
      }
      // The thread's parent was deleted (by someone in Slack): the event is posted as a new parent, since the
      // thread it would have joined is gone, and its ts remembered so later updates thread under it.
      const fresh: DeliveryJob = { ...job, references: null };
      const again = buildSlackApiCalls(spec, fresh);
      const retried = await runCalls(again, signal);
      return retried.ok ? delivered(fresh, again, retried.body) : retried.outcome;
    },
    async close() {
      sender.close();
    },
  };

  /** The calls in order, stopping at the first failure; the first call's answer when all succeed. */
  async function runCalls(calls: readonly SlackApiCall[], signal: AbortSignal): Promise<CallResult> {
    let first: CallResult | undefined;
    for (const made of calls) {
      const result = await callSlack(spec, sender, signal, made);
      if (!result.ok) return result;
      first ??= result;
    }
    return first ?? { ok: true, body: {} };
  }
}

/** Delivered, remembering the new parent's `ts` and channel id (as Slack answered it), and the severity shown. */
function delivered(job: DeliveryJob, calls: readonly SlackApiCall[], first: Record<string, unknown>): Outcome {
  const startsThread = calls[0]?.method === 'chat.postMessage' && calls[0].args['thread_ts'] === undefined;
  const severity: Record<string, string> = job.event.severity === null ? {} : { severity: job.event.severity };
  const { ts, channel } = first;
  const captured: Record<string, string> = { ...severity };
  if (startsThread && typeof ts === 'string' && typeof channel === 'string') Object.assign(captured, { ts, channel });
  const detail = calls.map((made) => made.method).join(', ');
  return { kind: 'delivered', status: 200, detail: `ok (${detail})`, captured };
}

async function callSlack(
  spec: SlackTargetSpec,
  sender: HttpSender,
  signal: AbortSignal,
  made: SlackApiCall,
): Promise<CallResult> {
  // A client per call (a few fields, no connections: those live in the sender) so the fetch hands back this
  // call's whole answer: the library's errors drop the Retry-After of a ratelimited answer's HTTP date form.
  let answer: HttpAnswer | undefined;
  const client = new WebClient(spec.token ?? '', {
    slackApiUrl: spec.baseUrl,
    allowAbsoluteUrls: false,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    logger: SILENT,
    fetch: senderFetch(sender, signal, (seen) => (answer = seen)),
  });
  try {
    const body = await client.apiCall(made.method, { ...made.args });
    return { ok: true, body: body as unknown as Record<string, unknown> };
  } catch (error) {
    if (answer === undefined) {
      return { ok: false, outcome: classifyNetworkError(error instanceof WebAPIRequestError ? error.original : error) };
    }
    const text = responseExcerpt(answer.body);
    const retryAfterMs = parseRetryAfter(answer.headers['retry-after'], Date.now());
    const code = slackApiErrorCode(text);
    return {
      ok: false,
      outcome: classifySlackApiAnswer(answer.status, text, retryAfterMs),
      ...(code === undefined ? {} : { code }),
    };
  }
}

/** The library logs request failures itself; ours go through outcomes, where secrets are masked. */
const SILENT: SlackLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  setLevel() {},
  getLevel: () => LogLevel.ERROR,
  setName() {},
};
