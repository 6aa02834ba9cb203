/**
 * What the default messages show of an event's `data`, read in one place so the Slack card and the e-mail
 * agree. Field names are those of docs/events.md; where the monitoring service (or an older version of it)
 * uses another name for the same thing, the documented one is read first.
 */
export interface EventDetails {
  readonly title?: string;
  readonly incident?: string;
  /** The machine concerned: `host`, else `hostname`, `agent.hostname`, `agent.name`. */
  readonly host?: string;
  /** The monitoring agent's id: `agent.id`, else `agent_id`. */
  readonly agent?: string;
  readonly policy?: string;
  readonly verdict?: string;
}

export function readEventDetails(data: unknown): EventDetails {
  const fields = asRecord(data);
  const agent = asRecord(fields.agent);
  const details: Record<string, string | undefined> = {
    title: textOf(fields.title),
    incident: textOf(fields.incident_id),
    host: textOf(fields.host) ?? textOf(fields.hostname) ?? textOf(agent.hostname) ?? textOf(agent.name),
    agent: textOf(agent.id) ?? textOf(fields.agent_id),
    policy: textOf(fields.policy),
    verdict: textOf(fields.verdict),
  };
  return Object.fromEntries(Object.entries(details).filter(([, value]) => value !== undefined));
}

/** The details worth a row (or a Slack field) of their own, labelled, in the order both messages show them. */
export function detailRows(details: EventDetails): [string, string][] {
  const rows: [string, string | undefined][] = [
    ['Incident', details.incident],
    ['Host', details.host],
    ['Agent', details.agent],
    ['Policy', details.policy],
    ['Verdict', details.verdict],
  ];
  return rows.filter((row): row is [string, string] => row[1] !== undefined);
}

/** A non-empty string, or a number, as text; anything else (objects, lists, blanks, absent) is undefined. */
export function textOf(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

export function asRecord(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
