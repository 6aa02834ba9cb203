/** The one target every delivery-benchmark journal delivers to (see fill-journal.ts). */
export const BENCH_TARGET = 'receiver';

export interface DeliveryRulesOptions {
  /** The receiver's origin, e.g. `http://127.0.0.1:43123`. */
  readonly origin: string;
  readonly concurrency: number;
  /** `rate_limit: { per_second, burst }`, or none. */
  readonly perSecond?: number;
  /**
   * A lifecycle target (issue 14): the one URL as `requests.create`, so that every delivery has a correlation
   * key (the default, `incident:<data.incident_id>`), is sent after its key's earlier ones, and records its key's
   * references when delivered. The benchmarks' incident ids are distinct, so every delivery is a create.
   */
  readonly lifecycle?: boolean;
}

/**
 * A rules file with one `http` target that forwards the event as received (no body template), no rate limit
 * unless asked, the default circuit breaker, retry policy and timeout; a lifecycle target if asked.
 */
export function deliveryRules(options: DeliveryRulesOptions): string {
  const limit =
    options.perSecond === undefined ? '' : `\n    rate_limit: { per_second: ${options.perSecond}, burst: 1 }`;
  return `# Written by bench/delivery-rules.ts for the delivery benchmark.
targets:
  ${BENCH_TARGET}:
    type: http
    ${options.lifecycle === true ? `requests: { create: { url: "${options.origin}/hook" } }` : `url: "${options.origin}/hook"`}
    concurrency: ${options.concurrency}${limit}
routes:
  - name: all
    match: { event: "*" }
    to: [${BENCH_TARGET}]
`;
}
