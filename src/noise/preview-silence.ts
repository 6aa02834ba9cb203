import type { Envelope } from '../ingest/envelope.js';
import { compileRegex } from '../rules/compile/compile-regex.js';
import { readSeverity } from '../rules/match/read-severity.js';
import type { CompiledRules } from '../rules/rules.js';
import type { EventSummary, Store } from '../store/store.js';
import type { StoredSilence } from '../store/stored-silence.js';
import { compileSilence } from './compile-silence.js';
import { groupHeldEvents, type HeldEvent, type HeldGroup } from './group-held-events.js';
import { invalidSilence } from './invalid-silence.js';

/** How far back a preview looks. */
export const PREVIEW_PERIOD_MS = 24 * 3_600_000;
/** How many of the newest events of the period a preview reads at most: it reads each body from the journal. */
export const PREVIEW_MAX_EVENTS = 10_000;

const PARALLEL_READS = 8;

export interface SilencePreview {
  /** The period looked at, ms since the epoch: [since, until). */
  readonly since: number;
  readonly until: number;
  readonly scanned: number;
  /** True when the period held more events than the preview reads: only the newest were read. */
  readonly truncated: boolean;
  /** When truncated, the receipt time of the oldest event read: the preview covers [scannedFrom, until). */
  readonly scannedFrom: number | null;
  /** Events the silence's matchers hold (whatever its start and end). */
  readonly matched: number;
  readonly groups: readonly HeldGroup[];
}

/**
 * What a silence would have held among the events received in the last PREVIEW_PERIOD_MS before `now`
 * (newest first, at most PREVIEW_MAX_EVENTS), tested with the same compiled matchers ingest uses; its own
 * start and end are ignored. Reads only.
 */
export async function previewSilence(
  silence: StoredSilence,
  context: {
    readonly store: Store;
    readonly rules: CompiledRules;
    readonly now: number;
    /** Default PREVIEW_MAX_EVENTS. */
    readonly limit?: number;
  },
): Promise<SilencePreview> {
  const { store, rules, now, limit = PREVIEW_MAX_EVENTS } = context;
  const compiled = compileSilence(silence, rules, compileRegex);
  if (!compiled.ok) throw invalidSilence(compiled.problems.join('; '));
  const since = now - PREVIEW_PERIOD_MS;
  // One more than read: it tells whether the period held more.
  const found = await store.findEvents({ since, until: now, order: 'newest', limit: limit + 1 });
  const truncated = found.length > limit;
  const summaries = found.slice(0, limit);
  const test = async (summary: EventSummary): Promise<HeldEvent | undefined> => {
    const event = await store.getEvent(summary.id);
    const envelope = event === undefined ? undefined : readEnvelope(event.body); // undefined: pruned meanwhile
    if (envelope === undefined) return undefined;
    const { severity, rank } = readSeverity(envelope.data, rules.severities, rules.severityRanks);
    if (!compiled.compiled.matches({ envelope, severity, rank })) return undefined;
    const targets = (await store.listDeliveries(summary.id)).map((delivery) => delivery.target);
    return { id: summary.id, kind: summary.kind, targets };
  };
  const candidates = summaries.filter((summary) => compiled.compiled.matchesKind(summary.kind));
  const held: HeldEvent[] = [];
  // A few reads at a time: on PostgreSQL each is a round trip, and 10,000 of them one by one take seconds.
  for (let i = 0; i < candidates.length; i += PARALLEL_READS) {
    const tested = await Promise.all(candidates.slice(i, i + PARALLEL_READS).map(test));
    for (const event of tested) if (event !== undefined) held.push(event);
  }
  return {
    since,
    until: now,
    scanned: summaries.length,
    truncated,
    scannedFrom: truncated ? (summaries.at(-1)?.receivedAt ?? null) : null,
    matched: held.length,
    groups: groupHeldEvents(held),
  };
}

function readEnvelope(body: Buffer): Envelope | undefined {
  try {
    return JSON.parse(body.toString('utf8')) as Envelope;
  } catch {
    return undefined; // ingest stored only valid envelopes
  }
}
