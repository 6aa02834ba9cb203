import { jsonAnswer, startHttpReceiver, type HttpReceiver } from './start-http-receiver.js';

/** One case as the stand-in keeps it. */
export interface TheHiveCase {
  readonly _id: string;
  readonly number: number;
  readonly title: string;
  readonly severity: number;
  /** Comments' messages, in order. */
  readonly comments: string[];
  /** `status` as each PATCH set it, in order (`TruePositive` and the other closing statuses close it). */
  readonly statuses: string[];
  summary?: string;
}

export interface TheHiveStandIn extends HttpReceiver {
  /** Cases by `_id`, in creation order. */
  readonly cases: Map<string, TheHiveCase>;
}

const json = jsonAnswer;
const NOT_FOUND = (id: string) => json(404, { type: 'NotFoundError', message: `Case ${id} not found` });
const CASE_PATH = /^\/api\/v1\/case\/([^/]+)(\/comment)?$/;
/** TheHive 5's case statuses of the Closed stage: closing needs a `summary`. */
const CLOSING = new Set(['TruePositive', 'FalsePositive', 'Indeterminate', 'Other', 'Duplicated']);

/**
 * A local stand-in for TheHive 5's case API (https://docs.strangebee.com/thehive/api-docs/), answering as its
 * docs say: `POST /api/v1/case` needs `title` and `description`, `severity` a number 1-4, and answers 201 with
 * the case (`_id` `~<digits>`, `number`, `status` New); `POST /api/v1/case/{id}/comment` with `message` answers
 * 201 with the comment; `PATCH /api/v1/case/{id}` answers 204; an unknown id is a 404.
 */
export async function startTheHiveStandIn(): Promise<TheHiveStandIn> {
  const cases = new Map<string, TheHiveCase>();
  const receiver = await startHttpReceiver({
    judge: (request) => {
      const body = JSON.parse(request.body.toString('utf8') || '{}') as Record<string, unknown>;
      if (request.method === 'POST' && request.url === '/api/v1/case') {
        const { title, description, severity } = body;
        if (typeof title !== 'string' || typeof description !== 'string') {
          return json(400, { type: 'BadRequestError', message: 'title and description are required' });
        }
        if (typeof severity !== 'number' || severity < 1 || severity > 4) {
          return json(400, { type: 'BadRequestError', message: `Invalid severity: ${String(severity)}` });
        }
        const created: TheHiveCase = {
          _id: `~${40_960 + cases.size * 4_096}`,
          number: cases.size + 1,
          title,
          severity,
          comments: [],
          statuses: [],
        };
        cases.set(created._id, created);
        const { comments: _c, statuses: _s, ...shown } = created;
        return json(201, { ...shown, _type: 'Case', status: 'New', stage: 'New', description });
      }
      const [, id = '', comment] = CASE_PATH.exec(request.url) ?? [];
      const found = cases.get(decodeURIComponent(id));
      if (found === undefined) return NOT_FOUND(decodeURIComponent(id));
      if (request.method === 'POST' && comment !== undefined && typeof body.message === 'string') {
        found.comments.push(body.message);
        return json(201, { _id: `~${found.comments.length}`, _type: 'Comment', message: body.message });
      }
      if (request.method === 'PATCH' && comment === undefined) {
        const status = typeof body.status === 'string' ? body.status : undefined;
        if (status !== undefined && CLOSING.has(status) && typeof body.summary !== 'string') {
          return json(400, { type: 'BadRequestError', message: 'a summary is required to close a case' });
        }
        if (status !== undefined) found.statuses.push(status);
        if (typeof body.summary === 'string') found.summary = body.summary;
        return { status: 204 };
      }
      return json(400, { type: 'BadRequestError', message: 'unexpected request' });
    },
  });
  return Object.assign(receiver, { cases });
}
