/**
 * Floors for the ingest benchmark (issue 11): the bare server's work (read the body, verify its HMAC) plus a
 * durable group commit, and nothing else of the daemon (no parsing, routing, metrics or logs). Together with
 * the bare server and the daemon, they show where the daemon's CPU per event goes (bench/floor-journals.ts):
 * - `commit`: each body appended to a one-table SQLite file, one transaction per event-loop turn: the
 *   prototype of the issue, what a durable answer costs at the least;
 * - `journal`: Switchyard's own SQLite store, written what the daemon writes for the benchmark's events,
 *   through the same group commit as the daemon's;
 * - `append`: `commit`'s one-table file as an inbox, and a worker thread (bench/floor-materializer.ts) that
 *   moves its rows into Switchyard's store in batches, as `journal` writes them: a journal that only appends
 *   at ingest. `GET /backlog` answers how many accepted bodies the worker has not moved yet.
 * Answers 200 only after the commit. Run as a child process by bench/ingest-targets.ts:
 * `BENCH_SECRET=... node --import tsx bench/floor-server.ts <commit|journal|append> <port> <dir>`.
 */
import { createServer, type ServerResponse } from 'node:http';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { createGroupCommit } from '../src/ingest/group-commit.js';
import { minimalJournal, switchyardJournal } from './floor-journals.js';
import { signatureMatches } from './signature-matches.js';

const secret = process.env.BENCH_SECRET;
const [mode, portArg, dir] = process.argv.slice(2);
const port = Number(portArg);
const modes = ['commit', 'journal', 'append'];
if (!secret || !modes.includes(mode ?? '') || !Number.isInteger(port) || dir === undefined) {
  console.error('usage: BENCH_SECRET=... floor-server.ts <commit|journal|append> <port> <dir>');
  process.exit(2);
}

const file = path.join(dir, `floor-${mode}.db`);
const journal = mode === 'journal' ? await switchyardJournal(file) : minimalJournal(file);
let accepted = 0;
const group = createGroupCommit(async (bodies: readonly Buffer[]) => {
  const ids = await journal.commitGroup(bodies);
  accepted += ids.length;
  return ids;
});
let moved = 0;
const materializer =
  mode === 'append'
    ? // A worker does not inherit tsx's loader: a bootstrap registers it first (as src/store/thread does).
      new Worker(
        `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(
          new URL('./floor-materializer.ts', import.meta.url).href,
        )}); })`,
        { eval: true, workerData: { inbox: file, journal: path.join(dir, 'floor-append-journal.db') } },
      )
    : undefined;
materializer?.on('message', (count: number) => (moved = count));
let stopping = false;
materializer?.on('error', (error) => {
  console.error('floor materializer failed:', error);
  process.exit(1);
});
// A thread that ended unasked would leave the backlog growing and the benchmark waiting for it.
materializer?.on('exit', (code) => {
  if (stopping) return;
  console.error(`floor materializer ended unasked (exit code ${code})`);
  process.exit(1);
});

function answer(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/readyz') return answer(res, 200, '{"status":"ready"}');
  if (req.method === 'GET' && req.url === '/backlog' && materializer !== undefined) {
    return answer(res, 200, `{"backlog":${accepted - moved}}`);
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    if (!signatureMatches(req.headers['x-service-signature'], body, secret)) {
      return answer(res, 401, '{"error":{"code":"invalid_signature"}}');
    }
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
      .then(async () => {
        if (materializer === undefined) return;
        const ended = new Promise((resolve) => materializer.once('exit', resolve));
        stopping = true;
        materializer.postMessage('stop');
        await ended;
      })
      .then(() => process.exit(0));
  });
  server.closeAllConnections();
});
