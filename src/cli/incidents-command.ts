import { describeIncident, findOneIncident } from '../admin/api/describe-incident.js';
import { presentIncident } from '../admin/api/present-incident.js';
import { flattenHeaderText } from '../delivery/targets/flatten-header-text.js';
import { INCIDENT_STATES, type IncidentRecord, type IncidentState } from '../lifecycle/incident-record.js';
import type { Store } from '../store/store.js';
import { SwitchyardError } from '../switchyard-error.js';
import type { CliCommand, CliIo } from './cli-io.js';
import { formatTable } from './format-table.js';
import { openJournal } from './open-journal.js';
import { parseCommandArgs } from './parse-command-args.js';

const USAGE = `usage: switchyard incidents [options]
       switchyard incidents show KEY [--source NAME] [--json]

Lists the incident records of the journal, newest activity first (100 unless --limit): state, severity,
events, title. With show, one incident (KEY: incident:inc_123, agent:ag_7): what each target was sent and
keeps for it, and every event kept in the journal with its deliveries, in order. Times are ISO 8601 (UTC).
Works while the daemon runs.
  --config FILE   the daemon's config, to find the journal (else $SWITCHYARD_CONFIG, else config/switchyard.yaml)
  --state S       open | resolved | reopened
  --target NAME   incidents with a delivery to this target
  --severity S    current severity level
  --host NAME     incidents on this host
  --source NAME   incidents of this source (show: needed when several sources have KEY)
  --text TEXT     text in the title, key, host or agent (case-insensitive)
  --limit N       at most N incidents
  --json          machine-readable output: the admin API's fields
`;

const OPTIONS = {
  config: { type: 'string', short: 'c' },
  state: { type: 'string' },
  target: { type: 'string' },
  severity: { type: 'string' },
  host: { type: 'string' },
  source: { type: 'string' },
  text: { type: 'string' },
  limit: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** `switchyard incidents`: reads the journal; changes nothing. */
export const runIncidents: CliCommand = async (args, io) => {
  const parsed = parseCommandArgs(args, OPTIONS, { min: 0, max: 2 }, USAGE, io);
  if (typeof parsed === 'number') return parsed;
  const [verb, key] = parsed.positionals;
  const text = (name: keyof typeof OPTIONS) => {
    const value = parsed.values[name];
    return typeof value === 'string' ? value : undefined;
  };
  const state = text('state');
  const limit = Number(text('limit') ?? '100');
  const problem =
    verb !== undefined && (verb !== 'show' || key === undefined)
      ? 'give show KEY, or no argument to list'
      : state !== undefined && !INCIDENT_STATES.includes(state as IncidentState)
        ? `--state must be one of ${INCIDENT_STATES.join(', ')}`
        : !Number.isSafeInteger(limit) || limit < 1
          ? '--limit must be a positive integer'
          : undefined;
  if (problem !== undefined) {
    io.stderr(`switchyard incidents: ${problem}\n${USAGE}`);
    return 2;
  }
  const json = parsed.values.json === true;
  try {
    const store = await openJournal(text('config'), io);
    try {
      if (key !== undefined) return await showOne(store, key, text('source'), io, json);
      const records = await store.findIncidents({
        state: state as IncidentState | undefined,
        target: text('target'),
        severity: text('severity'),
        host: text('host'),
        source: text('source'),
        text: text('text'),
        limit,
      });
      io.stdout(json ? `${JSON.stringify(records.map(presentIncident), null, 2)}\n` : formatIncidents(records));
      return 0;
    } finally {
      await store.close();
    }
  } catch (error) {
    if (!(error instanceof SwitchyardError)) throw error;
    io.stderr(`switchyard incidents: ${error.code}: ${error.message}\n`);
    return 1;
  }
};

/** What the sender wrote, fit for one table cell: control characters become spaces, the text is cut short. */
const cell = (value: string | null | undefined, width: number): string =>
  value === null || value === undefined ? '-' : flattenHeaderText(value, width);
const iso = (ms: number): string => new Date(ms).toISOString();

function formatIncidents(records: readonly IncidentRecord[]): string {
  if (records.length === 0) return 'no incidents match\n';
  return formatTable(
    ['KEY', 'SOURCE', 'STATE', 'SEVERITY', 'HIGHEST', 'EVENTS', 'FIRST', 'LAST', 'HOST', 'TITLE'],
    records.map((r) => [
      cell(r.key, 60),
      r.source,
      r.state,
      cell(r.severityCurrent, 12),
      cell(r.severityHighest, 12),
      String(r.events),
      iso(r.firstAt),
      iso(r.lastAt),
      cell(r.host ?? r.agent, 40),
      cell(r.title, 60),
    ]),
  );
}

async function showOne(store: Store, key: string, source: string | undefined, io: CliIo, json: boolean) {
  const shown = await describeIncident(store, await findOneIncident(store, key, source));
  if (json) {
    io.stdout(`${JSON.stringify(shown, null, 2)}\n`);
    return 0;
  }
  const { incident, targets, events, deliveries } = shown;
  const resolved = incident.resolvedAt === null ? '' : `, resolved ${incident.resolvedAt}`;
  io.stdout(
    `${cell(incident.key, 200)} (${incident.source}): ${incident.state}${resolved}\n` +
      `  title     ${cell(incident.title, 200)}\n` +
      `  severity  ${cell(incident.severityCurrent, 40)} (highest ${cell(incident.severityHighest, 40)})\n` +
      `  host      ${cell(incident.host, 200)}   agent ${cell(incident.agent, 200)}\n` +
      `  events    ${incident.events}, first ${incident.firstAt}, last ${incident.lastAt}` +
      `${incident.reopened > 0 ? `, reopened ${incident.reopened} time(s)` : ''}\n\n`,
  );
  io.stdout(
    targets.length === 0
      ? 'no deliveries kept for this incident\n'
      : formatTable(
          ['TARGET', 'CREATED', 'UPDATED', 'RESOLVED', 'LAST DELIVERY', 'STATE', 'REFERENCES'],
          targets.map((t) => [
            t.target,
            String(t.created),
            String(t.updated),
            String(t.resolved),
            t.lastDelivery.id,
            t.lastDelivery.state,
            cell(t.references === null ? null : JSON.stringify(t.references), 80),
          ]),
        ),
  );
  io.stdout('\n');
  io.stdout(
    formatTable(
      ['RECEIVED', 'EVENT', 'KIND', 'SEVERITY', 'DELIVERY', 'TARGET', 'STATE', 'LAST ERROR'],
      events.flatMap((e) => {
        const own = deliveries.filter((d) => d.eventId === e.id);
        const head = [e.receivedAt, e.id, cell(e.kind, 40), cell(e.severity, 12)];
        if (own.length === 0) return [[...head, '-', '-', '-', '']];
        return own.map((d, i) => [
          ...(i === 0 ? head : ['', '', '', '']),
          d.id,
          d.target,
          d.state,
          cell(d.lastError ?? d.heldReason, 80).replace(/^-$/, ''),
        ]);
      }),
    ),
  );
  return 0;
}
