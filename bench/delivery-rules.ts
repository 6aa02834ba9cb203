/** The one target every delivery-benchmark journal delivers to (see fill-journal.ts). */
export const BENCH_TARGET = 'receiver';

export interface DeliveryRulesOptions {
  /** The receiver's origin, e.g. `http://127.0.0.1:43123`. */
  readonly origin: string;
  readonly concurrency: number;
  /** `rate_limit: { per_second, burst }`, or none. */
  readonly perSecond?: number;
}

/**
 * A rules file with one `http` target that forwards the event as received (no body template), no rate limit
 * unless asked, the default circuit breaker, retry policy and timeout.
 */
export function deliveryRules(options: DeliveryRulesOptions): string {
  const limit =
    options.perSecond === undefined ? '' : `\n    rate_limit: { per_second: ${options.perSecond}, burst: 1 }`;
  return `# Written by bench/delivery-rules.ts for the delivery benchmark.
targets:
  ${BENCH_TARGET}:
    type: http
    url: "${options.origin}/hook"
    concurrency: ${options.concurrency}${limit}
routes:
  - name: all
    match: { event: "*" }
    to: [${BENCH_TARGET}]
`;
}
