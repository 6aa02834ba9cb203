/**
 * A silence as the journal keeps it (issue 12). The matchers are kept as written (the `match:` of a route:
 * event globs, severity, where) and compiled by each daemon against its rules, so a silence survives a rules
 * change and means the same on every instance.
 */
export interface StoredSilence {
  /** `sil_<time-ordered id>`. */
  readonly id: string;
  readonly matchers: SilenceMatchers;
  /** In force from `startsAt` (inclusive) to `endsAt` (exclusive), ms since the epoch. */
  readonly startsAt: number;
  readonly endsAt: number;
  readonly comment: string;
  readonly createdBy: string;
  /** `drop`: what it held stays held; `deliver_unresolved`: when it ends, what is still open is sent. */
  readonly onExpiry: 'drop' | 'deliver_unresolved';
  readonly createdAt: number;
  readonly updatedAt: number;
  /** When its held deliveries were released after it ended (`deliver_unresolved` only), else null. */
  readonly releasedAt: number | null;
}

export interface SilenceMatchers {
  readonly event?: string | readonly string[];
  readonly severity?: unknown;
  readonly where?: readonly Readonly<Record<string, unknown>>[];
}

export interface SilenceFilter {
  /** Only silences in force at this instant. */
  readonly activeAt?: number | undefined;
  /** Only silences that have not ended by this instant (in force now, or starting later). */
  readonly notEndedAt?: number | undefined;
  /** Only `deliver_unresolved` silences ended by this instant whose held deliveries were not released yet. */
  readonly unreleasedAt?: number | undefined;
  /** Default 1000, newest first. */
  readonly limit?: number | undefined;
}

/** The fields `updateSilence` may change; the rest of a silence is fixed once made. */
export interface SilenceChange {
  readonly endsAt?: number | undefined;
  readonly comment?: string | undefined;
}
