/**
 * The pipeline benchmark's target (issue 11): bare node:http with keep-alive that reads each delivery's body,
 * notes the benchmark event's incident id (the daemon forwards the event byte for byte) with the time it
 * arrived, and answers 200 at once. Its own process, so it never shares an event loop with the daemon:
 * `node --import tsx bench/stamping-receiver.ts <port>`. `GET /count` tells how many deliveries arrived;
 * `GET /stamps?from=N` returns `[[incident_id, epoch ms], ...]` from the N-th on, in arrival order.
 */
import { createServer } from 'node:http';

const port = Number(process.argv[2]);
if (!Number.isInteger(port)) {
  console.error('usage: stamping-receiver.ts <port>');
  process.exit(2);
}
const ANSWER = '{"ok":true}';
const KEY = '"incident_id":"';
const stamps: [string, number][] = [];

/** The incident id without parsing the whole body: the receiver must not be the bottleneck. */
function incidentId(body: string): string {
  const start = body.indexOf(KEY);
  return start === -1 ? '' : body.slice(start + KEY.length, body.indexOf('"', start + KEY.length));
}

const server = createServer((req, res) => {
  if (req.method === 'GET') {
    const url = new URL(req.url ?? '/', 'http://receiver');
    const from = Number(url.searchParams.get('from') ?? 0);
    const body =
      url.pathname === '/stamps'
        ? JSON.stringify(stamps.slice(from))
        : JSON.stringify(url.pathname === '/count' ? { received: stamps.length } : { status: 'ready' });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    return;
  }
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    stamps.push([incidentId(body), Date.now()]);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': ANSWER.length }).end(ANSWER);
  });
});
// Longer than any pause between rounds, so neither side pays for reconnecting mid-run.
server.keepAliveTimeout = 120_000;
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
