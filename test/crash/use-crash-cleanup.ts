import { afterEach } from 'vitest';
import type { SpawnedCli } from '../helpers/spawn-cli.js';
import { killAll } from './crash-checks.js';

/**
 * The daemons a crash test spawns (killed after each test) and its other resources (released after them, last
 * acquired first): registers the afterEach hook and returns the two lists to fill.
 */
export function useCrashCleanup(): { processes: SpawnedCli[]; cleanups: (() => Promise<unknown>)[] } {
  const processes: SpawnedCli[] = [];
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    await killAll(processes);
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return { processes, cleanups };
}
