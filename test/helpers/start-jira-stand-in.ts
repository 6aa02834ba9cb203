import {
  jsonAnswer,
  startHttpReceiver,
  type HttpReceiver,
  type ReceivedRequest,
  type ScriptedAnswer,
} from './start-http-receiver.js';

/** One issue as the stand-in keeps it. */
export interface JiraIssue {
  readonly key: string;
  readonly summary: string;
  readonly comments: string[];
  /** The ids of the transitions made, in order. */
  readonly transitions: string[];
}

export interface JiraStandInOptions {
  readonly project?: string;
  /**
   * Answer a request whose `Idempotency-Key` was answered before with that first answer, changing nothing, as
   * well-behaved APIs do (https://docs.stripe.com/api/idempotent_requests). Answers given while down are not kept.
   */
  readonly honourIdempotencyKey?: boolean;
  /** Wait this long before every answer (the work is done at once): a sender can die while it waits. */
  readonly delayMs?: number;
}

export interface JiraStandIn extends HttpReceiver {
  /** Issues by key, in creation order. */
  readonly issues: Map<string, JiraIssue>;
  /** Requests answered with an earlier answer because their `Idempotency-Key` was seen (honourIdempotencyKey). */
  readonly replayed: ReceivedRequest[];
  /** While set, every request gets this answer and changes nothing (the service down); undefined: up again. */
  setOutage(answer: ScriptedAnswer | undefined): void;
}

const json = (status: number, body: unknown) => jsonAnswer(status, body, 'application/json;charset=UTF-8');
/** Jira's answer for an issue it does not have (or may not show). */
const NOT_FOUND = json(404, {
  errorMessages: ['Issue does not exist or you do not have permission to see it.'],
  errors: {},
});
const ISSUE_PATH = /^\/rest\/api\/2\/issue\/([^/]+)\/(comment|transitions)$/;

/**
 * A local stand-in for Jira's REST API v2, answering as its docs say
 * (https://developer.atlassian.com/cloud/jira/platform/rest/v2/api-group-issues/): `POST /rest/api/2/issue`
 * creates an issue and answers 201 with its `id`, `key` and `self`; `POST .../issue/{key}/comment` answers 201
 * with the comment; `POST .../issue/{key}/transitions` answers 204; both answer 404 for an unknown issue.
 */
export async function startJiraStandIn(options: JiraStandInOptions = {}): Promise<JiraStandIn> {
  const project = options.project ?? 'SOC';
  const issues = new Map<string, JiraIssue>();
  const replayed: ReceivedRequest[] = [];
  const answered = new Map<string, ScriptedAnswer>();
  let outage: ScriptedAnswer | undefined;
  const act = (request: ReceivedRequest): ScriptedAnswer => {
    const body = JSON.parse(request.body.toString('utf8') || '{}') as Record<string, unknown>;
    if (request.method === 'POST' && request.url === '/rest/api/2/issue') {
      const fields = (body.fields ?? {}) as { summary?: unknown };
      if (typeof fields.summary !== 'string') return json(400, { errorMessages: [], errors: { summary: 'required' } });
      const id = String(10_000 + issues.size);
      const key = `${project}-${issues.size + 1}`;
      issues.set(key, { key, summary: fields.summary, comments: [], transitions: [] });
      return json(201, { id, key, self: `${receiver.url}/rest/api/2/issue/${id}` });
    }
    const [, key, action] = ISSUE_PATH.exec(request.url) ?? [];
    const issue = issues.get(decodeURIComponent(key ?? ''));
    if (request.method !== 'POST' || issue === undefined) return NOT_FOUND;
    if (action === 'comment') {
      issue.comments.push(String(body.body));
      return json(201, { id: String(issue.comments.length), body: body.body });
    }
    issue.transitions.push(String((body.transition as { id?: unknown } | undefined)?.id));
    return { status: 204 };
  };
  const delayed = (answer: ScriptedAnswer): ScriptedAnswer =>
    options.delayMs ? { ...answer, delayMs: options.delayMs } : answer;
  const receiver = await startHttpReceiver({
    judge: (request) => {
      if (outage !== undefined) return outage;
      const key = request.headers['idempotency-key'];
      if (!options.honourIdempotencyKey || typeof key !== 'string') return delayed(act(request));
      const first = answered.get(key);
      if (first !== undefined) replayed.push(request);
      else answered.set(key, act(request));
      return delayed(answered.get(key) as ScriptedAnswer);
    },
  });
  return Object.assign(receiver, { issues, replayed, setOutage: (answer?: ScriptedAnswer) => void (outage = answer) });
}
