/**
 * The bytes of request bodies held at once, before their signature can be checked (issue 10, item 2: 2,000
 * wrongly signed 1 MiB bodies took the daemon to 2.2 GB). Pure accounting: the caller asks before it keeps a
 * chunk and gives the bytes back when the body is dropped or handed on.
 *
 * A body's first `smallBytes` are always granted, so a small valid event still gets through while large
 * bodies hold the shared part; that part is bounded by the connection limit (max connections x smallBytes).
 * Bytes past `smallBytes` are granted only while the total stays within `limit`.
 */
export interface BodyBudget {
  /** Whether a body that has `held` bytes may keep `more`; when true they are counted until `give`. */
  take(held: number, more: number): boolean;
  give(bytes: number): void;
  /** Bytes counted now (for metrics and tests). */
  readonly inFlight: () => number;
}

export function createBodyBudget(limit: number, smallBytes: number): BodyBudget {
  let inFlight = 0;
  return {
    take(held, more) {
      if (held + more > smallBytes && inFlight + more > limit) return false;
      inFlight += more;
      return true;
    },
    give(bytes) {
      inFlight -= bytes;
    },
    inFlight: () => inFlight,
  };
}
