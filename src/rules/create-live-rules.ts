import type { Metrics } from '../admin/metrics.js';
import type { Logger } from '../log/logger.js';
import { loadRulesFile } from './load-rules-file.js';
import { describeInvalidRules, loadRulesOrThrow } from './load-rules-or-throw.js';
import type { CompiledRules, RulesLoadResult, RulesProblem } from './rules.js';

export type ReloadTrigger = 'signal' | 'watch' | 'admin';

export interface ReloadStatus {
  readonly ok: boolean;
  /** ms since the epoch of the last reload attempt, or null before any. */
  readonly at: number | null;
  readonly trigger: ReloadTrigger | null;
  /** The problems of the last failed reload (`file:line:column: ...`), or null. */
  readonly error: string | null;
}

export type ReloadOutcome =
  | { readonly ok: true }
  /** The file's problems (errors and warnings, located); the rules in force stay. */
  | { readonly ok: false; readonly problems: readonly RulesProblem[] };

/** Issue 13: when the rules in force were loaded, and how the last reload went (the console's overview). */
export interface RulesHistory {
  readonly loadedAt: number;
  /** Null before any reload; `problems` are those of a failed one (empty when it succeeded). */
  readonly lastReload: { readonly ok: boolean; readonly at: number; readonly problems: readonly RulesProblem[] } | null;
}

export interface LiveRules {
  /** The rules in force; one reference, read once per event, so no event sees half of two versions. */
  current(): CompiledRules;
  /** Loads and validates the whole file; on any error the rules in force stay. A file whose content did not
   * change (same hash) is not reloaded (counted as `unchanged`). Says whether the rules in force are now the file's. */
  reload(trigger: ReloadTrigger): ReloadOutcome;
  status(): ReloadStatus;
  history(): RulesHistory;
}

/** The daemon's rules: loaded at start (errors are fatal then) and swapped atomically on a valid reload. */
export function createLiveRules(options: {
  readonly file: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly log: Logger;
  readonly metrics: Metrics;
  readonly now: () => number;
}): LiveRules {
  const { file, env, log, metrics } = options;
  const first = loadRulesOrThrow(file, env);
  let rules = first.rules;
  let status: ReloadStatus = { ok: true, at: null, trigger: null, error: null };
  let history: RulesHistory = { loadedAt: options.now(), lastReload: null };
  log.addSecrets(rules.secrets);
  logWarnings(log, first.warnings);
  return {
    current: () => rules,
    status: () => status,
    history: () => history,
    reload(trigger) {
      const at = options.now();
      const result = loadSafely(file, env);
      if (!result.ok) {
        const message = describeInvalidRules(result.problems);
        status = { ok: false, at, trigger, error: message };
        history = { ...history, lastReload: { ok: false, at, problems: result.problems } };
        log.error('rules reload failed; the previous rules stay in force', {
          rules_version: rules.version,
          trigger,
          error: message,
        });
        metrics.increment('switchyard_rules_reloads_total', { result: 'failure' });
        return { ok: false, problems: result.problems };
      }
      const recovered = !status.ok;
      status = { ok: true, at, trigger, error: null };
      const changed = result.rules.version !== rules.version;
      history = { loadedAt: changed ? at : history.loadedAt, lastReload: { ok: true, at, problems: [] } };
      if (!changed) {
        metrics.increment('switchyard_rules_reloads_total', { result: 'unchanged' });
        // After a failed reload, putting back the version in force is a recovery the operator wants to see.
        if (recovered)
          log.info('rules are valid again; the rules in force are unchanged', {
            rules_version: rules.version,
            trigger,
          });
        else log.debug('rules file unchanged', { rules_version: rules.version, trigger });
        return { ok: true };
      }
      log.addSecrets(result.rules.secrets);
      logWarnings(log, result.warnings);
      log.info('rules reloaded', { from_version: rules.version, to_version: result.rules.version, trigger });
      rules = result.rules;
      metrics.increment('switchyard_rules_reloads_total', { result: 'success' });
      return { ok: true };
    },
  };
}

function logWarnings(log: Logger, warnings: readonly RulesProblem[]): void {
  for (const w of warnings) log.warn('rules warning', { where: `${w.file}:${w.line}:${w.column}`, message: w.message });
}

/** A bug in the compiler must not take the daemon down on a reload; it is reported like a problem of the file. */
function loadSafely(file: string, env: Readonly<Record<string, string | undefined>>): RulesLoadResult {
  try {
    return loadRulesFile(file, env, { requireEnv: true });
  } catch (error) {
    const message = `the rules file could not be loaded: ${error instanceof Error ? error.message : String(error)}`;
    return { ok: false, problems: [{ severity: 'error', code: 'load_failed', message, file, line: 0, column: 0 }] };
  }
}
