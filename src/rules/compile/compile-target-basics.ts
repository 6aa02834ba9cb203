import type { DeliveryPolicy, TargetType } from '../rules.js';
import { compileDeliveryPolicy } from './compile-delivery-policy.js';
import type { TargetContext } from './target-context.js';
import { asBoolean, type DeliveryOptionsYaml } from './target-yaml.js';

/** What every target spec starts with: its name and type, its delivery policy, `allow_link_local` and `follow`. */
export function compileTargetBasics<T extends TargetType>(
  yaml: DeliveryOptionsYaml,
  type: T,
  target: TargetContext,
): { name: string; type: T; policy: DeliveryPolicy; allowLinkLocal: boolean; follow?: boolean } {
  return {
    name: target.name,
    type,
    policy: compileDeliveryPolicy(yaml, type, target),
    allowLinkLocal: asBoolean(yaml.allow_link_local) ?? false,
    ...(typeof yaml.follow === 'boolean' && { follow: yaml.follow }),
  };
}
