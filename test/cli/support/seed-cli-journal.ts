import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createSqliteStore } from '../../../src/store/sqlite/create-sqlite-store.js';
import type { IngestItem, SendState, Store, StoredDelivery } from '../../../src/store/store.js';
import { makeIngestItem } from '../../store/make-ingest-item.js';

/** When each seeded event arrived: two on fixed old dates, two relative to the clock (for `--since 2h`). */
export function seededTimes(now: number): readonly number[] {
  return [Date.UTC(2025, 0, 10, 10), Date.UTC(2025, 0, 11, 10), now - 2 * 3_600_000, now - 30 * 60_000];
}

/**
 * What each event's deliveries came to, by event index and target. Every state appears on both targets and
 * at both ages, so each filter (`--state`, `--target`, `--since`) selects a different set.
 */
const PLAN: readonly Readonly<Record<'tickets' | 'soc-slack', SendState>>[] = [
  { tickets: 'dead', 'soc-slack': 'delivered' },
  { tickets: 'dead', 'soc-slack': 'dead' },
  { tickets: 'dead', 'soc-slack': 'pending' },
  { tickets: 'pending', 'soc-slack': 'dead' },
];

/**
 * Each event's `data.title`; the last one tries to colour the operator's terminal (ESC [31m), and its kind,
 * severity and last error (see HOSTILE) try it too.
 */
export const TITLES: readonly string[] = [
  'Disk full on db-1',
  'Malware found on laptop-7',
  'Agent offline: web-3',
  '\u001b[31mred alert\u001b[0m',
];

/** What the last event's sender (and the receiver answering it) wrote: escape sequences, and a huge severity. */
export const HOSTILE = {
  kind: '\u001b]0;owned\u0007incident.created',
  severity: `\u001b[2J${'x'.repeat(5_000)}`,
  lastError: '\u009b31mHTTP 400\u001b[0m',
} as const;

function envelopeTitled(title: string): string {
  return JSON.stringify({ event: 'incident.created', timestamp: '2026-11-22T10:00:00Z', data: { title } });
}

export interface CliJournal {
  /** The folder holding `config/switchyard.yaml` and `data/journal.db`. */
  readonly dir: string;
  /** Absolute path of the daemon config naming the journal. */
  readonly config: string;
  /** The delivery id of event `index` (0-3) to `target`. */
  readonly id: (index: number, target: 'tickets' | 'soc-slack') => string;
  /** Every delivery with its attempts, to show a command changed nothing (or exactly what it should). */
  readonly snapshot: () => Promise<unknown>;
  readonly deliveries: () => Promise<StoredDelivery[]>;
}

/**
 * A real SQLite journal as a daemon leaves it, with the daemon's config beside it at the default place
 * (`config/switchyard.yaml`, journal at `data/journal.db` relative to it). The source secret stays unset:
 * the journal commands must not need it.
 */
export async function seedCliJournal(dir: string, now = Date.now()): Promise<CliJournal> {
  mkdirSync(path.join(dir, 'config'));
  const config = path.join(dir, 'config', 'switchyard.yaml');
  writeFileSync(
    config,
    'store: { sqlite: { path: ../data/journal.db } }\nsources: { monitor: { secrets: ["${MONITOR_SECRET}"] } }\n',
  );
  const dbPath = path.join(dir, 'data', 'journal.db');
  mkdirSync(path.dirname(dbPath));
  const store = createSqliteStore({ path: dbPath });
  try {
    await store.migrate();
    const items: IngestItem[] = seededTimes(now).map((receivedAt, index) => {
      const item = makeIngestItem({
        receivedAt,
        targets: ['tickets', 'soc-slack'],
        body: envelopeTitled(TITLES[index] ?? ''),
      });
      if (index !== 3) return item;
      return { ...item, event: { ...item.event, kind: HOSTILE.kind, severity: HOSTILE.severity } };
    });
    await store.ingest(items);
    for (const target of ['tickets', 'soc-slack'] as const) await finish(store, target, items, now);
    const ids = new Map<string, string>();
    for (const [index, item] of items.entries()) {
      for (const d of await store.listDeliveries(item.event.id)) ids.set(`${index}/${d.target}`, d.id);
    }
    return {
      dir,
      config,
      id: (index, target) => {
        const id = ids.get(`${index}/${target}`);
        if (id === undefined) throw new Error(`no delivery for event ${index} to ${target}`);
        return id;
      },
      snapshot: () => withStore(dbPath, snapshot),
      deliveries: () => withStore(dbPath, (s) => s.findDeliveries({ limit: 1_000 })),
    };
  } finally {
    await store.close();
  }
}

/** Records one attempt for every delivery of `target` the plan does not leave pending. */
async function finish(store: Store, target: 'tickets' | 'soc-slack', items: IngestItem[], now: number) {
  const claims = await store.claimDue({ target, now, limit: 100, leaseMs: 60_000 });
  const planned = claims.flatMap((claim) => {
    const state = PLAN[items.findIndex((item) => item.event.id === claim.event.id)]?.[target];
    return state === undefined || state === 'pending' ? [] : [{ claim, state }];
  });
  await store.recordAttempts(
    planned.map(({ claim, state }) => ({
      deliveryId: claim.delivery.id,
      claimToken: claim.claimToken,
      attempt: {
        startedAt: now,
        durationMs: 12,
        outcome: state,
        statusCode: state === 'dead' ? 400 : 200,
        detail: state === 'dead' ? 'HTTP 400 bad request' : null,
      },
      next: { state, nextAttemptAt: now, lastError: state === 'dead' ? lastErrorOf(claim.event.kind) : null },
    })),
  );
  // The pending ones were claimed too: give them back, as a daemon's restart would.
  await store.releaseAllClaims(now);
}

function lastErrorOf(kind: string): string {
  return kind === HOSTILE.kind ? HOSTILE.lastError : 'HTTP 400';
}

async function snapshot(store: Store): Promise<unknown> {
  const rows = await store.findDeliveries({ limit: 1_000 });
  return Promise.all(rows.map(async (d) => ({ ...d, history: await store.listAttempts(d.id) })));
}

async function withStore<T>(dbPath: string, read: (store: Store) => Promise<T>): Promise<T> {
  const store = createSqliteStore({ path: dbPath });
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}
