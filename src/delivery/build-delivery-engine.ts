import type { Metrics } from '../admin/metrics.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log/logger.js';
import type { CompiledRules } from '../rules/rules.js';
import type { Store } from '../store/store.js';
import { createDeliveryEngine, type DeliveryEngine } from './delivery-engine.js';
import { engineSecrets } from './engine-secrets.js';
import { createTarget } from './targets/create-target.js';

/** The daemon's delivery engine as main.ts builds it. */
export function buildDeliveryEngine(
  deps: { readonly store: Store; readonly log: Logger; readonly clock: Clock; readonly metrics: Metrics },
  rules: () => CompiledRules,
  configSecrets: readonly string[],
  options: { readonly random?: (() => number) | undefined; readonly pollIntervalMs: number | undefined },
): DeliveryEngine {
  const secrets = engineSecrets(configSecrets, rules);
  return createDeliveryEngine({ ...deps, ...options, rules, secrets, createTarget });
}
