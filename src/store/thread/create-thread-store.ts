import { Worker } from 'node:worker_threads';
import { systemClock } from '../../clock.js';
import { SwitchyardError } from '../../switchyard-error.js';
import type { DigestBuilder, DueDigest } from '../digest-records.js';
import type { SqliteStoreOptions } from '../sqlite/create-sqlite-store.js';
import type { NewEvent, Store, StoredEvent } from '../store.js';
import type { FromJournalThread, JournalThreadData, ToJournalThread } from './journal-thread-protocol.js';
import { reviveBuffers } from './revive-buffers.js';
import { reviveError } from './revive-error.js';

/** The `Store` methods forwarded as they are (everything but migrate, sendDigest and close). */
const FORWARDED = [
  'ingest',
  'getEvent',
  'findEvents',
  'eventIdAt',
  'eventsPerMinute',
  'countDeliveriesByState',
  'targetHealth',
  'findChangedDeliveries',
  'latestChange',
  'findIncidents',
  'incidentHistory',
  'listDeliveries',
  'getDelivery',
  'findDeliveries',
  'listAttempts',
  'claimDue',
  'recordAttempts',
  'releaseClaims',
  'releaseAllClaims',
  'nextDueAt',
  'replay',
  'countByTarget',
  'pendingTargets',
  'findReferences',
  'deadLetterTarget',
  'ping',
  'counts',
  'changesByOthers',
  'pruneBatch',
  'countPrunable',
  'journalSize',
  'createSilence',
  'getSilence',
  'findSilences',
  'updateSilence',
  'releaseSilence',
  'recordSourceSightings',
  'markSourceSilent',
  'markSourceRecovered',
  'findDueDigests',
] as const satisfies readonly (keyof Store)[];

export interface ThreadStoreHooks {
  /** Tests: the worker once started (to kill it). */
  readonly onWorker?: (worker: Worker) => void;
  /** Once, when the thread ends without `close()` asking: why (the daemon logs it). */
  readonly onDeath?: (reason: string) => void;
}

/**
 * The SQLite journal in a thread of its own (journal-thread.ts), as a `Store`: each call becomes one message
 * and resolves with the thread's answer (Buffers and errors rebuilt). The thread starts on the first call.
 * Should it die, every pending and later call rejects with `journal_unavailable` (ingest answers 503,
 * readiness fails): nothing is acknowledged that was not committed. It is not started again, so only a
 * restart of the process gets the journal back: `threadFailure()` says why it ended, for liveness. `close()`
 * closes the store there and waits for the thread to end.
 */
export function createThreadStore(
  options: SqliteStoreOptions,
  hooks: ThreadStoreHooks = {},
): Store & { threadFailure(): string | null } {
  const clock = options.clock ?? systemClock;
  // Under the tests (vitest runs the sources) the worker is the .ts file, loaded through tsx's loader, which
  // a worker does not inherit: a bootstrap registers it first.
  const source = import.meta.url.endsWith('.ts');
  const entry = new URL(source ? './journal-thread.ts' : './journal-thread.js', import.meta.url);
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`;
  const data: JournalThreadData = { path: options.path, busyTimeoutMs: options.busyTimeoutMs };
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let worker: Worker | undefined;
  let nextId = 0;
  let failure: Error | undefined;
  // Why the thread ended without close() asking; an end that close() asked for is no failure.
  let died: string | null = null;
  let closing: Promise<void> | undefined;

  // Resolved once no call waits for an answer (close: the thread may answer close before earlier calls).
  let idle: (() => void) | undefined;
  const fail = (error: Error): void => {
    failure ??= error;
    if (closing === undefined && died === null) {
      died = failure.message;
      hooks.onDeath?.(died);
    }
    for (const call of pending.values()) call.reject(failure);
    pending.clear();
    idle?.();
  };
  const start = (): Worker => {
    const started = source
      ? new Worker(bootstrap, { eval: true, workerData: data })
      : new Worker(entry, { workerData: data });
    started.unref(); // kept alive by pending calls only (ref below)
    started.on('message', (answer: FromJournalThread) => {
      const call = pending.get(answer.id);
      if (call === undefined) return;
      pending.delete(answer.id);
      if (pending.size === 0) {
        started.unref();
        idle?.();
      }
      if (answer.ok) call.resolve(reviveBuffers(answer.value));
      else call.reject(reviveError(answer.error));
    });
    started.on('error', (error) => fail(unavailable(`it failed: ${error.message}`)));
    started.on('exit', (code) =>
      fail(
        closing === undefined
          ? unavailable(`its thread exited with code ${code}`)
          : new SwitchyardError('journal_closed', 'the event journal has been closed'),
      ),
    );
    hooks.onWorker?.(started);
    return started;
  };
  const call = (method: string, args: readonly unknown[]): Promise<unknown> => {
    if (failure !== undefined) return Promise.reject(failure);
    // A digest's commit (or abandon) still goes after close(): the thread waits for it before the close.
    if (closing !== undefined && method !== 'close' && !method.endsWith('Digest')) {
      return Promise.reject(new SwitchyardError('journal_closed', 'the event journal has been closed'));
    }
    worker ??= start();
    const id = nextId++;
    if (pending.size === 0) worker.ref();
    const answer = new Promise<unknown>((resolve, reject) => pending.set(id, { resolve, reject }));
    worker.postMessage({ id, method, args } satisfies ToJournalThread);
    return answer;
  };

  const store = Object.fromEntries(
    FORWARDED.map((method) => [method, (...args: unknown[]) => call(method, args)]),
  ) as unknown as Pick<Store, (typeof FORWARDED)[number]>;
  return {
    ...store,
    migrate: () => call('migrate', [clock.now()]) as Promise<void>,
    threadFailure: () => died,
    // The builder stays on this thread: the journal thread shows it what it would be given (and runs nothing
    // else meanwhile), then sends with the event built from that; `stale` (the digest changed in between)
    // is only a safeguard.
    async sendDigest(id: string, now: number, build: DigestBuilder) {
      for (;;) {
        const seen = (await call('peekDigest', [id, now])) as
          { digest: DueDigest; events: readonly StoredEvent[] } | undefined;
        if (seen === undefined) return undefined;
        let event: NewEvent;
        try {
          event = build(seen.digest, seen.events);
        } catch (error) {
          void call('abandonDigest', []).catch(() => undefined); // the thread waits for an answer to its peek
          throw error;
        }
        const expected = { count: seen.digest.count, ids: seen.events.map((e) => e.id) };
        const result = (await call('commitDigest', [id, now, event, expected])) as
          { sent: string | undefined } | { stale: true };
        if ('sent' in result) return result.sent;
      }
    },
    close() {
      if (closing !== undefined) return closing;
      const current = worker;
      if (current === undefined || failure !== undefined) {
        closing = Promise.resolve();
        return closing;
      }
      const exited = new Promise<void>((resolve) => current.once('exit', () => resolve()));
      // Once the store is closed there and every answer is in (the thread may send close's before those of
      // earlier calls), the thread is ended from here: a port closed by the thread itself may drop answers.
      const answered = new Promise<void>((resolve) => (idle = resolve));
      const closed = call('close', []).finally(async () => {
        await answered;
        await current.terminate();
      });
      closing = closed.then(() => exited);
      return closing;
    },
  };
}

/** The thread is gone, and nothing reopens the journal in this process: `untilRestart`. */
function unavailable(reason: string): SwitchyardError {
  const message = `the event journal is unavailable: ${reason}`;
  return new SwitchyardError('journal_unavailable', message, { status: 503, untilRestart: true });
}
