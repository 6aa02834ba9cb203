import type { EventDetail } from '../api/api-types.js';

/** The fields of the silence form that "Silence events like this" fills in, carried in the Silences page's URL. */
export interface SilencePrefill {
  readonly event: string;
  readonly field?: string;
  readonly value?: string;
  readonly comment?: string;
}

const HOST_FIELDS = ['host', 'hostname'];

/** The event's kind, and its host (`data.host`, else `data.hostname`) when it names one. */
export function silencePrefill(event: EventDetail): SilencePrefill {
  const data = (event.body as { data?: Record<string, unknown> } | null)?.data;
  const base = { event: event.kind, comment: `like ${event.id}` };
  for (const name of HOST_FIELDS) {
    const value = data?.[name];
    if (typeof value === 'string' && value !== '') return { ...base, field: `data.${name}`, value };
  }
  return base;
}
