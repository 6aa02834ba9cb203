import type { DeliveryState, StoredDelivery } from './store.js';

/**
 * Issue 14, order per key: SQL shared by both journals (their dialects agree on all of it but the parameters).
 *
 * A delivery `d` with a correlation key waits while an earlier delivery (lower id) to the same target with the
 * same key still holds the key's line: pending (due or not, claimed or not) or dead (a dead one holds it until
 * it is replayed and delivered, or skipped; held states, delivered and skipped do not). It also waits while
 * another delivery of the key is in flight (`inFlightAfter`: a claim whose lease ends after it), which only
 * happens when an earlier delivered one was replayed behind a later one: never two of one key at once (only
 * pending rows hold a claim token, and leaving `state` out keeps that probe on its own small index). A delivery without a key
 * short-circuits on the first test, and never enters the two partial indexes the probes use (migration 5).
 */
export function inLine(d: string, inFlightAfter: string | null): string {
  const same = `p.target = ${d}.target AND p.correlation_key = ${d}.correlation_key`;
  const lease = inFlightAfter === null ? '' : ` AND p.next_attempt_at > ${inFlightAfter}`;
  return `(${d}.correlation_key IS NULL OR (
      NOT EXISTS (SELECT 1 FROM deliveries p WHERE ${same} AND p.state IN ('pending', 'dead') AND p.id < ${d}.id)
      AND NOT EXISTS (SELECT 1 FROM deliveries p WHERE ${same} AND p.claim_token IS NOT NULL AND p.id <> ${d}.id${lease})))`;
}

/** The first delivery a pending keyed delivery `d` waits behind (the head of its key's line), as two columns. */
export function waitingColumns(d: string, alias: (name: string) => string): string {
  const head = (column: string) =>
    `CASE WHEN ${d}.state = 'pending' AND ${d}.correlation_key IS NOT NULL THEN (SELECT ${column} FROM deliveries p
       WHERE p.target = ${d}.target AND p.correlation_key = ${d}.correlation_key
         AND p.state IN ('pending', 'dead') AND p.id < ${d}.id ORDER BY p.id LIMIT 1) END`;
  return `${head("'dlv_' || p.id")} AS ${alias('waitingForId')}, ${head('p.state')} AS ${alias('waitingForState')}`;
}

type DeliveryRow = Omit<StoredDelivery, 'waitingFor'> & {
  readonly waitingForId?: string | null;
  readonly waitingForState?: DeliveryState | null;
};

/**
 * A delivery row as the Store hands it out: `correlationKey` only when it has one (so deliveries without a key
 * look as they did before issue 14), `waitingFor` only when it waits.
 */
export function toStoredDelivery<Row extends DeliveryRow>(
  row: Row,
): Omit<Row, 'waitingForId' | 'waitingForState'> & Pick<StoredDelivery, 'waitingFor'> {
  const { waitingForId, waitingForState, correlationKey, ...rest } = row;
  return {
    ...rest,
    ...(correlationKey === null || correlationKey === undefined ? {} : { correlationKey }),
    ...(waitingForId === null || waitingForId === undefined || waitingForState === null || waitingForState === undefined
      ? {}
      : { waitingFor: { id: waitingForId, state: waitingForState } }),
  } as Omit<Row, 'waitingForId' | 'waitingForState'> & Pick<StoredDelivery, 'waitingFor'>;
}
