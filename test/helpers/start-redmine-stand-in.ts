import {
  jsonAnswer,
  startHttpReceiver,
  type HttpReceiver,
  type ReceivedRequest,
  type ScriptedAnswer,
} from './start-http-receiver.js';

/** One issue as the stand-in keeps it. */
export interface RedmineIssue {
  readonly id: number;
  readonly subject: string;
  readonly description: string;
  readonly notes: string[];
  statusId: number;
}

export interface RedmineStandIn extends HttpReceiver {
  /** Issues by id, in creation order. */
  readonly issues: Map<number, RedmineIssue>;
  /** Changes how long the `journals` of the create answers from now on are. */
  setJournalBytes(bytes: number): void;
}

const ISSUE_PATH = /^\/issues\/([^/]+)\.json$/;
const NOT_FOUND: ScriptedAnswer = { status: 404, headers: { 'content-type': 'text/html' }, body: 'Not Found' };

/**
 * A local stand-in for Redmine's REST API (https://www.redmine.org/projects/redmine/wiki/Rest_Issues), as unkind
 * as Redmine: `POST /issues.json` answers 201 with the whole issue, the description echoed (several KiB for an
 * alert with its evidence), `journals` of `journalBytes` (an instance that includes them: more than 1 MiB makes
 * an answer over the capture bound); `PUT /issues/{id}.json` adds `notes` and sets `status_id`, answering 204
 * with no body; an unknown issue is 404.
 */
export async function startRedmineStandIn(options: { journalBytes?: number } = {}): Promise<RedmineStandIn> {
  const issues = new Map<number, RedmineIssue>();
  let journals = 'j'.repeat(options.journalBytes ?? 0);
  const act = (request: ReceivedRequest): ScriptedAnswer => {
    const body = JSON.parse(request.body.toString('utf8') || '{}') as { issue?: Record<string, unknown> };
    const fields = body.issue ?? {};
    if (request.method === 'POST' && request.url === '/issues.json') {
      const id = 1000 + issues.size;
      const issue = {
        id,
        subject: String(fields.subject),
        description: String(fields.description ?? ''),
        notes: [],
        statusId: 1,
      };
      issues.set(id, issue);
      const answered = {
        issue: {
          id,
          project: { id: 1, name: 'SOC' },
          tracker: { id: 1, name: 'Incident' },
          status: { id: 1, name: 'New', is_closed: false },
          priority: { id: 2, name: 'Normal' },
          author: { id: 5, name: 'Switchyard' },
          subject: issue.subject,
          description: issue.description,
          start_date: '2026-11-22',
          done_ratio: 0,
          custom_fields: [{ id: 3, name: 'Source', value: 'switchyard' }],
          created_on: '2026-11-22T10:00:00Z',
          updated_on: '2026-11-22T10:00:00Z',
          ...(journals === '' ? {} : { journals: [{ id: 1, notes: journals }] }),
        },
      };
      return jsonAnswer(201, answered, 'application/json; charset=utf-8');
    }
    const [, id] = ISSUE_PATH.exec(request.url) ?? [];
    const issue = issues.get(Number(id));
    if (request.method !== 'PUT' || issue === undefined) return NOT_FOUND;
    if (typeof fields.notes === 'string') issue.notes.push(fields.notes);
    if (typeof fields.status_id === 'number') issue.statusId = fields.status_id;
    return { status: 204 };
  };
  const receiver = await startHttpReceiver({ judge: act });
  return Object.assign(receiver, { issues, setJournalBytes: (bytes: number) => void (journals = 'j'.repeat(bytes)) });
}
