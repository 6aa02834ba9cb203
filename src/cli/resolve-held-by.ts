import { asRecord, textOf } from '../delivery/targets/read-event-details.js';
import type { Store } from '../store/store.js';
import { SwitchyardError } from '../switchyard-error.js';

/**
 * `--held-by` as the journal records holds. A digest is known by two ids: its own (`dig_...`, what held its
 * events) and the id of the `switchyard.digest` event it was sent as (`evt_...`, what a receiver sees first);
 * the second is taken too and read as the first. Any other event id is refused with the option meant.
 */
export async function resolveHeldBy(store: Store, heldBy: string | undefined): Promise<string | undefined> {
  if (heldBy === undefined || !heldBy.startsWith('evt_')) return heldBy;
  const event = await store.getEvent(heldBy);
  const digestId = event?.kind === 'switchyard.digest' ? digestIdOf(event.body) : undefined;
  if (digestId !== undefined) return digestId;
  throw new SwitchyardError(
    'invalid_filter',
    `${heldBy} is ${event === undefined ? 'no event in the journal' : 'an event, not a digest'}: --held-by takes ` +
      `what held deliveries back (sil_..., an interval, a throttle, dig_... or a digest's event); ` +
      `for an event's own deliveries use --event ${heldBy}`,
  );
}

function digestIdOf(body: Buffer): string | undefined {
  try {
    return textOf(asRecord(asRecord(JSON.parse(body.toString('utf8')) as unknown).data).digest_id);
  } catch {
    return undefined;
  }
}
