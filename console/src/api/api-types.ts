/** The admin API's answers, as the console reads them (docs/admin-api.md and CONSOLE-CONTRACT). */

export type Scope = 'read' | 'replay' | 'silence' | 'repair';

export interface Session {
  readonly key: string;
  readonly scopes: readonly string[];
  readonly csrfToken: string;
  readonly expiresAt: string;
}

export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | null;
  /** GET /events: set when the search's scan bound ended the page (more may match further back). */
  readonly scanned?: ScanStop | null;
}

export interface ScanStop {
  readonly events: number;
  readonly reachedAt: string;
}

export interface Problem {
  readonly severity: 'error' | 'warning' | string;
  readonly code: string;
  readonly message: string;
  readonly file?: string;
  readonly line: number;
  readonly column: number;
}

export interface EventSummary {
  readonly id: string;
  readonly source: string;
  readonly kind: string;
  readonly severity: string | null;
  readonly occurredAt: string;
  readonly receivedAt: string;
  readonly rulesVersion: string;
  readonly matchedRoutes: readonly string[];
  readonly title?: string | null;
}

export type DeliveryState =
  'pending' | 'delivered' | 'dead' | 'skipped' | 'silenced' | 'muted' | 'suppressed' | 'grouped';
export const DELIVERY_STATES: readonly DeliveryState[] = [
  'pending',
  'delivered',
  'dead',
  'skipped',
  'suppressed',
  'grouped',
  'silenced',
  'muted',
];

export interface Delivery {
  readonly id: string;
  readonly eventId: string;
  readonly target: string;
  readonly state: DeliveryState;
  readonly attempts: number;
  readonly nextAttemptAt: string | null;
  readonly lastError: string | null;
  readonly heldBy?: string | null;
  readonly heldReason?: string | null;
  readonly correlationKey?: string | null;
  readonly waitingReason?: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface Attempt {
  readonly number: number;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly outcome: 'delivered' | 'retry' | 'dead' | string;
  readonly statusCode: number | null;
  readonly detail: string | null;
}

export interface Reference {
  readonly target?: string;
  /** Absent on an event's delivery, whose `correlationKey` it is. */
  readonly key?: string;
  readonly values: Readonly<Record<string, string>>;
  readonly updatedAt: number | string;
}

export interface EventDelivery extends Delivery {
  readonly history?: readonly Attempt[];
  readonly references?: readonly Reference[];
}

export interface RouteStep {
  readonly route: string;
  readonly line: number;
  readonly outcome: 'matched' | 'not-matched' | 'not-evaluated';
  readonly failed: string | null;
  readonly to: readonly string[];
  readonly stop: boolean;
  readonly mutedBy?: string;
}

export interface RequestExplanation {
  readonly target: string;
  readonly key: string | null;
  readonly request: string;
  readonly because: string;
}

/** How the event's `data.severity` was read against the configured levels. */
export interface SeverityReading {
  readonly raw: string | null;
  readonly level: string | null;
  readonly unknown: boolean;
}

export interface Routing {
  readonly rules?: { readonly version: string };
  readonly severity?: SeverityReading | string | null;
  readonly matchedRoutes: readonly string[];
  readonly targets: readonly string[];
  readonly usedFallback: boolean;
  readonly stoppedBy: string | null;
  readonly routes: readonly RouteStep[];
  /** Targets an update or resolve follows its incident to, besides the routes', and why. */
  readonly followed?: readonly { readonly target: string; readonly reason: string }[];
  readonly requests?: readonly RequestExplanation[];
  readonly silencedBy?: { readonly id: string; readonly comment: string; readonly createdBy: string } | null;
  readonly muted?: unknown;
}

export interface Explanation extends Routing {
  readonly rulesVersionNow?: string;
  readonly rulesVersionAtIngest?: string;
  readonly sameRules?: boolean;
}

export interface EventDetail extends EventSummary {
  readonly body: unknown;
  readonly explanation?: Explanation | null;
  /** Set for a digest event (`switchyard.digest`): what it collected; it has no routing explanation. */
  readonly digest?: DigestFacts | null;
  readonly deliveries: readonly EventDelivery[];
}

export interface DigestFacts {
  readonly route: string;
  readonly target: string;
  readonly digestId: string;
  readonly count: number;
  readonly eventIds: readonly string[];
}

export interface TargetHealth {
  readonly name: string;
  readonly type: string | null;
  readonly inRules: boolean;
  readonly pending: number;
  readonly dead: number;
  readonly inFlight: number;
  readonly awaitingRecord: number;
  readonly circuit: 'closed' | 'open' | 'half-open' | null;
  readonly nextProbeAt: string | null;
  readonly pausedUntil: string | null;
  readonly retrying?: number;
  readonly lastError?: string | null;
  readonly lastErrorAt?: string | null;
}

export interface MinuteCount {
  readonly minute: string;
  readonly kind: string;
  readonly severity: string | null;
  readonly count: number;
}

export interface Overview {
  readonly now: string;
  readonly rules: {
    readonly version: string;
    readonly loadedAt: string;
    readonly lastReload: { readonly ok: boolean; readonly at: string; readonly problems: readonly Problem[] } | null;
  };
  /** Each row of `eventsPerMinute` counts a bucket of this many minutes (the chart's bar width). */
  readonly bucketMinutes: number;
  readonly eventsPerMinute: readonly MinuteCount[];
  readonly deliveriesByState: Readonly<Partial<Record<DeliveryState, number>>>;
  readonly targets: readonly TargetHealth[];
}

export interface Changes {
  readonly events: readonly EventSummary[];
  readonly deliveries: readonly Delivery[];
  readonly cursor: string;
  /** A list came back full: more changed than one answer holds. */
  readonly more?: boolean;
}

export interface ReplayAnswer {
  readonly dryRun: boolean;
  readonly count: number;
  readonly ids: readonly string[];
  readonly skippedDelivered?: number;
  readonly message?: string;
}

export interface RulesCheck {
  readonly valid: boolean;
  readonly problems: readonly Problem[];
  readonly version: string | null;
  readonly routing: Routing | null;
}

export interface RulesDescription {
  readonly version: string;
  readonly severities?: readonly string[];
  /** The rules file's text, when the API offers it. */
  readonly text?: string;
}

export type SilenceStatus = 'active' | 'pending' | 'expired';

export interface WhereCondition {
  readonly field: string;
  readonly [operator: string]: unknown;
}

export interface SilenceMatch {
  readonly event?: string | readonly string[];
  readonly severity?: unknown;
  readonly where?: readonly WhereCondition[];
}

export interface Silence {
  readonly id: string;
  readonly status: SilenceStatus;
  readonly match: SilenceMatch;
  readonly startsAt: string;
  readonly endsAt: string;
  readonly comment: string;
  readonly createdBy: string;
  readonly onExpiry: 'drop' | 'deliver_unresolved';
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface NewSilence {
  readonly match: SilenceMatch;
  readonly duration: string;
  readonly comment: string;
  readonly on_expiry: 'drop' | 'deliver_unresolved';
}
