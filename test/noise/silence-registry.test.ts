import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/clock.js';
import { createLogger } from '../../src/log/create-logger.js';
import { createSilenceRegistry, type SilenceRegistry } from '../../src/noise/create-silence-registry.js';
import type { CompiledRules } from '../../src/rules/rules.js';
import type { Store } from '../../src/store/store.js';
import { captureLogs } from '../helpers/capture-logs.js';
import { event } from '../rules/support/event.js';
import { rulesLoader } from '../rules/support/load-rules-text.js';
import { TARGETS_YAML } from '../rules/support/targets-yaml.js';
import { silence } from '../store/silence-store-contract.js';
import { T0 } from '../store/make-ingest-item.js';
import { tempSqliteJournal } from '../store/temp-sqlite-journal.js';

const compile = (severities: string) =>
  rulesLoader().compile(`${TARGETS_YAML}
severities: [${severities}]
routes:
  - { name: all, to: [a] }
`);

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(): Promise<{
  store: Store;
  registry: SilenceRegistry;
  warnings: () => number;
  use: (r: CompiledRules) => void;
}> {
  const journal = await tempSqliteJournal();
  cleanups.push(() => journal.dispose());
  const store = await journal.open();
  cleanups.push(() => store.close());
  await store.migrate();
  let rules = compile('low, high, critical');
  const out = captureLogs();
  const registry = createSilenceRegistry({
    store,
    log: createLogger({ level: 'info', stream: out.stream, secrets: [] }),
    clock: manualClock(T0),
    rules: () => rules,
    intervalMs: 3_600_000,
  });
  cleanups.push(() => registry.stop());
  const warnings = () => out.logs().filter((line) => line['level'] === 'warn').length;
  return { store, registry, warnings, use: (next) => (rules = next) };
}

const ids = (registry: SilenceRegistry, host: string) =>
  registry.candidatesFor(event('agent.offline', { host })).map((c) => c.silence.id);

describe('silence registry', () => {
  it('sees new and changed silences at the next refresh, compiling only what changed', async () => {
    const { store, registry, warnings, use } = await setUp();
    await store.createSilence(
      silence({ id: 'sil_a', matchers: { event: 'agent.*', where: [{ field: 'data.host', equals: 'db-1' }] } }),
    );
    // Its severity level is not one of the rules' levels: it does not fit, and says so once per version.
    await store.createSilence(
      silence({ id: 'sil_b', matchers: { event: 'agent.*', severity: { at_least: 'medium' } } }),
    );
    await registry.refresh();
    expect(ids(registry, 'db-1')).toEqual(['sil_a']);
    await registry.refresh();
    await registry.refresh();
    expect(warnings()).toBe(1);
    await store.updateSilence('sil_a', { comment: 'patching db-1, longer' }, T0 + 1);
    await registry.refresh();
    expect(registry.candidatesFor(event('agent.offline', { host: 'db-1' })).map((c) => c.silence.comment)).toEqual([
      'patching db-1, longer',
    ]);
    expect(warnings()).toBe(1);
    await store.updateSilence('sil_a', { endsAt: T0 }, T0 + 2); // expired now: no longer read
    await registry.refresh();
    expect(ids(registry, 'db-1')).toEqual([]);
    // New rules that know the level: compiled again, and now it holds.
    use(compile('low, medium, high, critical'));
    expect(registry.candidatesFor(event('agent.offline', { host: 'db-9' })).map((c) => c.silence.id)).toEqual([
      'sil_b',
    ]);
    expect(warnings()).toBe(1);
  });
});
