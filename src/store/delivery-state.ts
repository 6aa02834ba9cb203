/** A delivery recorded but never sent, and what held it back (issue 12); final, like `dead`. */
export type HeldState = 'silenced' | 'muted' | 'suppressed' | 'grouped';
/** The states the delivery engine moves a sent delivery between. */
export type SendState = 'pending' | 'delivered' | 'dead';
export type DeliveryState = SendState | HeldState;
export const DELIVERY_STATES: readonly DeliveryState[] = [
  'pending',
  'delivered',
  'dead',
  'silenced',
  'muted',
  'suppressed',
  'grouped',
];

/** How many deliveries of one target are in one state (`Store.countByTarget`). */
export interface DeliveryCount {
  readonly target: string;
  readonly state: DeliveryState;
  readonly count: number;
}
