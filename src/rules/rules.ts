import type { Envelope } from '../ingest/envelope.js';
import type { CompiledGroup } from '../noise/compile-group.js';
import type { CompiledThrottle } from '../noise/compile-throttle.js';
import type { TimeRange } from '../noise/time-interval.js';
import type { Template, TemplateTree } from '../templates/template.js';
import type { HttpBody, HttpRequests, UrlTemplate } from './http-requests.js';

export type { HttpBody, HttpCapture, HttpRequestSpec, HttpRequests, UrlTemplate } from './http-requests.js';

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

export type TargetType = 'slack' | 'teams' | 'email' | 'http' | 'pagerduty';

/** Per-target retry bounds (rules file `retry:`); defaults: 1 s doubling to 10 min, 12 attempts, 24 h. */
export interface RetryPolicy {
  /** Upper bound of the first retry's delay (full jitter: the delay is uniform in [0, bound]). */
  readonly initialDelayMs: number;
  /** Cap of the exponential bound, and of any `Retry-After`. */
  readonly maxDelayMs: number;
  readonly maxAttempts: number;
  /** No attempt is scheduled later than this after the event was received (or replayed). */
  readonly maxAgeMs: number;
}

/** Token bucket: `burst` sends at once, then `perSecond` on average. */
export interface RateLimit {
  readonly perSecond: number;
  readonly burst: number;
}

/** After `failures` consecutive retryable failures the target pauses for `cooldownMs`, then is probed once. */
export interface CircuitPolicy {
  readonly failures: number;
  readonly cooldownMs: number;
}

/** How the engine paces one target; every field has a default in the rules compiler. */
export interface DeliveryPolicy {
  readonly retry: RetryPolicy;
  readonly rateLimit: RateLimit | null;
  /** Attempts in flight at once for this target. */
  readonly concurrency: number;
  readonly circuit: CircuitPolicy;
  /** Per-attempt timeout, connection included. */
  readonly timeoutMs: number;
}

interface TargetSpecBase {
  readonly name: string;
  readonly policy: DeliveryPolicy;
  /** `allow_link_local: true`: the target may reach 169.254.0.0/16, fe80::/10 and cloud-metadata addresses. */
  readonly allowLinkLocal: boolean;
  /**
   * `follow:`: the incidents this target received send it their later updates and resolve even when no route
   * does (src/lifecycle/follow-candidates.ts). Absent: on for targets with a lifecycle or a `key:`, off for others.
   */
  readonly follow?: boolean;
  /**
   * Issue 14: `key:` rendered per event at ingest; deliveries with the same key are sent one at a time, in order.
   * Null = the default key (src/lifecycle/default-correlation-key.ts) for targets that keep a lifecycle (see
   * src/lifecycle/uses-lifecycle.ts), no ordering for the others.
   */
  readonly correlationKey?: Template | null;
  /** Issue 12: `throttle:`; it wins over the throttle of the route that sent the event here. */
  readonly throttle?: CompiledThrottle | undefined;
}

export interface SlackTargetSpec extends TargetSpecBase {
  readonly type: 'slack';
  /** An incoming webhook, or null for a Web API target (`token:`); exactly one of the two is set. */
  readonly webhookUrl: string | null;
  /** Issue 14: a bot token for the Web API (chat.postMessage, chat.update: a thread per correlation key). */
  readonly token: string | null;
  /** The Web API's base URL, ending in `/`; `https://slack.com/api/` unless a test points it elsewhere. */
  readonly baseUrl: string;
  /** A webhook's channel override; the channel a Web API target posts to (required there). */
  readonly channel: string | null;
  readonly username: string | null;
  readonly iconEmoji: string | null;
  /** `message:` (Slack's payload: text, blocks, attachments) with template leaves; null = the default message. */
  readonly message: TemplateTree | null;
}

export interface TeamsTargetSpec extends TargetSpecBase {
  readonly type: 'teams';
  /** A Teams Workflows webhook ("When a Teams webhook request is received"); its `sig` query is the secret. */
  readonly webhookUrl: string;
  /**
   * `message:` with template leaves: an Adaptive Card (`type: AdaptiveCard`, sent as the attachment's content)
   * or the whole payload (`type: message`); null = the default card.
   */
  readonly message: TemplateTree | null;
}

/**
 * Certificates to trust for a target's TLS instead of the system's public roots: PEM text (normally from
 * `${VAR}`) or an absolute path to a PEM file, read when the target is set up.
 */
export type TrustedCa = { readonly pem: string } | { readonly file: string };

/** The SMTP server; the URL form (`smtp: { url }`) is compiled into the same fields. */
export interface SmtpSettings {
  readonly host: string;
  readonly port: number;
  /** TLS from the first byte (port 465); false = plain, upgraded by STARTTLS when the server offers it. */
  readonly secure: boolean;
  /** Refuse to send (and to log in) unless STARTTLS succeeds; on by default with `auth` (see compile). */
  readonly requireTls: boolean;
  /** `allow_insecure_auth: true`: the password may go over a connection without TLS. */
  readonly allowInsecureAuth: boolean;
  readonly auth: { readonly user: string; readonly pass: string } | null;
  /** The EHLO name; null = nodemailer's default (the host name when it has a dot, else `[127.0.0.1]`). */
  readonly name: string | null;
  readonly ca: TrustedCa | null;
}

/** What a message the server took for some recipients but refused for others counts as (`on_partial_refusal`). */
export type PartialRefusalPolicy = 'retry_refused' | 'dead_letter' | 'delivered';

export interface EmailTargetSpec extends TargetSpecBase {
  readonly type: 'email';
  readonly smtp: SmtpSettings;
  readonly onPartialRefusal: PartialRefusalPolicy;
  readonly from: string;
  readonly to: readonly string[];
  readonly cc: readonly string[];
  /** Null = the default for the event kind. */
  readonly subject: Template | null;
  readonly text: Template | null;
  readonly html: Template | null;
}

export interface HttpTargetSpec extends TargetSpecBase {
  readonly type: 'http';
  /** The one request of a target without `requests:` (url, method, body); with `requests:`, url is '' and unused. */
  readonly url: string;
  /** Issue 14: set when `url` holds templates. */
  readonly urlTemplate?: UrlTemplate | null;
  /** Issue 14: `requests:` one request per situation, instead of url, method and body. */
  readonly requests?: HttpRequests | null;
  readonly method: 'POST' | 'PUT' | 'PATCH';
  readonly headers: Readonly<Record<string, string>>;
  readonly auth:
    | { readonly kind: 'bearer'; readonly token: string }
    | { readonly kind: 'basic'; readonly username: string; readonly password: string }
    | null;
  readonly body: HttpBody;
  /** `sign: { secret }`: adds `X-Switchyard-Signature: sha256=<hex HMAC of the body>`. */
  readonly signingSecret: string | null;
  /** `ca:` certificates trusted for https:// instead of the public roots; null = the public roots. */
  readonly ca?: TrustedCa | null;
}

/** PagerDuty's four severities (Events API v2 `payload.severity`). */
export type PagerdutySeverity = 'critical' | 'error' | 'warning' | 'info';

/** PagerDuty Events API v2; `key:` is the base's `correlationKey` (the `dedup_key`). */
export interface PagerdutyTargetSpec extends TargetSpecBase {
  readonly type: 'pagerduty';
  /** The integration key: a secret, sent in the body of every event. */
  readonly routingKey: string;
  /** Without a trailing slash; events are posted to `${baseUrl}/v2/enqueue`. */
  readonly baseUrl: string;
  /** `severity_map:`, keys lower-cased: overrides of the default mapping (map-pagerduty-severity.ts). */
  readonly severityMap: ReadonlyMap<string, PagerdutySeverity>;
}

/** A named delivery target, `${VAR}` already expanded, options typed and defaulted. */
export type TargetSpec = SlackTargetSpec | TeamsTargetSpec | EmailTargetSpec | HttpTargetSpec | PagerdutyTargetSpec;

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
  /**
   * Issue 12: targets reached only through routes muted now (`muted_during`), with the interval that muted
   * them; their deliveries are recorded `muted`. Absent when none.
   */
  readonly muted?: Readonly<Record<string, string>>;
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
  /** Issue 12: `throttle:` on the deliveries this route creates. */
  readonly throttle?: CompiledThrottle | undefined;
  /** Issue 12: `group:` collects the deliveries this route creates into digests. */
  readonly group?: CompiledGroup | undefined;
  /** Issue 12: `active_during:` the route applies only while one of these holds. */
  readonly activeDuring?: readonly NamedTimeInterval[] | undefined;
  /** Issue 12: `muted_during:` while one holds, the route's deliveries are recorded muted. */
  readonly mutedDuring?: readonly NamedTimeInterval[] | undefined;
}

export interface NamedTimeInterval {
  readonly name: string;
  readonly ranges: readonly TimeRange[];
}

export interface RouteIndex {
  /** Routes whose `match.event` accepts this kind, in file order. */
  readonly candidatesFor: (kind: string) => readonly CompiledRoute[];
}

export type RulesLoadResult =
  | { readonly ok: true; readonly rules: CompiledRules; readonly warnings: readonly RulesProblem[] }
  | { readonly ok: false; readonly problems: readonly RulesProblem[] };
