import type { DigestBuilder } from './digest-records.js';
import type { SourceSighting, SourceSilence } from './source-status.js';
import type { HeldState } from './delivery-state.js';
import type { SilenceChange, SilenceFilter, StoredSilence } from './stored-silence.js';

/** One throttle decision to take at ingest: `by` names the throttle (`route:<name>` or `target:<name>`). */
export interface ThrottleCheck {
  readonly by: string;
  /** `by` and the rendered key: deliveries with the same one count against each other. */
  readonly key: string;
  readonly windowMs: number;
  readonly max: number;
}

/** Why a delivery is created held back: the state and the silence, interval, throttle or digest (`held_by`). */
export interface DeliveryHold {
  readonly state: HeldState;
  readonly by: string;
}

/**
 * The journal's side of noise control (issue 12): silences, sources that must keep sending, digests. Part of
 * the Store, kept apart so that its core stays readable; both backends implement it.
 */
export interface NoiseJournal {
  /** Issue 12: records a new silence. */
  createSilence(silence: StoredSilence): Promise<void>;
  getSilence(id: string): Promise<StoredSilence | undefined>;
  /** Silences matching the filter, newest first. */
  findSilences(filter: SilenceFilter): Promise<StoredSilence[]>;
  /** Changes an existing silence (extend, shorten, expire now, re-word); undefined for an unknown id. */
  updateSilence(id: string, change: SilenceChange, now: number): Promise<StoredSilence | undefined>;
  /**
   * For an ended `deliver_unresolved` silence, in ONE transaction: marks it released and re-queues the given
   * deliveries it held (still `silenced` and held by it) as due now. Only the first call for a silence does
   * anything (several instances may try); returns the number re-queued, or undefined when it was already released.
   */
  releaseSilence(id: string, deliveryIds: readonly string[], now: number): Promise<number | undefined>;
  /**
   * Issue 12, sources that must keep sending: merges what an instance saw (the latest verified event wins;
   * rejections since it add up). A source seen for the first time starts its clock at `now`.
   */
  recordSourceSightings(sightings: readonly SourceSighting[], now: number): Promise<void>;
  /**
   * Marks the source silent when its last verified event is at or before `cutoff` and it is not marked yet;
   * only one caller wins (it raises the event). Undefined when not silent or already marked.
   */
  markSourceSilent(source: string, cutoff: number, now: number): Promise<SourceSilence | undefined>;
  /** Clears the mark once a verified event came at or after it; only one caller wins. Undefined otherwise. */
  markSourceRecovered(source: string): Promise<SourceSilence | undefined>;
  /** Issue 12: ids of open digests due at `now`, oldest due first. */
  findDueDigests(now: number, limit: number): Promise<string[]>;
  /**
   * Sends one due digest, in ONE transaction: its event (made by `build` from the events it holds) and a pending
   * delivery to its target are written and the digest marked sent. Only one caller wins (several instances, a
   * crash mid-way leaves it open); undefined when it was not open and due. Returns the digest's delivery id.
   */
  sendDigest(id: string, now: number, build: DigestBuilder): Promise<string | undefined>;
}
