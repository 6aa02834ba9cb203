/**
 * Floors for the ingest benchmark (issue 11): the bare server's work (read the body, verify its HMAC) plus a
 * durable group commit, and nothing else of the daemon (no parsing, routing, metrics or logs). Together with
 * the bare server and the daemon, they show where the daemon's CPU per event goes:
 * - `commit`: each body appended to a one-table SQLite file (WAL, `synchronous = FULL`), one transaction per
 *   event-loop turn: the prototype of the issue, what a durable answer costs at the least;
 * - `journal`: Switchyard's own SQLite store (its schema and indexes, the duplicate lookup, the event row and
 *   two pending deliveries per event, as the daemon writes for the benchmark's events), through the same
 *   group commit as the daemon's.
 * Answers 200 only after the commit. Run as a child process by bench/ingest-targets.ts:
 * `BENCH_SECRET=... node --import tsx bench/floor-server.ts <commit|journal> <port> <dir>`.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createGroupCommit } from '../src/ingest/group-commit.js';
import { newId } from '../src/store/new-id.js';
import { createSqliteStore } from '../src/store/sqlite/create-sqlite-store.js';
import type { IngestItem } from '../src/store/store.js';

const secret = process.env.BENCH_SECRET;
const [mode, portArg, dir] = process.argv.slice(2);
const port = Number(portArg);
if (!secret || (mode !== 'commit' && mode !== 'journal') || !Number.isInteger(port) || dir === undefined) {
  console.error('usage: BENCH_SECRET=... floor-server.ts <commit|journal> <port> <dir>');
  process.exit(2);
}
const HEADER_FORM = /^sha256=[0-9a-f]{64}$/;
const DEDUPE_WINDOW_MS = 7 * 24 * 3600 * 1000;

/** Commits a group of bodies and answers each with its id. */
type CommitGroup = (bodies: readonly Buffer[]) => Promise<readonly string[]>;

function minimalJournal(file: string): { commitGroup: CommitGroup; close: () => void } {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE IF NOT EXISTS events (id TEXT NOT NULL PRIMARY KEY, body BLOB NOT NULL) STRICT');
  const insert = db.prepare('INSERT INTO events (id, body) VALUES (?, ?)');
  const insertAll = db.transaction((bodies: readonly Buffer[]) => {
    const now = Date.now();
    return bodies.map((body) => {
      const id = newId('evt_', now);
      insert.run(id, body);
      return id;
    });
  });
  return { commitGroup: (bodies) => Promise.resolve(insertAll.immediate(bodies)), close: () => db.close() };
}

async function switchyardJournal(file: string): Promise<{ commitGroup: CommitGroup; close: () => Promise<void> }> {
  const store = createSqliteStore({ path: file });
  await store.migrate();
  const item = (body: Buffer, now: number): IngestItem => ({
    event: {
      id: newId('evt_', now),
      source: 'monitor',
      kind: 'incident.created',
      severity: 'high',
      occurredAt: new Date(now).toISOString(),
      receivedAt: now,
      body,
      bodySha256: createHash('sha256').update(body).digest('hex'),
      rulesVersion: 'floor',
      matchedRoutes: ['serious-incidents'],
      title: null,
    },
    targets: ['soc-slack', 'ticketing'],
    dedupeSince: now - DEDUPE_WINDOW_MS,
  });
  return {
    commitGroup: async (bodies) => {
      const now = Date.now();
      const results = await store.ingest(bodies.map((body) => item(body, now)));
      return results.map((result) => result.eventId);
    },
    close: () => store.close(),
  };
}

const file = path.join(dir, `floor-${mode}.db`);
const journal = mode === 'commit' ? minimalJournal(file) : await switchyardJournal(file);
const group = createGroupCommit(journal.commitGroup);

function answer(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/readyz') return answer(res, 200, '{"status":"ready"}');
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const header = req.headers['x-service-signature'];
    const expected = createHmac('sha256', secret).update(body).digest();
    const ok =
      typeof header === 'string' &&
      HEADER_FORM.test(header) &&
      timingSafeEqual(Buffer.from(header.slice('sha256='.length), 'hex'), expected);
    if (!ok) return answer(res, 401, '{"error":{"code":"invalid_signature"}}');
    group.submit(body).then(
      (id) => answer(res, 200, `{"id":"${id}"}`),
      () => answer(res, 503, '{"error":{"code":"journal_unavailable"}}'),
    );
  });
});
server.keepAliveTimeout = 5_000;
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => {
  server.close(() => {
    void group
      .drain()
      .then(() => journal.close())
      .then(() => process.exit(0));
  });
  server.closeAllConnections();
});
