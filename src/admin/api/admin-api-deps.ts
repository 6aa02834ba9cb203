import type { Clock } from '../../clock.js';
import type { AdminKeyConfig } from '../../config/config.js';
import type { TargetStatus } from '../../delivery/target-status.js';
import type { Logger } from '../../log/logger.js';
import type { SilenceRegistry } from '../../noise/create-silence-registry.js';
import type { ReloadOutcome, RulesHistory } from '../../rules/create-live-rules.js';
import type { CompiledRules, RulesLoadResult } from '../../rules/rules.js';
import type { Store } from '../../store/store.js';
import type { Metrics } from '../metrics.js';
import type { AuthRefusals } from './create-auth-refusals.js';
import type { ConsoleSessions } from './create-console-sessions.js';

/** What the admin API reads and acts on; the daemon's composition root passes these in. */
export interface AdminApiDeps {
  readonly store: Store;
  /** The rules in force (read on every request, so a reload shows at once). */
  readonly rules: () => CompiledRules;
  /** The delivery engine's per-target state. */
  readonly engineStatus: () => readonly TargetStatus[];
  /** Reloads the rules file; when it is invalid the rules in force stay and the problems are returned (and logged). */
  readonly reloadRules: () => ReloadOutcome | Promise<ReloadOutcome>;
  /** Issue 13: when the rules in force were loaded and how the last reload went (absent: unknown, shown as null). */
  readonly rulesHistory?: () => RulesHistory;
  /** Issue 13: compiles rules text as a reload would compile the file, touching nothing (POST /rules/check). */
  readonly checkRules?: (text: string) => RulesLoadResult;
  /** Configured keys (hashes only); none = the API answers 403 to everything. */
  readonly keys: readonly AdminKeyConfig[];
  /** Shared with /metrics, so a guesser is slowed down across both. */
  readonly refusals: AuthRefusals;
  readonly log: Logger;
  readonly metrics: Metrics;
  readonly clock: Clock;
  /** Asks the delivery engine to look for due deliveries now, after a replay; without it, its next poll finds them. */
  readonly wakeDeliveries?: () => void;
  /** Re-read after a silence changes, so it holds on this instance at once (issue 12). */
  readonly silences?: Pick<SilenceRegistry, 'refresh'>;
  /** The console's sign-in sessions: given on the admin listener only (no console under /admin on the main one). */
  readonly sessions?: ConsoleSessions | undefined;
}
