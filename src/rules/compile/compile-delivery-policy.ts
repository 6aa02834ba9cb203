import { parseDuration } from '../../config/parse-duration.js';
import type { DeliveryPolicy, RateLimit, TargetType } from '../rules.js';
import type { PathSegment } from '../source/locate-path.js';
import {
  DEFAULT_CIRCUIT,
  DEFAULT_CONCURRENCY,
  DEFAULT_RATE_LIMIT,
  DEFAULT_RETRY,
  DEFAULT_TIMEOUT_MS,
} from './delivery-defaults.js';
import type { TargetContext } from './target-context.js';
import { asNumber, type DeliveryOptionsYaml } from './target-yaml.js';

/** A duration option as read: its value in ms, and how to name it in a message. */
interface Setting {
  readonly ms: number;
  readonly text: string;
  /** Where it was written, or undefined when it is the default. */
  readonly path: readonly PathSegment[] | undefined;
}

/**
 * `retry`, `rate_limit`, `concurrency`, `circuit_breaker` and `timeout`, each field defaulted on its own,
 * and the relations between them checked where the schema cannot (`max_delay` >= `initial_delay`...).
 */
export function compileDeliveryPolicy(
  yaml: DeliveryOptionsYaml,
  type: TargetType,
  target: TargetContext,
): DeliveryPolicy {
  const duration = (value: unknown, fallbackMs: number, ...path: PathSegment[]): Setting => {
    const fallback: Setting = { ms: fallbackMs, text: `${formatMs(fallbackMs)}, the default`, path: undefined };
    const ms = typeof value === 'string' && !target.isBroken(...path) ? parseDuration(value) : undefined;
    if (ms === undefined) return fallback;
    if (ms === 0) {
      target.error('bad_duration', 'must be longer than 0', path);
      return fallback;
    }
    return { ms, text: value as string, path };
  };
  const count = (value: unknown, fallback: number, ...path: PathSegment[]): number =>
    target.isBroken(...path) ? fallback : (asNumber(value) ?? fallback);

  const initialDelay = duration(yaml.retry?.initial_delay, DEFAULT_RETRY.initialDelayMs, 'retry', 'initial_delay');
  const maxDelay = duration(yaml.retry?.max_delay, DEFAULT_RETRY.maxDelayMs, 'retry', 'max_delay');
  const maxAge = duration(yaml.retry?.max_age, DEFAULT_RETRY.maxAgeMs, 'retry', 'max_age');
  const timeout = duration(yaml.timeout, DEFAULT_TIMEOUT_MS, 'timeout');
  const cooldown = duration(yaml.circuit_breaker?.cooldown, DEFAULT_CIRCUIT.cooldownMs, 'circuit_breaker', 'cooldown');

  // Each contradiction is reported at the option the user wrote (the later one when both are written).
  if (maxDelay.ms < initialDelay.ms) {
    if (maxDelay.path !== undefined) {
      target.error('bad_policy', `must be at least retry.initial_delay (${initialDelay.text})`, maxDelay.path);
    } else {
      target.error('bad_policy', `must not be longer than retry.max_delay (${maxDelay.text})`, initialDelay.path ?? []);
    }
  }
  if (timeout.ms >= maxAge.ms) {
    const why = 'no attempt could finish before the delivery expires';
    if (timeout.path !== undefined) {
      target.error('bad_policy', `must be shorter than retry.max_age (${maxAge.text}): ${why}`, timeout.path);
    } else {
      target.error('bad_policy', `must be longer than timeout (${timeout.text}): ${why}`, maxAge.path ?? []);
    }
  }
  if (cooldown.ms >= maxAge.ms) {
    target.warning(
      'long_cooldown',
      `circuit_breaker.cooldown (${cooldown.text}) is not shorter than retry.max_age (${maxAge.text}): deliveries queued during one outage would all expire`,
      cooldown.path ?? maxAge.path ?? [],
    );
  }

  return {
    retry: {
      initialDelayMs: initialDelay.ms,
      maxDelayMs: Math.max(maxDelay.ms, initialDelay.ms),
      maxAttempts: count(yaml.retry?.max_attempts, DEFAULT_RETRY.maxAttempts, 'retry', 'max_attempts'),
      maxAgeMs: maxAge.ms,
    },
    rateLimit: compileRateLimit(yaml, type, target),
    concurrency: count(yaml.concurrency, DEFAULT_CONCURRENCY[type], 'concurrency'),
    circuit: {
      failures: count(yaml.circuit_breaker?.failures, DEFAULT_CIRCUIT.failures, 'circuit_breaker', 'failures'),
      cooldownMs: cooldown.ms,
    },
    timeoutMs: timeout.ms,
  };
}

/** `burst` defaults to `per_second` rounded up: a one-second burst, never less than one send. */
function compileRateLimit(yaml: DeliveryOptionsYaml, type: TargetType, target: TargetContext): RateLimit | null {
  if (yaml.rate_limit === undefined || target.isBroken('rate_limit')) return DEFAULT_RATE_LIMIT[type];
  const perSecond = asNumber(yaml.rate_limit?.per_second);
  if (perSecond === undefined) return DEFAULT_RATE_LIMIT[type];
  return { perSecond, burst: asNumber(yaml.rate_limit?.burst) ?? Math.max(1, Math.ceil(perSecond)) };
}

/** 600000 → `10m`, for messages about defaults. */
function formatMs(ms: number): string {
  for (const [unit, size] of [
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1_000],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}
