import type { ReloadStatus } from '../rules/create-live-rules.js';
import type { Store } from '../store/store.js';

export interface Check {
  readonly ok: boolean;
  readonly error?: string;
}

export interface Readiness {
  /** Accepting, journal reachable and the last commit succeeded: the load balancer may send webhooks. */
  readonly ready: boolean;
  readonly checks: {
    readonly listening: Check;
    readonly journal: Check;
    readonly ingest: Check;
    /** A failed reload keeps the previous rules serving, so it is reported here but does not make the daemon unready. */
    readonly rules: Check & {
      readonly version: string;
      /** `at` as ISO 8601, like every time the admin surfaces show. */
      readonly last_reload: Omit<ReloadStatus, 'at'> & { readonly at: string | null };
    };
  };
}

export interface ReadinessSources {
  readonly accepting: () => boolean;
  readonly store: Store;
  readonly rulesVersion: () => string;
  readonly reloadStatus: () => ReloadStatus;
  /** The error of the last group commit, or null when it succeeded (or none has run yet). */
  readonly lastCommitError: () => string | null;
  /** Called when a write probe succeeded after a failed commit: the journal takes writes again. */
  readonly clearCommitError: () => void;
  /** SQLite: the bytes free beside the journal (undefined when unreadable). Absent on PostgreSQL. */
  readonly freeBytes?: (() => number | undefined) | undefined;
  /** The room a failed journal must have again before the probe clears the failure. */
  readonly roomBytes: number;
}

/** What /readyz reports: each check with what is wrong, so an operator sees why without reading logs. */
export async function checkReadiness(sources: ReadinessSources): Promise<Readiness> {
  const listening: Check = sources.accepting() ? { ok: true } : { ok: false, error: 'starting or shutting down' };
  let journal: Check = { ok: true };
  try {
    await sources.store.ping();
  } catch (error) {
    journal = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  let commitError = sources.lastCommitError();
  if (commitError !== null && journal.ok) {
    // Not ready since a commit failed. A load balancer then stops sending webhooks, so no commit would ever
    // clear it: probe a write instead. Its one page fits where an event may not (a WAL reused after a
    // checkpoint needs no new space), so on a nearly full disk it would clear the failure at every probe and
    // the next webhook would fail again: room for the largest events is asked for too.
    try {
      await sources.store.ping({ write: true });
      commitError = lackOfRoom(sources);
      if (commitError === null) sources.clearCommitError();
    } catch {
      // Still failing; the last commit's error says why.
    }
  }
  const ingest: Check = commitError === null ? { ok: true } : { ok: false, error: commitError };
  const reload = sources.reloadStatus();
  const rules = {
    ...(reload.ok ? { ok: true } : { ok: false, error: 'the last reload failed; the previous rules stay in force' }),
    version: sources.rulesVersion(),
    last_reload: { ...reload, at: reload.at === null ? null : new Date(reload.at).toISOString() },
  };
  return { ready: listening.ok && journal.ok && ingest.ok, checks: { listening, journal, ingest, rules } };
}

function lackOfRoom(sources: ReadinessSources): string | null {
  const free = sources.freeBytes?.();
  if (free === undefined || free >= sources.roomBytes) return null;
  return `the journal's disk has ${free} bytes free; ingest is ready again once it has ${sources.roomBytes}`;
}
