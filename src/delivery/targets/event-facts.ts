import type { DeliveryJob } from '../target.js';
import { detailRows, type EventDetails } from './read-event-details.js';

/** The labelled facts every default chat card lists first: severity, event kind, then the event's details. */
export function eventFacts(job: DeliveryJob, details: EventDetails): [string, string][] {
  return [['Severity', job.event.severity ?? 'not set'], ['Event', job.event.kind], ...detailRows(details)];
}
