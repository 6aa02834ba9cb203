import type { Clock } from '../clock.js';
import type { Logger } from '../log/logger.js';
import type { CompiledRules } from '../rules/rules.js';
import type { Store } from '../store/store.js';
import { createSilenceRegistry, type SilenceRegistry } from './create-silence-registry.js';
import { startDigestSender } from './start-digest-sender.js';
import { startSilenceReleaser } from './start-silence-releaser.js';

export interface NoiseControl {
  /** The silences in force, for ingest and the admin API. */
  readonly silences: SilenceRegistry;
  /** Stops the background jobs and the registry's timer. */
  stop(): Promise<void>;
}

/**
 * The daemon's noise-control parts that run on their own (issue 12): the silence registry, read once before
 * the first event; silences that ended and must send what they held (deliver_unresolved); digests that are due.
 */
export async function startNoiseControl(options: {
  readonly store: Store;
  readonly log: Logger;
  readonly clock: Clock;
  readonly rules: () => CompiledRules;
  /** Wakes the delivery engine: a released silence or a sent digest has new pending deliveries. */
  readonly wake: () => void;
  readonly silenceRefreshMs?: number | undefined;
  readonly silenceReleaseMs?: number | undefined;
  readonly digestSendMs?: number | undefined;
}): Promise<NoiseControl> {
  const { store, log, clock, rules, wake } = options;
  const silences = createSilenceRegistry({ store, log, clock, rules, intervalMs: options.silenceRefreshMs });
  await silences.refresh();
  const releaser = startSilenceReleaser({ store, log, clock, wake, intervalMs: options.silenceReleaseMs });
  const rulesVersion = () => rules().version;
  const digests = startDigestSender({ store, log, clock, wake, rulesVersion, intervalMs: options.digestSendMs });
  return {
    silences,
    async stop() {
      await digests.stop();
      await releaser.stop();
      silences.stop();
    },
  };
}
