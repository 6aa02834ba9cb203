import { jsonAnswer, startHttpReceiver, type HttpReceiver } from './start-http-receiver.js';

/** One incident record as the stand-in keeps it. */
export interface ServiceNowIncident {
  readonly sys_id: string;
  readonly number: string;
  readonly short_description: string;
  readonly correlation_id: string;
  /** Each PATCH's `work_notes`, in order (ServiceNow appends journal fields rather than replacing them). */
  readonly work_notes: string[];
  /** `state` as each PATCH set it, in order (`6` is Resolved). */
  readonly states: string[];
  close_code?: string;
}

export interface ServiceNowStandIn extends HttpReceiver {
  /** Incidents by sys_id, in creation order. */
  readonly incidents: Map<string, ServiceNowIncident>;
}

const json = (status: number, body: unknown) => jsonAnswer(status, body, 'application/json;charset=UTF-8');
/** The Table API's answer for a sys_id it does not have (or the ACLs hide). */
const NOT_FOUND = json(404, {
  error: { message: 'No Record found', detail: "Record doesn't exist or ACL restricts the record retrieval" },
  status: 'failure',
});
const RECORD_PATH = /^\/api\/now\/table\/incident\/([^/]+)$/;

/**
 * A local stand-in for ServiceNow's Table API on the incident table, answering as its docs say
 * (https://www.servicenow.com/docs/r/api-reference/rest-apis/c_TableAPI.html): `POST /api/now/table/incident`
 * answers 201 `{"result": {...}}` with the new record's `sys_id` and `number`; `PATCH .../incident/{sys_id}`
 * answers 200 with the record; both keep to `sysparm_fields` when given; an unknown sys_id is a 404.
 */
export async function startServiceNowStandIn(): Promise<ServiceNowStandIn> {
  const incidents = new Map<string, ServiceNowIncident>();
  const receiver = await startHttpReceiver({
    judge: (request) => {
      const url = new URL(request.url, 'http://stand-in');
      const fields = url.searchParams.get('sysparm_fields')?.split(',');
      const answer = (status: number, record: ServiceNowIncident) => {
        const full: Record<string, unknown> = { ...record, state: record.states.at(-1) ?? '1' };
        const shown = fields === undefined ? full : Object.fromEntries(fields.map((name) => [name, full[name]]));
        return json(status, { result: shown });
      };
      const body = JSON.parse(request.body.toString('utf8') || '{}') as Record<string, unknown>;
      if (request.method === 'POST' && url.pathname === '/api/now/table/incident') {
        const sysId = (0xa0000 + incidents.size).toString(16).padStart(32, '0');
        const record: ServiceNowIncident = {
          sys_id: sysId,
          number: `INC${String(10_001 + incidents.size).padStart(7, '0')}`,
          short_description: String(body.short_description ?? ''),
          correlation_id: String(body.correlation_id ?? ''),
          work_notes: [],
          states: [],
        };
        incidents.set(sysId, record);
        return answer(201, record);
      }
      const [, sysId] = RECORD_PATH.exec(url.pathname) ?? [];
      const record = incidents.get(decodeURIComponent(sysId ?? ''));
      if (request.method !== 'PATCH' || record === undefined) return NOT_FOUND;
      if (typeof body.work_notes === 'string') record.work_notes.push(body.work_notes);
      if (typeof body.state === 'string') record.states.push(body.state);
      if (typeof body.close_code === 'string') record.close_code = body.close_code;
      return answer(200, record);
    },
  });
  return Object.assign(receiver, { incidents });
}
