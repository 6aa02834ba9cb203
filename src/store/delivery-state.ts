/**
 * A delivery recorded but not sent, and what held it back (issue 12). The engine never claims one; a silence's
 * `on_expiry: deliver_unresolved` may re-queue a silenced one, and retention waits until nothing can
 * (unfinished-delivery-sql.ts).
 */
export type HeldState = 'silenced' | 'muted' | 'suppressed' | 'grouped';
export const HELD_STATES: readonly HeldState[] = ['silenced', 'muted', 'suppressed', 'grouped'];
/**
 * The states the delivery engine moves a sent delivery between. `skipped`: it will not be sent and no longer
 * holds its key's line (a resolve with nothing to resolve, or a dead one an operator skipped); final at once.
 */
export type SendState = 'pending' | 'delivered' | 'dead' | 'skipped';
export type DeliveryState = SendState | HeldState;
export const DELIVERY_STATES: readonly DeliveryState[] = ['pending', 'delivered', 'dead', 'skipped', ...HELD_STATES];

/** How many deliveries of one target are in one state (`Store.countByTarget`). */
export interface DeliveryCount {
  readonly target: string;
  readonly state: DeliveryState;
  readonly count: number;
}
