import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { BenchDatabase } from './bench-database.js';
import type { ClientResult, ClientRunOptions, ThroughputResult } from './delivery-results.js';
import { BENCH_TARGET, deliveryRules } from './delivery-rules.js';
import { rate, roundLine, throughputTable } from './delivery-summary.js';
import { fillJournal } from './fill-journal.js';
import { runSqliteRound } from './run-sqlite-round.js';
import { median } from './summarize.js';
import { preparePostgresDelivery, type PostgresDelivery } from './postgres-delivery.js';
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
  /** Where the PostgreSQL rounds' journals go; none without it. */
  readonly postgres: BenchDatabase | undefined;
  readonly postgresPoolSize: number;
  /** Engine processes per PostgreSQL sender, e.g. [1, 3]. */
  readonly postgresInstances: readonly number[];
}

/**
 * Rounds of: the engine on SQLite (and 1 or 3 engine processes on PostgreSQL) delivering a journal of due
 * deliveries to the receiver until all are delivered, and the bare client sending as many requests; the
 * order alternates, so drift on the machine favours no sender. Each journal is filled once and copied for
 * each round, so every round starts alike. Returns the median deliveries per second of each engine sender.
 */
export async function runThroughput(options: ThroughputOptions): Promise<Map<string, number>> {
  const { root, dir, origin } = options;
  const rulesFile = path.join(dir, 'throughput-rules.yaml');
  writeFileSync(rulesFile, deliveryRules({ origin, concurrency: options.concurrency }));
  const template = path.join(dir, 'throughput-template.db');
  const started = performance.now();
  await fillJournal(template, BENCH_TARGET, options.deliveries, options.perMs);
  const timeoutMs = Math.max(60_000, options.deliveries * 10);
  const postgres: PostgresDelivery | undefined =
    options.postgres &&
    (await preparePostgresDelivery({
      root,
      db: options.postgres,
      rulesFile,
      deliveries: options.deliveries,
      perMs: options.perMs,
      logLevel: options.logLevel,
      poolSize: options.postgresPoolSize,
      timeoutMs,
    }));
  console.log(
    `\ndelivery benchmark: ${options.deliveries.toLocaleString('en-US')} due deliveries per round to one http ` +
      `target (forward, concurrency ${options.concurrency}, no rate limit), due from ` +
      `${options.perMs > 0 ? `${options.perMs} events per ms` : 'one instant'}, ${options.rounds} rounds, engine ` +
      `log level ${options.logLevel}${postgres ? `, PostgreSQL pool_size ${options.postgresPoolSize} per engine` : ''}; ` +
      `journals filled in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const client: ClientRunOptions = {
    url: `${origin}/hook`,
    requests: options.deliveries,
    concurrency: options.concurrency,
  };
  /** The engine on a fresh copy of the SQLite template, until it has delivered them all. */
  const runSqliteEngine = (round: number): Promise<ThroughputResult> =>
    runSqliteRound({
      root,
      template,
      journal: path.join(dir, `round-${round}.db`),
      rulesFile,
      logLevel: options.logLevel,
      expected: options.deliveries,
      timeoutMs,
      nodeFlags: options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] : [],
    });
  const clients: ClientResult[] = [];
  const senders = ['client', 'sqlite-1', ...(postgres ? options.postgresInstances.map((n) => `postgres-${n}`) : [])];
  const engines = new Map<string, ThroughputResult[]>(senders.slice(1).map((name) => [name, []]));
  for (let round = 1; round <= options.rounds; round++) {
    for (const sender of round % 2 === 1 ? senders : [...senders].reverse()) {
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
      const before = await receivedCount(origin);
      const result = sender.startsWith('postgres')
        ? await (postgres as PostgresDelivery).run(Number(sender.split('-')[1]), round)
        : await runSqliteEngine(round);
      const arrived = (await receivedCount(origin)) - before;
      if (result.failed > 0 || arrived !== options.deliveries || result.delivered !== options.deliveries) {
        throw new Error(
          `${sender}, round ${round}: ${result.delivered} delivered, ${result.failed} attempts failed and the ` +
            `receiver got ${arrived} requests for ${options.deliveries} deliveries; the figures would be meaningless`,
        );
      }
      engines.get(sender)?.push(result);
      console.log(roundLine(round, sender, result));
    }
  }
  console.log(`\n${throughputTable(clients, engines)}\n`);
  return new Map([...engines].map(([name, results]) => [name, median(results.map(rate))]));
}

/** How many requests the receiver (delivery-receiver.ts) has had. */
export async function receivedCount(origin: string): Promise<number> {
  const response = await fetch(`${origin}/count`);
  return ((await response.json()) as { received: number }).received;
}
