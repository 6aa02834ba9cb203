import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { StoreConfig } from '../config/config.js';

/**
 * How to read the bytes free to the daemon on the file system that holds a SQLite journal (undefined when
 * it cannot be read); undefined for PostgreSQL, whose disk is the server's. `bavail`, not `bfree`: the blocks
 * kept for root are not counted even when the daemon runs as root, so the figure is the one `df` shows.
 */
export function journalFreeBytes(config: StoreConfig): (() => number | undefined) | undefined {
  if (config.kind !== 'sqlite') return undefined;
  const folder = dirname(config.path);
  return () => {
    try {
      const { bavail, bsize } = statfsSync(folder);
      return bavail * bsize;
    } catch {
      return undefined;
    }
  };
}
