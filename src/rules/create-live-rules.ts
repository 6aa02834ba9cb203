import type { Metrics } from '../admin/metrics.js';
import type { Logger } from '../log/logger.js';
import { SwitchyardError } from '../switchyard-error.js';
import { loadRulesOrThrow } from './load-rules-or-throw.js';
import type { CompiledRules, RulesProblem } from './rules.js';

export type ReloadTrigger = 'signal' | 'watch' | 'admin';

export interface ReloadStatus {
  readonly ok: boolean;
  /** ms since the epoch of the last reload attempt, or null before any. */
  readonly at: number | null;
  readonly trigger: ReloadTrigger | null;
  /** The problems of the last failed reload (`file:line:column: ...`), or null. */
  readonly error: string | null;
}

export interface LiveRules {
  /** The rules in force; one reference, read once per event, so no event sees half of two versions. */
  current(): CompiledRules;
  /** Loads and validates the whole file; on any error the rules in force stay. A file whose content did not
   * change (same hash) is not reloaded. Returns whether the rules in force are now the file's. */
  reload(trigger: ReloadTrigger): boolean;
  status(): ReloadStatus;
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
  log.addSecrets(rules.secrets);
  logWarnings(log, first.warnings);
  return {
    current: () => rules,
    status: () => status,
    reload(trigger) {
      const at = options.now();
      try {
        const next = loadRulesOrThrow(file, env);
        status = { ok: true, at, trigger, error: null };
        if (next.rules.version === rules.version) {
          log.debug('rules file unchanged', { rules_version: rules.version, trigger });
          return true;
        }
        log.addSecrets(next.rules.secrets);
        logWarnings(log, next.warnings);
        log.info('rules reloaded', { from_version: rules.version, to_version: next.rules.version, trigger });
        rules = next.rules;
        metrics.increment('switchyard_rules_reloads_total', { result: 'success' });
        return true;
      } catch (error) {
        const message = error instanceof SwitchyardError ? error.message : String(error);
        status = { ok: false, at, trigger, error: message };
        log.error('rules reload failed; the previous rules stay in force', {
          rules_version: rules.version,
          trigger,
          error: message,
        });
        metrics.increment('switchyard_rules_reloads_total', { result: 'failure' });
        return false;
      }
    },
  };
}

function logWarnings(log: Logger, warnings: readonly RulesProblem[]): void {
  for (const w of warnings) log.warn('rules warning', { where: `${w.file}:${w.line}:${w.column}`, message: w.message });
}
