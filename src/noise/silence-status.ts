import type { StoredSilence } from '../store/stored-silence.js';

export type SilenceStatus = 'pending' | 'active' | 'expired';

/** Where a silence stands at `now`: not started yet, in force, or ended (expired early or at its end). */
export function silenceStatus(silence: Pick<StoredSilence, 'startsAt' | 'endsAt'>, now: number): SilenceStatus {
  if (now >= silence.endsAt) return 'expired';
  return now < silence.startsAt ? 'pending' : 'active';
}
