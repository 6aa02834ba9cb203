import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { MemoryResult } from './delivery-results.js';
import { BENCH_TARGET, deliveryRules } from './delivery-rules.js';
import { memoryLine, memoryTable } from './delivery-summary.js';
import { fillJournal } from './fill-journal.js';
import { runEngine } from './run-engine.js';

export interface MemoryOptions {
  readonly root: string;
  readonly dir: string;
  readonly origin: string;
  readonly rounds: number;
  readonly pending: number;
  readonly settleSeconds: number;
  readonly concurrency: number;
  readonly logLevel: string;
}

/**
 * The engine's RSS with `pending` due deliveries it may only send at 1 per second (a rate-limited target:
 * due, so an engine that queued in memory would load them all) against the same engine with an empty journal,
 * each in a fresh process, alternating. The backlog journal is shared by the rounds: each sends only a few.
 */
export async function runMemory(options: MemoryOptions): Promise<void> {
  const { root, dir } = options;
  const rulesFile = path.join(dir, 'memory-rules.yaml');
  writeFileSync(rulesFile, deliveryRules({ origin: options.origin, concurrency: options.concurrency, perSecond: 1 }));
  const backlogJournal = path.join(dir, 'backlog.db');
  const emptyJournal = path.join(dir, 'empty.db');
  const started = performance.now();
  await fillJournal(backlogJournal, BENCH_TARGET, options.pending);
  await fillJournal(emptyJournal, BENCH_TARGET, 0);
  console.log(
    `memory: engine RSS after ${options.settleSeconds} s running and gc(), ${options.rounds} rounds, ` +
      `${options.pending.toLocaleString('en-US')} due deliveries rate-limited to 1/s against none ` +
      `(journal filled in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
  const none: MemoryResult[] = [];
  const backlog: MemoryResult[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    for (const full of round % 2 === 1 ? [false, true] : [true, false]) {
      const result = await runEngine<MemoryResult>(
        {
          root,
          journal: full ? backlogJournal : emptyJournal,
          rulesFile,
          logLevel: options.logLevel,
          mode: 'memory',
          expected: 0,
          settleMs: options.settleSeconds * 1000,
          timeoutMs: 0,
        },
        ['--expose-gc'],
      );
      (full ? backlog : none).push(result);
      console.log(memoryLine(round, result));
    }
  }
  console.log(`\n${memoryTable(options.pending, none, backlog)}\n`);
}
