/**
 * An incident as the journal keeps it: one record per source and key (`incident:inc_123`, `agent:ag_7`, the
 * key default-correlation-key.ts gives the event), folded from its events as they arrive (fold-incident.ts).
 */
export type IncidentState = 'open' | 'resolved' | 'reopened';

export const INCIDENT_STATES: readonly IncidentState[] = ['open', 'resolved', 'reopened'];

export interface IncidentRecord {
  readonly source: string;
  readonly key: string;
  readonly state: IncidentState;
  /** The newest title of an event that did not end it (a resolve's title says how it ended). */
  readonly title: string | null;
  /** The highest configured severity level any of its events had, and the level of the newest that had one. */
  readonly severityHighest: string | null;
  readonly severityCurrent: string | null;
  /** Position of `severityHighest` among the configured levels when it was folded (-1: none yet). */
  readonly severityRank: number;
  readonly host: string | null;
  readonly agent: string | null;
  readonly firstEventId: string;
  /** ms since the epoch, receipt of the first and of the newest event. */
  readonly firstAt: number;
  readonly lastEventId: string;
  readonly lastAt: number;
  readonly events: number;
  /** When the newest resolving event arrived, while resolved; null otherwise. */
  readonly resolvedAt: number | null;
  /** How many times an event came after a resolve. */
  readonly reopened: number;
}

/** What ingest knows of an event with a key, besides what the event row holds: the facts the fold reads. */
export interface IncidentFacts {
  readonly key: string;
  /** The configured level `data.severity` reads as, and its position among the levels (-1: none). */
  readonly severity: string | null;
  readonly severityRank: number;
  readonly host: string | null;
  readonly agent: string | null;
}

/** One event as the fold takes it. */
export interface IncidentEvent extends IncidentFacts {
  readonly source: string;
  readonly eventId: string;
  readonly kind: string;
  readonly receivedAt: number;
  readonly title: string | null;
}
