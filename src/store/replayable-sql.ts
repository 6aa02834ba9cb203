/**
 * Which states `replay` re-queues, as a SQL condition both journals share: dead ones, and delivered ones when
 * asked. Never pending ones (already queued), and never held ones (silenced, muted, suppressed, grouped): noise
 * control kept them back on purpose, and what may send them later has its own path (a silence's
 * `on_expiry: deliver_unresolved`, a digest, a throttle's count); a replay would bypass the silence.
 */
export function replayableSql(includeDelivered: boolean | undefined): string {
  return includeDelivered === true ? "state IN ('dead', 'delivered')" : "state = 'dead'";
}
