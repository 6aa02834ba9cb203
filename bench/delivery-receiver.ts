/**
 * The HTTP receiver for the delivery benchmark: bare node:http with keep-alive that reads each request's body
 * and answers 200 at once, as a ticketing API that is never the bottleneck would. Run as its own process by
 * bench/delivery-bench.ts, so it never shares an event loop with the sender it measures:
 * `node --import tsx bench/delivery-receiver.ts <port>`. `GET /count` tells how many POSTs it has answered,
 * so the benchmark can check that every delivery arrived.
 */
import { createServer } from 'node:http';

const port = Number(process.argv[2]);
if (!Number.isInteger(port)) {
  console.error('usage: delivery-receiver.ts <port>');
  process.exit(2);
}
const ANSWER = '{"ok":true}';
let received = 0;

const server = createServer((req, res) => {
  if (req.method === 'GET') {
    const body = req.url === '/count' ? JSON.stringify({ received }) : '{"status":"ready"}';
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    return;
  }
  req.resume();
  req.on('end', () => {
    received += 1;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': ANSWER.length }).end(ANSWER);
  });
});
// Longer than any pause between rounds, so neither side pays for reconnecting mid-run.
server.keepAliveTimeout = 30_000;
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
