import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ClientResult, ClientRunOptions, ThroughputResult } from './delivery-results.js';
import { BENCH_TARGET, deliveryRules } from './delivery-rules.js';
import { roundLine, throughputTable } from './delivery-summary.js';
import { fillJournal } from './fill-journal.js';
import { runEngine } from './run-engine.js';
import { runJsonChild } from './run-json-child.js';

export interface ThroughputOptions {
  readonly root: string;
  /** A temp dir for the journals and the rules. */
  readonly dir: string;
  /** The receiver's origin. */
  readonly origin: string;
  readonly rounds: number;
  /** Due deliveries in the journal at the start of each round. */
  readonly deliveries: number;
  readonly concurrency: number;
  /** Events per millisecond of receipt time in the journal (see fill-journal.ts); 0: all at one instant. */
  readonly perMs: number;
  readonly logLevel: string;
  readonly cpuProfDir: string | undefined;
}

/**
 * Rounds of: the engine delivering a journal of due deliveries to the receiver until all are delivered, and
 * the bare client sending as many requests; the order alternates, so drift on the machine favours neither.
 * The journal is filled once and copied for each round, so every round starts alike.
 */
export async function runThroughput(options: ThroughputOptions): Promise<void> {
  const { root, dir, origin } = options;
  const rulesFile = path.join(dir, 'throughput-rules.yaml');
  writeFileSync(rulesFile, deliveryRules({ origin, concurrency: options.concurrency }));
  const template = path.join(dir, 'throughput-template.db');
  const started = performance.now();
  await fillJournal(template, BENCH_TARGET, options.deliveries, options.perMs);
  console.log(
    `\ndelivery benchmark: ${options.deliveries.toLocaleString('en-US')} due deliveries per round to one http ` +
      `target (forward, concurrency ${options.concurrency}, no rate limit), due from ` +
      `${options.perMs > 0 ? `${options.perMs} events per ms` : 'one instant'}, ${options.rounds} rounds, engine ` +
      `log level ${options.logLevel}; journal filled in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const client: ClientRunOptions = {
    url: `${origin}/hook`,
    requests: options.deliveries,
    concurrency: options.concurrency,
  };
  const clients: ClientResult[] = [];
  const engines: ThroughputResult[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    for (const sender of round % 2 === 1 ? ['client', 'engine'] : ['engine', 'client']) {
      if (sender === 'client') {
        const script = path.join(root, 'bench/delivery-client-process.ts');
        const result = await runJsonChild<ClientResult>(
          'bare client',
          ['--import', 'tsx', script, JSON.stringify(client)],
          root,
        );
        clients.push(result);
        console.log(roundLine(round, 'bare client', result));
        continue;
      }
      const journal = path.join(dir, `round-${round}.db`);
      copyFileSync(template, journal);
      const before = await receivedCount(origin);
      const result = await runEngine<ThroughputResult>(
        {
          root,
          journal,
          rulesFile,
          logLevel: options.logLevel,
          mode: 'throughput',
          expected: options.deliveries,
          settleMs: 0,
          timeoutMs: Math.max(60_000, options.deliveries * 10),
        },
        options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] : [],
      );
      const arrived = (await receivedCount(origin)) - before;
      if (result.failed > 0 || arrived !== options.deliveries) {
        throw new Error(
          `round ${round}: ${result.failed} attempts failed and the receiver got ${arrived} requests for ` +
            `${options.deliveries} deliveries; the figures would be meaningless`,
        );
      }
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${journal}${suffix}`, { force: true });
      engines.push(result);
      console.log(roundLine(round, 'switchyard', result));
    }
  }
  console.log(`\n${throughputTable(clients, engines)}\n`);
}

async function receivedCount(origin: string): Promise<number> {
  const response = await fetch(`${origin}/count`);
  return ((await response.json()) as { received: number }).received;
}
