import type { CompiledRules, DeliveryPolicy, TargetSpec } from '../../rules/rules.js';

/**
 * The rules in force, for people and dashboards, WITHOUT target options: URLs (a Slack webhook URL is its own
 * credential), headers, auth, signing secrets and SMTP settings may all hold secrets. Fields are copied one by
 * one (an allowlist), so an option added to a target type later is not exposed by accident.
 */
export function describeRules(rules: CompiledRules) {
  return {
    version: rules.version,
    severities: rules.severities,
    routes: rules.routes.map((route) => ({
      name: route.name,
      line: route.line,
      events: route.events,
      to: route.to,
      stop: route.stop,
    })),
    fallback: rules.fallback,
    targets: [...rules.targets.values()].map(describeTarget),
  };
}

export function describeTarget(spec: TargetSpec) {
  return { name: spec.name, type: spec.type, allowLinkLocal: spec.allowLinkLocal, policy: describePolicy(spec.policy) };
}

function describePolicy(policy: DeliveryPolicy) {
  const { retry, rateLimit, circuit } = policy;
  return {
    retry: {
      initialDelayMs: retry.initialDelayMs,
      maxDelayMs: retry.maxDelayMs,
      maxAttempts: retry.maxAttempts,
      maxAgeMs: retry.maxAgeMs,
    },
    rateLimit: rateLimit === null ? null : { perSecond: rateLimit.perSecond, burst: rateLimit.burst },
    concurrency: policy.concurrency,
    circuit: { failures: circuit.failures, cooldownMs: circuit.cooldownMs },
    timeoutMs: policy.timeoutMs,
  };
}
