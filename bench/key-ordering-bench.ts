/**
 * Issue 14, Performance: per-key ordering must not cost throughput when keys differ. Rounds of the delivery
 * engine (SQLite) on three journals of due deliveries to one http target: without correlation keys, with 1,000
 * distinct keys, and with one hot key (one incident with many updates, sent one at a time by design). The
 * variants alternate within each round; reports the medians and their ratios to the run without keys, never
 * asserts. Run by bench/run.ts (`--only-key-ordering`); options in bench/README.md.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startChildServer } from './child-server.js';
import type { ThroughputResult } from './delivery-results.js';
import { BENCH_TARGET, deliveryRules } from './delivery-rules.js';
import { rate, roundLine } from './delivery-summary.js';
import { receivedCount } from './delivery-throughput.js';
import { fillJournal } from './fill-journal.js';
import { freePort } from './free-port.js';
import { runSqliteRound } from './run-sqlite-round.js';
import { median } from './summarize.js';

export interface KeyOrderingBenchOptions {
  readonly root: string;
  readonly rounds: number;
  /** Due deliveries per round without keys and with 1,000 keys. */
  readonly deliveries: number;
  /** Due deliveries per round with one hot key (sent one at a time: fewer, or a round takes minutes). */
  readonly hotDeliveries: number;
  readonly concurrency: number;
  readonly perMs: number;
  readonly logLevel: string;
}

interface Variant {
  readonly name: string;
  readonly count: number;
  readonly keyOf: ((counter: number) => string) | undefined;
}

/** Returns the median deliveries per second of each variant (`no key`, `1,000 keys`, `one key`). */
export async function runKeyOrderingBench(options: KeyOrderingBenchOptions): Promise<Map<string, number>> {
  const { root } = options;
  const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-key-bench-'));
  const port = await freePort();
  const receiver = await startChildServer({
    name: 'receiver',
    args: ['--import', 'tsx', path.join(root, 'bench/delivery-receiver.ts'), String(port)],
    port,
    env: process.env,
    cwd: root,
  });
  try {
    const rulesFile = path.join(dir, 'rules.yaml');
    writeFileSync(rulesFile, deliveryRules({ origin: receiver.origin, concurrency: options.concurrency }));
    const variants: Variant[] = [
      { name: 'no key', count: options.deliveries, keyOf: undefined },
      { name: '1,000 keys', count: options.deliveries, keyOf: (n) => `inc_bench_${n % 1000}` },
      { name: 'one key', count: options.hotDeliveries, keyOf: () => 'inc_bench_hot' },
    ];
    for (const [i, variant] of variants.entries()) {
      await fillJournal(path.join(dir, `template-${i}.db`), BENCH_TARGET, variant.count, options.perMs, variant.keyOf);
    }
    console.log(
      `\nkey-ordering benchmark (issue 14): the engine on SQLite, one http target (forward, concurrency ` +
        `${options.concurrency}), ${options.deliveries.toLocaleString('en-US')} due deliveries without keys and ` +
        `with 1,000 keys, ${options.hotDeliveries.toLocaleString('en-US')} with one key, ${options.rounds} rounds`,
    );
    const results = new Map<string, ThroughputResult[]>(variants.map((v) => [v.name, []]));
    for (let round = 1; round <= options.rounds; round++) {
      const order = round % 2 === 1 ? variants.entries() : [...variants.entries()].reverse();
      for (const [i, variant] of order) {
        const before = await receivedCount(receiver.origin);
        const result = await runSqliteRound({
          root,
          template: path.join(dir, `template-${i}.db`),
          journal: path.join(dir, `round.db`),
          rulesFile,
          logLevel: options.logLevel,
          expected: variant.count,
          timeoutMs: Math.max(60_000, variant.count * 20),
        });
        const arrived = (await receivedCount(receiver.origin)) - before;
        if (result.failed > 0 || result.delivered !== variant.count || arrived !== variant.count) {
          throw new Error(`${variant.name}, round ${round}: ${result.delivered} delivered, ${arrived} arrived`);
        }
        results.get(variant.name)?.push(result);
        console.log(roundLine(round, variant.name, result));
      }
    }
    // Deliveries per second swing with other work on a shared machine; CPU per delivery much less.
    const medians = new Map([...results].map(([name, list]) => [name, median(list.map(rate))]));
    const cpu = new Map([...results].map(([name, list]) => [name, median(list.map((r) => r.cpuUs / r.delivered))]));
    const [baseRate, baseCpu] = [medians.get('no key') ?? Number.NaN, cpu.get('no key') ?? Number.NaN];
    for (const [name, value] of medians) {
      const each = cpu.get(name) ?? Number.NaN;
      console.log(
        `  ${name.padEnd(11)} ${Math.round(value).toLocaleString('en-US').padStart(6)}/s median, ratio ` +
          `${(value / baseRate).toFixed(2)}; ${Math.round(each).toLocaleString('en-US').padStart(5)} us CPU each, ` +
          `ratio ${(baseCpu / each).toFixed(2)}${name === '1,000 keys' ? '   aim >= 0.90 (issue 14)' : ''}`,
      );
    }
    return medians;
  } finally {
    await receiver.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
