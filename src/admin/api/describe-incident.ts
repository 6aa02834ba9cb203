import type { IncidentRecord } from '../../lifecycle/incident-record.js';
import { summarizeIncidentTargets } from '../../lifecycle/summarize-incident-targets.js';
import type { IncidentJournal } from '../../store/incident-journal.js';
import { SwitchyardError } from '../../switchyard-error.js';
import { presentDelivery } from './present-delivery.js';
import { presentIncident } from './present-incident.js';

/**
 * The one incident `key` names (of `source`, when given): a coded error when there is none (404), or when
 * several sources have that key and none was named (409), as the API and the CLI say it.
 */
export async function findOneIncident(
  journal: Pick<IncidentJournal, 'findIncidents'>,
  key: string,
  source: string | undefined,
): Promise<IncidentRecord> {
  const records = await journal.findIncidents({ key, source, limit: 2 });
  const [record, other] = records;
  if (record === undefined) throw new SwitchyardError('not_found', `no incident ${key}`, { status: 404 });
  if (other !== undefined) {
    const sources = records.map((r) => r.source).join(', ');
    throw new SwitchyardError(
      'ambiguous_incident',
      `incident ${key} exists for several sources (${sources}, ...): name one with source`,
      { status: 409 },
    );
  }
  return record;
}

/** An incident with what each target was sent, and its kept events and deliveries in order (API and CLI). */
export async function describeIncident(journal: Pick<IncidentJournal, 'incidentHistory'>, record: IncidentRecord) {
  const history = await journal.incidentHistory(record.source, record.key);
  return {
    incident: presentIncident(record),
    targets: summarizeIncidentTargets(history),
    events: history.events.map((event) => ({ ...event, receivedAt: new Date(event.receivedAt).toISOString() })),
    deliveries: history.deliveries.map((delivery) => presentDelivery(delivery)),
    references: history.references,
  };
}
