import { jsonAnswer, startHttpReceiver, type HttpReceiver } from './start-http-receiver.js';

/** One issue as the stand-in keeps it. */
export interface JiraIssue {
  readonly key: string;
  readonly summary: string;
  readonly comments: string[];
  /** The ids of the transitions made, in order. */
  readonly transitions: string[];
}

export interface JiraStandIn extends HttpReceiver {
  /** Issues by key, in creation order. */
  readonly issues: Map<string, JiraIssue>;
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
export async function startJiraStandIn(project = 'SOC'): Promise<JiraStandIn> {
  const issues = new Map<string, JiraIssue>();
  const receiver = await startHttpReceiver({
    judge: (request) => {
      const body = JSON.parse(request.body.toString('utf8') || '{}') as Record<string, unknown>;
      if (request.method === 'POST' && request.url === '/rest/api/2/issue') {
        const fields = (body.fields ?? {}) as { summary?: unknown };
        if (typeof fields.summary !== 'string')
          return json(400, { errorMessages: [], errors: { summary: 'required' } });
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
    },
  });
  return Object.assign(receiver, { issues });
}
