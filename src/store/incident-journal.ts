import type { IncidentRecord, IncidentState } from '../lifecycle/incident-record.js';
import type { StoredDelivery, StoredReference } from './store.js';

/** Which incidents a listing wants; every field narrows it. Newest activity first. */
export interface IncidentFilter {
  readonly state?: IncidentState | undefined;
  /** The current severity level, as configured (case-insensitive). */
  readonly severity?: string | undefined;
  /** Incidents with at least one delivery to this target (among the events still in the journal). */
  readonly target?: string | undefined;
  readonly host?: string | undefined;
  readonly source?: string | undefined;
  readonly key?: string | undefined;
  /** Case-insensitive substring of the title, the key, the host or the agent. */
  readonly text?: string | undefined;
  /** Resume after this record (the last of the previous page), in (lastAt desc, source, key) order. */
  readonly before?: { readonly lastAt: number; readonly source: string; readonly key: string } | undefined;
  readonly limit: number;
}

/** One event of an incident, as its history lists it. */
export interface IncidentEventRow {
  readonly id: string;
  readonly kind: string;
  readonly severity: string | null;
  readonly title: string | null;
  readonly receivedAt: number;
}

/**
 * What the journal still holds of one incident: its events and their deliveries in id (= receipt) order, and
 * the references its deliveries' targets keep for their keys. Events retention removed are no longer here;
 * the record's counts still include them.
 */
export interface IncidentHistory {
  readonly events: readonly IncidentEventRow[];
  readonly deliveries: readonly StoredDelivery[];
  readonly references: readonly StoredReference[];
}

/**
 * The incident records' reads. They are written inside the ingest transaction (Store.ingest, from the
 * `incident` facts of an IngestItem), so a record is never out of step with the events it counts.
 */
export interface IncidentJournal {
  findIncidents(filter: IncidentFilter): Promise<IncidentRecord[]>;
  incidentHistory(source: string, key: string): Promise<IncidentHistory>;
}
