import { expect } from 'vitest';

/**
 * `expect.poll` with room for a loaded machine: a browser, a daemon and the tests share two cores, so what the
 * page shows within a second when idle may take a few.
 */
export function poll<T>(read: () => T | Promise<T>) {
  return expect.poll(read, { timeout: 10_000, interval: 100 });
}
