/**
 * The journal thread (issue 11, `store.sqlite.thread`): the daemon's SQLite store, its only connection, in a
 * worker thread, so that statements and the commits' fsync waits leave the event loop that answers webhooks
 * and sends deliveries. Each message is one `Store` call, started in arrival order (one port is FIFO and the
 * store is synchronous underneath), so the calls keep the order the main thread made them in; all but one run
 * to completion at once: `countByTarget` counts a slice per turn, and later calls run between its slices.
 * Started by create-thread-store.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { DueDigest } from '../digest-records.js';
import { createSqliteStore, type TogetherWrite } from '../sqlite/create-sqlite-store.js';
import type { NewEvent, StoredEvent } from '../store.js';
import type { FromJournalThread, JournalThreadData, ToJournalThread } from './journal-thread-protocol.js';
import { reviveBuffers } from './revive-buffers.js';
import { toWireError } from './to-wire-error.js';

const port = parentPort;
if (port === null) throw new Error('journal-thread.ts runs as a worker thread (create-thread-store.ts)');
const data = workerData as JournalThreadData;
// The main thread's clock reading, carried by `migrate` (its only use of the clock: `applied_at`).
let migrateNow = Date.now();
const store = createSqliteStore({
  path: data.path,
  ...(data.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: data.busyTimeoutMs }),
  clock: { now: () => migrateNow },
});

/** Thrown from a digest builder to roll `sendDigest`'s transaction back. */
const ROLL_BACK = new Error('rolled back on purpose');

const special: Record<string, (...args: never[]) => Promise<unknown>> = {
  migrate: (now: number) => {
    migrateNow = now;
    return store.migrate();
  },
  // sendDigest, first half: what the builder would be given, without sending (undefined: nothing to send).
  peekDigest: async (id: string, now: number) => {
    let seen: { digest: DueDigest; events: readonly StoredEvent[] } | undefined;
    try {
      await store.sendDigest(id, now, (digest, events) => {
        seen = { digest, events };
        peeked = true; // (synchronously, within this call)
        throw ROLL_BACK;
      });
    } catch (error) {
      if (error !== ROLL_BACK) throw error;
    }
    return seen;
  },
  // Second half: sends with the event the main thread built, unless the digest changed in between (`stale`).
  commitDigest: async (id: string, now: number, event: NewEvent, expected: { count: number; ids: string[] }) => {
    try {
      const sent = await store.sendDigest(id, now, (digest, events) => {
        const same =
          digest.count === expected.count &&
          events.length === expected.ids.length &&
          events.every((e, i) => e.id === expected.ids[i]);
        if (!same) throw ROLL_BACK;
        return event;
      });
      return { sent };
    } catch (error) {
      if (error === ROLL_BACK) return { stale: true };
      throw error;
    }
  },
  // The builder threw on the main thread: nothing to send.
  abandonDigest: () => Promise.resolve(undefined),
};

const methods = store as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;

// Messages that arrived while the thread was busy (in an fsync, say) are run together: a run of ingest
// groups and attempt records in one transaction, everything else one call at a time, all in arrival order.
// After a peek that found a digest, the thread waits for its commit (or abandon) before anything else, so
// that no ingest joins the digest between what the builder saw and what is sent.
let queue: ToJournalThread[] = [];
let scheduled = false;
let peeked = false;
let paused = false;
const schedule = (): void => {
  if (scheduled || paused || queue.length === 0) return;
  scheduled = true;
  setImmediate(drain);
};
port.on('message', (message: ToJournalThread) => {
  if (paused && (message.method === 'commitDigest' || message.method === 'abandonDigest')) {
    one(message);
    paused = false;
  } else {
    queue.push(message);
  }
  schedule();
});

function drain(): void {
  scheduled = false;
  let i = 0;
  while (i < queue.length && !paused) {
    let end = i;
    while (end < queue.length && TOGETHER.has(queue[end]!.method)) end += 1;
    if (end - i >= 2) {
      together(queue.slice(i, end));
      i = end;
    } else {
      one(queue[i]!);
      i += 1;
      paused = peeked;
      peeked = false;
    }
  }
  queue = queue.slice(i);
}

const TOGETHER = new Set(['ingest', 'recordAttempts']);

function together(messages: readonly ToJournalThread[]): void {
  const writes = messages.map((message): TogetherWrite => {
    const [arg] = reviveBuffers(message.args) as [never];
    return message.method === 'ingest' ? { method: 'ingest', items: arg } : { method: 'recordAttempts', records: arg };
  });
  store.commitTogether(writes).then(
    (outcomes) =>
      outcomes.forEach((outcome, index) => {
        const { id } = messages[index]!;
        post(
          outcome.ok ? { id, ok: true, value: outcome.value } : { id, ok: false, error: toWireError(outcome.error) },
        );
      }),
    (error: unknown) => {
      for (const { id } of messages) post({ id, ok: false, error: toWireError(error) });
    },
  );
}

function one(message: ToJournalThread): void {
  const args = reviveBuffers(message.args) as unknown[];
  const run = special[message.method] as ((...args: unknown[]) => Promise<unknown>) | undefined;
  let answer: Promise<unknown>;
  try {
    answer = run !== undefined ? run(...args) : methods[message.method]!(...args);
  } catch (error) {
    answer = Promise.reject(error);
  }
  answer.then(
    (value) => post({ id: message.id, ok: true, value }),
    (error: unknown) => post({ id: message.id, ok: false, error: toWireError(error) }),
  );
}

function post(answer: FromJournalThread): void {
  try {
    port!.postMessage(answer);
  } catch (error) {
    // A value that cannot be cloned: the caller gets the failure instead of waiting forever.
    port!.postMessage({ id: answer.id, ok: false, error: toWireError(error) } satisfies FromJournalThread);
  }
}
