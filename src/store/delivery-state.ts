/**
 * A delivery recorded but not sent, and what held it back (issue 12). The engine never claims one; a silence's
 * `on_expiry: deliver_unresolved` may re-queue a silenced one, and retention waits until nothing can
 * (unfinished-delivery-sql.ts).
 */
export type HeldState = 'silenced' | 'muted' | 'suppressed' | 'grouped';
export const HELD_STATES: readonly HeldState[] = ['silenced', 'muted', 'suppressed', 'grouped'];
/** The states the delivery engine moves a sent delivery between. */
export type SendState = 'pending' | 'delivered' | 'dead';
export type DeliveryState = SendState | HeldState;
export const DELIVERY_STATES: readonly DeliveryState[] = ['pending', 'delivered', 'dead', ...HELD_STATES];

/** How many deliveries of one target are in one state (`Store.countByTarget`). */
export interface DeliveryCount {
  readonly target: string;
  readonly state: DeliveryState;
  readonly count: number;
}
