import type { TargetSpec, TargetType } from '../rules.js';

/** Turns the schema-checked, env-expanded `targets` map into specs: everything but `type` is an option. */
export function compileTargets(
  targets: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
): Map<string, TargetSpec> {
  const specs = new Map<string, TargetSpec>();
  for (const [name, target] of Object.entries(targets)) {
    const { type, ...options } = target;
    specs.set(name, { name, type: type as TargetType, options });
  }
  return specs;
}
