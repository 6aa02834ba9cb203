import type { Metrics } from '../admin/metrics.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import type { Logger } from '../log/logger.js';
import type { SilenceRegistry } from '../noise/create-silence-registry.js';
import type { SourceWatch } from '../noise/watch-sources.js';
import type { CompiledRules } from '../rules/rules.js';
import type { IngestItem, IngestResult } from '../store/store.js';
import type { BodyBudget } from './body-budget.js';

/** What the ingest path needs, passed in by the composition root (src/main.ts). */
export interface IngestContext {
  readonly config: Config;
  readonly log: Logger;
  readonly clock: Clock;
  readonly metrics: Metrics;
  /** The rules in force; replaced as a whole on reload, so one request sees one version. */
  readonly rules: () => CompiledRules;
  /** Group-commit submit: resolves once the item is durable. */
  readonly commit: (item: IngestItem) => Promise<IngestResult>;
  readonly newEventId: (nowMs: number) => string;
  /** Body bytes held before their signature is checked, shared by all requests. */
  readonly bodyBudget: BodyBudget;
  /** Notes verified events and failed verifications per source, for `expect_events_within` (issue 12). */
  readonly sourceWatch?: Pick<SourceWatch, 'seen' | 'rejected'>;
  /** Silences in force (issue 12); absent = none. */
  readonly silences?: Pick<SilenceRegistry, 'candidatesFor' | 'upToDate'>;
}
