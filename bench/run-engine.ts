import path from 'node:path';
import type { EngineRunOptions } from './delivery-results.js';
import { runJsonChild } from './run-json-child.js';

/** Runs bench/delivery-engine-process.ts in its own process and returns its result line. */
export function runEngine<T>(options: EngineRunOptions, nodeFlags: readonly string[] = []): Promise<T> {
  const script = path.join(options.root, 'bench/delivery-engine-process.ts');
  return runJsonChild<T>(
    'delivery engine',
    ['--import', 'tsx', ...nodeFlags, script, JSON.stringify(options)],
    options.root,
  );
}
