import type { Clock } from '../clock.js';
import type { SourceConfig } from '../config/config.js';
import type { Envelope } from '../ingest/envelope.js';
import type { Logger } from '../log/logger.js';
import type { Store } from '../store/store.js';
import { runEvery } from './run-every.js';
import { sourceSignalEvent } from './source-signal-event.js';

export interface SourceWatch {
  /** A verified event from `source` was accepted at `at` (ms). */
  seen(source: string, at: number): void;
  /** A request to `source` failed signature verification. */
  rejected(source: string): void;
  stop(): Promise<void>;
}

/**
 * Watches the sources with `expect_events_within` (issue 12). Ingest notes what it sees in memory; every
 * `intervalMs` the notes go to the journal (shared by all instances), and each watched source whose latest
 * verified event, on any instance, is older than its window is marked silent and `switchyard.source_silent`
 * raised, by exactly one instance; once an event comes again, `switchyard.source_recovered`. A failed pass is
 * logged and retried at the next.
 */
export function watchSources(options: {
  readonly sources: readonly SourceConfig[];
  readonly store: Store;
  readonly log: Logger;
  readonly clock: Clock;
  /** Journals and routes an event Switchyard raises, as ingest does an upstream's. */
  readonly raise: (envelope: Envelope) => Promise<void>;
  /** The highest configured severity level, for `switchyard.source_silent`. */
  readonly highestSeverity: () => string | undefined;
  readonly intervalMs?: number;
}): SourceWatch {
  const watched = new Map(options.sources.filter((s) => s.expectEventsWithinMs !== null).map((s) => [s.name, s]));
  const notes = new Map<string, { lastEventAt: number | null; rejected: number }>();
  const note = (source: string) => {
    let entry = notes.get(source);
    if (entry === undefined) notes.set(source, (entry = { lastEventAt: null, rejected: 0 }));
    return entry;
  };
  for (const name of watched.keys()) note(name); // starts each clock at start-up

  const pass = async (): Promise<void> => {
    const { store, clock } = options;
    const sightings = [...notes].map(([source, n]) => ({ source, ...n }));
    notes.clear();
    try {
      await store.recordSourceSightings(sightings, clock.now());
    } catch (error) {
      // Put them back, merged with what came meanwhile, for the next pass.
      for (const s of sightings) {
        const entry = note(s.source);
        entry.lastEventAt = Math.max(entry.lastEventAt ?? 0, s.lastEventAt ?? 0) || null;
        entry.rejected += s.rejected;
      }
      throw error;
    }
    for (const source of watched.values()) {
      const now = clock.now();
      const windowMs = source.expectEventsWithinMs ?? 0;
      const context = { now, windowMs, highestSeverity: options.highestSeverity() };
      const silent = await store.markSourceSilent(source.name, now - windowMs, now);
      if (silent) await options.raise(sourceSignalEvent('silent', source.name, silent, context));
      const recovered = await store.markSourceRecovered(source.name);
      if (recovered) await options.raise(sourceSignalEvent('recovered', source.name, recovered, context));
    }
  };
  const job = runEvery(options.intervalMs ?? 5_000, pass, options.log, 'watching sources for silence failed; retrying');

  return {
    seen(source, at) {
      if (!watched.has(source)) return;
      const entry = note(source);
      entry.lastEventAt = Math.max(entry.lastEventAt ?? 0, at);
    },
    rejected(source) {
      if (watched.has(source)) note(source).rejected += 1;
    },
    stop: job.stop,
  };
}
