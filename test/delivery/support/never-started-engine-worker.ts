/**
 * A delivery worker thread that never reports `started`, nor fails, nor exits: what a start stuck on
 * something unbounded looks like from the main thread (create-engine-worker.ts). The timer keeps it alive.
 */
setInterval(() => undefined, 60_000);
