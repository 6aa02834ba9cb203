import type { DeliveryState } from '../store/store.js';

/**
 * Why a held delivery was not sent, in the same words in the CLI, the admin API and the docs: `silenced by
 * sil_...`, `muted by interval <name>`, `suppressed by throttle target:<name>`, `grouped into digest dig_...`.
 * Undefined for a delivery that is sent (pending, delivered, dead).
 */
export function describeHold(state: DeliveryState, heldBy: string | null | undefined): string | undefined {
  const by = heldBy ?? '?';
  switch (state) {
    case 'silenced':
      return `silenced by ${by}`;
    case 'muted':
      return `muted by interval ${by}`;
    case 'suppressed':
      return `suppressed by throttle ${by}`;
    case 'grouped':
      return `grouped into digest ${by}`;
    default:
      return undefined;
  }
}
