import type { RetryPolicy } from '../rules/rules.js';

/**
 * When to try again after `attempts` failed attempts: exponential backoff with full jitter, i.e. a uniform
 * delay in [0, min(maxDelay, initialDelay · 2^(attempts-1))], so that retries after an outage spread out
 * instead of arriving together. https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/
 * `random` is in [0, 1) (Math.random in production, fixed in tests).
 */
export function nextAttemptAt(attempts: number, policy: RetryPolicy, random: number, now: number): number {
  const exponent = Math.max(0, attempts - 1);
  // 2^exponent overflows to Infinity for huge attempt counts; min() keeps the bound finite.
  const bound = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.min(exponent, 60));
  return now + Math.floor(bound * Math.min(Math.max(random, 0), 1));
}
