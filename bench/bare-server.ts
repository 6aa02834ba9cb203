/**
 * The baseline: a bare node:http server that does only what every webhook receiver must do, read the body
 * and verify its HMAC-SHA256 signature in constant time, then answer 200 with a small JSON. No parsing,
 * no routing, no storage. Run as a child process by bench/run.ts: `BENCH_SECRET=... node --import tsx
 * bench/bare-server.ts <port>`.
 */
import { createServer } from 'node:http';
import { signatureMatches } from './signature-matches.js';

const secret = process.env.BENCH_SECRET;
const port = Number(process.argv[2]);
if (!secret || !Number.isInteger(port)) {
  console.error('usage: BENCH_SECRET=... bare-server.ts <port>');
  process.exit(2);
}
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/readyz') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ready"}');
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const ok = signatureMatches(req.headers['x-service-signature'], Buffer.concat(chunks), secret);
    const body = ok ? '{"ok":true}' : '{"error":{"code":"invalid_signature"}}';
    res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.keepAliveTimeout = 5_000;
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
