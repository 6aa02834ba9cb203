/**
 * The shapes the rules engine hands to the rest of the daemon. Loading (YAML → schema → compiled, frozen
 * rules) and matching live in their own files; ingest only needs `loadRulesFile` and `routeEvent`.
 */

/** One problem found in a rules file, located for editors and for `switchyard check`. */
export interface RulesProblem {
  readonly severity: 'error' | 'warning';
  readonly code: string;
  readonly message: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

export type TargetType = 'slack' | 'email' | 'http';

/** A named delivery target with its options, `${VAR}` already expanded. Options are typed by delivery. */
export interface TargetSpec {
  readonly name: string;
  readonly type: TargetType;
  readonly options: Readonly<Record<string, unknown>>;
}

/** How the event's `data.severity` was read against the configured levels. */
export interface SeverityReading {
  /** As received, or null when absent / not a string. */
  readonly raw: string | null;
  /** The configured level it maps to (case-insensitive); the highest level when `unknown`; null when absent. */
  readonly level: string | null;
  /** True when a severity was present but is not one of the configured levels. */
  readonly unknown: boolean;
}

export interface RouteDecision {
  readonly severity: SeverityReading;
  /** Names of the routes that matched, in order, up to and including a matching `stop: true` route. */
  readonly matchedRoutes: readonly string[];
  /** Targets to deliver to, each once, in first-seen order. Empty when dropped on purpose or unrouted. */
  readonly targets: readonly string[];
  /** True when no route matched and the fallback targets were used. */
  readonly usedFallback: boolean;
}

export interface CompiledRules {
  /** Absolute path of the file the rules came from. */
  readonly file: string;
  /** Content hash of the rules file (first 12 hex digits of SHA-256), stored with each routed event. */
  readonly version: string;
  /** Configured severity levels, lowest first. */
  readonly severities: readonly string[];
  readonly targets: ReadonlyMap<string, TargetSpec>;
  /** Values substituted from `${VAR}` references: the logger redacts them wherever they would appear. */
  readonly secrets: readonly string[];
}

export type RulesLoadResult =
  | { readonly ok: true; readonly rules: CompiledRules; readonly warnings: readonly RulesProblem[] }
  | { readonly ok: false; readonly problems: readonly RulesProblem[] };
