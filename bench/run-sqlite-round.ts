import { copyFileSync, rmSync } from 'node:fs';
import type { ThroughputResult } from './delivery-results.js';
import { runEngine } from './run-engine.js';

export interface SqliteRoundOptions {
  readonly root: string;
  /** The filled journal each round starts from (fill-journal.ts); copied, never changed. */
  readonly template: string;
  /** Where this round's copy goes; removed afterwards. */
  readonly journal: string;
  readonly rulesFile: string;
  readonly logLevel: string;
  /** Deliveries in the template: the round ends when the engine has delivered them all. */
  readonly expected: number;
  readonly timeoutMs: number;
  readonly nodeFlags?: readonly string[];
}

/** The engine in its own process on a fresh copy of a SQLite template journal, until it has delivered them all. */
export async function runSqliteRound(options: SqliteRoundOptions): Promise<ThroughputResult> {
  copyFileSync(options.template, options.journal);
  try {
    return await runEngine<ThroughputResult>(
      {
        root: options.root,
        journal: options.journal,
        rulesFile: options.rulesFile,
        logLevel: options.logLevel,
        mode: 'throughput',
        expected: options.expected,
        settleMs: 0,
        timeoutMs: options.timeoutMs,
      },
      options.nodeFlags,
    );
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${options.journal}${suffix}`, { force: true });
  }
}
