import type { Envelope } from '../ingest/envelope.js';

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
  /** 1-based; 0 (with column 0) when the problem concerns the whole file, e.g. it cannot be read. */
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
  /** Lower-cased level name → position in `severities`. */
  readonly severityRanks: ReadonlyMap<string, number>;
  readonly targets: ReadonlyMap<string, TargetSpec>;
  /** Values substituted from `${VAR}` references: the logger redacts them wherever they would appear. */
  readonly secrets: readonly string[];
  /** Routes in file order. */
  readonly routes: readonly CompiledRoute[];
  /** Targets for events no route matched; empty when there is no fallback. */
  readonly fallback: readonly string[];
  /** Finds the routes that can match an event kind without scanning routes for other kinds. */
  readonly index: RouteIndex;
}

/** What a compiled condition sees: the event and its severity, read once per event. */
export interface MatchContext {
  readonly envelope: Envelope;
  readonly severity: SeverityReading;
  /** Position of `severity.level` in the configured levels (unknown = highest); -1 when absent. */
  readonly rank: number;
}

/** One compiled condition of a route's `match`. */
export interface RouteCondition {
  readonly test: (context: MatchContext) => boolean;
  /** Why the condition does not hold, for `switchyard route`; only called after `test` returned false. */
  readonly explain: (context: MatchContext) => string;
}

export interface CompiledRoute {
  readonly name: string;
  /** Position in `routes`, 0-based. */
  readonly position: number;
  /** Line of the route in the rules file (for messages). */
  readonly line: number;
  /** The `match.event` patterns as written, or null when the route matches every kind. */
  readonly events: readonly string[] | null;
  /** The `match.event` condition; always true when `events` is null. */
  readonly kind: RouteCondition & { readonly matchesKind: (kind: string) => boolean };
  /** Severity and `where` conditions, in evaluation order (severity first). */
  readonly conditions: readonly RouteCondition[];
  readonly to: readonly string[];
  readonly stop: boolean;
}

export interface RouteIndex {
  /** Routes whose `match.event` accepts this kind, in file order. */
  readonly candidatesFor: (kind: string) => readonly CompiledRoute[];
}

export type RulesLoadResult =
  | { readonly ok: true; readonly rules: CompiledRules; readonly warnings: readonly RulesProblem[] }
  | { readonly ok: false; readonly problems: readonly RulesProblem[] };
