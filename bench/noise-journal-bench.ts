/**
 * Noise control's share of the SQLite journal's work (issue 12), without HTTP or a second process: group commits
 * of 64 events with three deliveries each, into a fresh journal per variant, alternating variants in each
 * round, and the CPU time of this process per event (user + system) as the median of the rounds. Variants:
 * `plain` (three pending deliveries), `grouped` (the third joins one of 50 open digests), `throttled` (the first
 * two under a throttle with 100 keys that never suppresses). Reports, never asserts.
 *
 *   npx tsx bench/noise-journal-bench.ts [--rounds 5]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createSqliteStore } from '../src/store/sqlite/create-sqlite-store.js';
import { benchEvent } from './bench-event.js';
import type { IngestItem } from '../src/store/store.js';
import { median } from './summarize.js';

const VARIANTS = ['plain', 'grouped', 'throttled'] as const;
type Variant = (typeof VARIANTS)[number];
const GROUP = 64;
const WARMUP_GROUPS = 100;
const MEASURED_GROUPS = 600;

function item(variant: Variant, n: number, round: number): IngestItem {
  const body = Buffer.from(
    `{"event":"incident.created","data":{"n":${n},"pad":"${randomBytes(100).toString('hex')}"}}`,
  );
  const receivedAt = Date.now();
  const host = `host-${n % 50}`;
  return {
    event: benchEvent(body, receivedAt, ['main', 'archive']),
    targets: ['soc-slack', 'ticketing', 'archive'],
    dedupeSince: receivedAt - 60_000,
    throttles:
      variant === 'throttled'
        ? ['soc-slack', 'ticketing', null].map((target) =>
            target === null
              ? null
              : { by: 'route:main', key: `route:main|${target}|${host}`, windowMs: 1_000, max: 100_000 },
          )
        : undefined,
    groups:
      variant === 'grouped'
        ? [
            null,
            null,
            {
              route: 'archive',
              key: host,
              waitMs: 3_600_000,
              intervalMs: 3_600_000,
              maxEvents: 100,
              digestId: `dig_${round}_${host}`,
            },
          ]
        : undefined,
  };
}

/** CPU µs per event of one variant in a fresh journal. */
async function measure(variant: Variant, round: number): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-noise-journal-'));
  const store = createSqliteStore({ path: path.join(dir, 'journal.db') });
  try {
    await store.migrate();
    let n = 0;
    const group = () => Array.from({ length: GROUP }, () => item(variant, (n += 1), round));
    for (let i = 0; i < WARMUP_GROUPS; i += 1) await store.ingest(group());
    const before = process.cpuUsage();
    for (let i = 0; i < MEASURED_GROUPS; i += 1) await store.ingest(group());
    const used = process.cpuUsage(before);
    return (used.user + used.system) / (MEASURED_GROUPS * GROUP);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function main(args: readonly string[] = process.argv.slice(2)): Promise<void> {
  const rounds = Number(args[args.indexOf('--rounds') + 1] ?? 5) || 5;
  const results = new Map<Variant, number[]>(VARIANTS.map((v) => [v, []]));
  for (let round = 1; round <= rounds; round += 1) {
    // Each round in another order, so that none always runs first (a colder cache, a fuller disk).
    const order = VARIANTS.map((_, i) => VARIANTS[(i + round) % VARIANTS.length] as Variant);
    for (const variant of order) results.get(variant)?.push(await measure(variant, round));
  }
  console.log(
    `noise control in the SQLite journal: CPU per event (3 deliveries, ${GROUP} per commit), ${rounds} rounds`,
  );
  const plain = median(results.get('plain') ?? []);
  for (const [variant, values] of results) {
    const mid = median(values);
    console.log(
      `  ${variant.padEnd(9)} ${mid.toFixed(1).padStart(5)} µs  (+${(mid - plain).toFixed(1)})  rounds: ${values.map((v) => v.toFixed(1)).join(' ')}`,
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
