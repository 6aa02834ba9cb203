import type { StoredSilence } from '../store/stored-silence.js';

export type SilenceStatus = 'pending' | 'active' | 'expired';

/**
 * Where a silence stands at `now`: not started yet, in force, or ended (expired early or at its end). Expiring a
 * silence that has not started sets its end to its start: it will never be in force, so it is expired already.
 */
export function silenceStatus(silence: Pick<StoredSilence, 'startsAt' | 'endsAt'>, now: number): SilenceStatus {
  if (now >= silence.endsAt || silence.endsAt <= silence.startsAt) return 'expired';
  return now < silence.startsAt ? 'pending' : 'active';
}
