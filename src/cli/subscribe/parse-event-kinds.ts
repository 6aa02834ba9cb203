import { KNOWN_EVENT_KINDS } from '../../ingest/envelope.js';

/**
 * `--events incident.created,agent.offline` as a list without duplicates, or why it is refused. Only the kinds
 * the upstream documents are accepted: a typo would otherwise become a subscription that never fires.
 */
export function parseEventKinds(text: string): string[] | string {
  const kinds = [...new Set(text.split(',').map((kind) => kind.trim()))].filter((kind) => kind !== '');
  if (kinds.length === 0) return '--events: name at least one event kind';
  const unknown = kinds.filter((kind) => !KNOWN_EVENT_KINDS.has(kind));
  if (unknown.length > 0) {
    return (
      `--events: unknown event kind${unknown.length === 1 ? '' : 's'} ${unknown.map((k) => `"${k}"`).join(', ')}; ` +
      `known: ${[...KNOWN_EVENT_KINDS].join(', ')}`
    );
  }
  return kinds;
}
