import { compileThrottle } from '../../noise/compile-throttle.js';
import type { TargetSpec } from '../rules.js';
import { compileEmailTarget } from './compile-email-target.js';
import { compileHttpTarget } from './compile-http-target.js';
import { compilePagerdutyTarget } from './compile-pagerduty-target.js';
import { compileSlackTarget } from './compile-slack-target.js';
import { compileTeamsTarget } from './compile-teams-target.js';
import { createTargetContext, type TargetContext, type TargetContextDeps } from './target-context.js';

/**
 * Turns the env-expanded `targets` map into typed, defaulted specs, reporting what the schema cannot see:
 * template syntax errors, options that exclude each other, policy bounds that contradict. It also runs on
 * targets the schema rejected (skipping the rejected parts), so one `check` shows every problem; the specs
 * are only used when no error was reported.
 */
export function compileTargets(
  targets: Readonly<Record<string, unknown>>,
  deps: TargetContextDeps,
): Map<string, TargetSpec> {
  const specs = new Map<string, TargetSpec>();
  for (const [name, yaml] of Object.entries(targets)) {
    if (yaml === null || typeof yaml !== 'object' || Array.isArray(yaml)) continue;
    const target = createTargetContext(name, deps);
    const spec = compileTarget((yaml as { type?: unknown }).type, yaml, target);
    if (spec === undefined) continue;
    const raw = (yaml as { throttle?: unknown }).throttle;
    const throttle = target.isBroken('throttle')
      ? undefined
      : compileThrottle(
          raw,
          `target:${name}`,
          (text) => target.template(text, 'none', 'throttle', 'key'),
          (message) => target.error('zero_throttle_window', message, ['throttle', 'window']),
        );
    specs.set(name, throttle === undefined ? spec : { ...spec, throttle });
  }
  return specs;
}

/** The target of its `type`; undefined for an unknown type (the schema reports it). */
function compileTarget(type: unknown, yaml: object, target: TargetContext): TargetSpec | undefined {
  switch (type) {
    case 'slack':
      return compileSlackTarget(yaml, target);
    case 'teams':
      return compileTeamsTarget(yaml, target);
    case 'email':
      return compileEmailTarget(yaml, target);
    case 'http':
      return compileHttpTarget(yaml, target);
    case 'pagerduty':
      return compilePagerdutyTarget(yaml, target);
    default:
      return undefined;
  }
}
