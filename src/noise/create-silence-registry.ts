import type { Clock } from '../clock.js';
import type { Logger } from '../log/logger.js';
import { compileRegex } from '../rules/compile/compile-regex.js';
import type { CompiledRules } from '../rules/rules.js';
import type { Store } from '../store/store.js';
import type { StoredSilence } from '../store/stored-silence.js';
import type { Envelope } from '../ingest/envelope.js';
import { compileSilence, type CompiledSilence } from './compile-silence.js';
import { indexSilences } from './index-silences.js';

// Where the journal cannot tell of other writers (PostgreSQL), upToDate() has nothing to wait for.
const NOTHING_TO_READ: Promise<void> = Promise.resolve();

export interface SilenceRegistry {
  /** Silences not ended at the last refresh that could hold this event; cheap (ingest hot path). */
  candidatesFor(envelope: Envelope): readonly CompiledSilence[];
  /** Reads the journal now (after a local change, so it holds at once on this instance). */
  refresh(): Promise<void>;
  /**
   * Before an event is decided: re-reads the journal if another process wrote to it since the last look (a
   * silence added with the CLI holds from the next event); a no-op where the journal cannot tell (PostgreSQL).
   */
  upToDate(): Promise<void>;
  stop(): void;
}

/**
 * The silences every instance applies at ingest, kept in memory: re-read when the journal tells of another
 * writer (SQLite), else every `intervalMs` (1 s: a silence made on one of several instances sharing PostgreSQL
 * holds on all within about a second), and at once after a change through this instance. Compiled against
 * the rules in force, and again when they change; a silence whose matchers no longer compile (a severity level
 * removed) is logged and skipped rather than silencing more than it said. Per event kind the candidates are
 * cached and indexed (indexSilences), so an event tests only the silences that could hold it.
 */
export function createSilenceRegistry(options: {
  readonly store: Store;
  readonly log: Logger;
  readonly clock: Clock;
  readonly rules: () => CompiledRules;
  readonly intervalMs?: number;
}): SilenceRegistry {
  const { store, log, clock } = options;
  let stored: readonly StoredSilence[] = [];
  let compiledFor: CompiledRules | undefined;
  let compiled: readonly CompiledSilence[] = [];
  // By id and version, so that a refresh compiles only what changed: compiling 1,000 silences every second
  // (their globs and regexes) cost about a third of ingest's throughput (docs/decisions/noise-control-costs.md).
  let compiledById = new Map<string, { readonly updatedAt: number; readonly compiled: CompiledSilence | null }>();
  let byKind = new Map<string, (envelope: Envelope) => readonly CompiledSilence[]>();
  let failedLogged = false;

  const recompile = (rules: CompiledRules): void => {
    if (compiledFor !== rules) compiledById = new Map();
    compiledFor = rules;
    const next = new Map<string, { readonly updatedAt: number; readonly compiled: CompiledSilence | null }>();
    for (const silence of stored) {
      const known = compiledById.get(silence.id);
      if (known !== undefined && known.updatedAt === silence.updatedAt) {
        next.set(silence.id, known);
        continue;
      }
      const result = compileSilence(silence, rules, compileRegex);
      if (!result.ok)
        log.warn('a silence does not fit the rules in force; it is not applied', {
          silence: silence.id,
          problems: result.problems,
        });
      next.set(silence.id, { updatedAt: silence.updatedAt, compiled: result.ok ? result.compiled : null });
    }
    compiledById = next;
    compiled = [...next.values()].flatMap((entry) => (entry.compiled === null ? [] : [entry.compiled]));
    byKind = new Map();
  };
  const refresh = async (): Promise<void> => {
    try {
      const found = (await store.findSilences({ notEndedAt: clock.now(), limit: 100_000 })).reverse();
      failedLogged = false;
      const unchanged =
        found.length === stored.length &&
        found.every((silence, i) => silence.id === stored[i]?.id && silence.updatedAt === stored[i]?.updatedAt);
      stored = found;
      if (!unchanged || compiledFor !== options.rules()) recompile(options.rules());
    } catch (error) {
      // The last silences read stay in force: a journal outage must not unsilence a maintenance window.
      if (!failedLogged)
        log.error('reading silences from the journal failed; keeping the last ones', { error: String(error) });
      failedLogged = true;
    }
  };
  let seenVersion: number | undefined;
  // The read under way and the journal version seen before it began (so it holds every change up to then).
  let reading: { readonly version: number; readonly done: Promise<void> } | undefined;
  const check = async (): Promise<void> => {
    const version = await (store.changesByOthers?.() ?? Promise.resolve(undefined)).catch(() => seenVersion);
    if (version === undefined || version === seenVersion) return;
    if (reading?.version !== version) {
      const before = reading?.done ?? Promise.resolve();
      const done = before.then(refresh).finally(() => {
        seenVersion = version;
        if (reading?.done === done) reading = undefined;
      });
      reading = { version, done };
    }
    await reading.done;
  };
  // Asked once per turn of the event loop, not per event: the events whose bodies were read in the same turn
  // share one `PRAGMA data_version` (about 6 µs per event at 64 connections, issue 11) and one check of it (an
  // async call per event cost about 450 bytes of garbage). A silence another process committed before the turn
  // began is seen by all of them, as before.
  let checkThisTurn: Promise<void> | undefined;
  const upToDate = (): Promise<void> => {
    if (store.changesByOthers === undefined) return NOTHING_TO_READ;
    if (checkThisTurn === undefined) {
      checkThisTurn = check();
      setImmediate(() => (checkThisTurn = undefined));
    }
    return checkThisTurn;
  };
  // Where the journal tells of other writers (SQLite, one daemon), upToDate() is all it takes; the timer is for
  // instances sharing PostgreSQL, which learn of each other's silences only by reading them again.
  const timer =
    store.changesByOthers === undefined ? setInterval(() => void refresh(), options.intervalMs ?? 1_000) : undefined;
  timer?.unref();

  return {
    candidatesFor(envelope) {
      if (compiledFor !== options.rules()) recompile(options.rules());
      if (compiled.length === 0) return compiled;
      const kind = envelope.event;
      let candidates = byKind.get(kind);
      if (candidates === undefined) {
        candidates = indexSilences(compiled.filter((c) => c.matchesKind(kind)));
        // Bounded: event kinds are validated names, but a flood of distinct kinds must not grow this forever.
        if (byKind.size >= 1_000) byKind.clear();
        byKind.set(kind, candidates);
      }
      return candidates(envelope);
    },
    refresh,
    upToDate,
    stop: () => clearInterval(timer),
  };
}
