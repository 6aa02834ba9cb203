import { readEventDetails } from '../delivery/targets/read-event-details.js';
import type { Envelope } from '../ingest/envelope.js';
import type { SeverityReading } from '../rules/rules.js';
import { defaultCorrelationKey } from './default-correlation-key.js';
import type { IncidentFacts } from './incident-record.js';

/** As correlation keys are cut (correlation-keys.ts): a key is an index entry; host and agent are filtered on. */
const MAX_KEY_LENGTH = 200;

/**
 * What the incident record takes from an event: its key (the incident or the agent, as lifecycle targets key
 * them by default), the configured severity level with its rank among `levels` (lowest first), the host and
 * the agent as the default messages read them. Undefined for an event without a key: it writes no record.
 */
export function incidentFacts(
  envelope: Envelope,
  severity: SeverityReading,
  levels: readonly string[],
): IncidentFacts | undefined {
  const key = defaultCorrelationKey(envelope.event, envelope.data);
  if (key === null) return undefined;
  const details = readEventDetails(envelope.data);
  return {
    key: key.slice(0, MAX_KEY_LENGTH),
    severity: severity.level,
    severityRank: severity.level === null ? -1 : levels.indexOf(severity.level),
    host: details.host?.slice(0, MAX_KEY_LENGTH) ?? null,
    agent: details.agent?.slice(0, MAX_KEY_LENGTH) ?? null,
  };
}
