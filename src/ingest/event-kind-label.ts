import { KNOWN_EVENT_KINDS } from './envelope.js';

/**
 * The `kind` label of `switchyard_events_received_total`. Bounded: a documented kind is its own label, any
 * other kind is `other` (the sender chooses it, so it must not make new series), and a request refused before
 * its envelope was parsed has no kind yet: `""` (Prometheus reads an empty label as an absent one).
 */
export function eventKindLabel(kind: string | undefined): string {
  if (kind === undefined) return '';
  return KNOWN_EVENT_KINDS.has(kind) ? kind : 'other';
}
