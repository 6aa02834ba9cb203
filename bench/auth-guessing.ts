// How fast can a client guess admin credentials? Starts a daemon in this process (admin API under /admin on the
// main listener, an admin token and one key), runs the autocannon CLI in a child process with a wrong key
// against each admin surface, and reports how many wrong keys per second were actually checked (the
// `invalid` refusals counted by the daemon) and how many log lines the refusals wrote.
// Run: npx tsx bench/auth-guessing.ts [seconds per surface, default 5]
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { get } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { AUTH_FAILURES_METRIC } from '../src/admin/api/create-admin-auth.js';
import { newApiKey } from '../src/admin/api/new-api-key.js';
import { startSwitchyard } from '../src/main.js';

const seconds = Number(process.argv[2] ?? 5);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-auth-guessing-'));
const key = newApiKey();
writeFileSync(path.join(dir, 'rules.yaml'), 'targets: {}\nroutes: []\nfallback: []\n');
writeFileSync(
  path.join(dir, 'switchyard.yaml'),
  `listen: { host: 127.0.0.1, port: 0 }
rules: ./rules.yaml
store: { sqlite: { path: ./journal.db } }
sources: { monitor: { secrets: ["\${MONITOR_SECRET}"] } }
admin:
  listen: null
  keys: [{ name: dashboard, hash: "${key.hash}", scopes: [read] }]
`,
);
let logLines = 0;
const running = await startSwitchyard({
  configFile: path.join(dir, 'switchyard.yaml'),
  env: { MONITOR_SECRET: 'bench-secret-0123456789abcdef', SWITCHYARD_ADMIN_TOKEN: 'bench-token-0123456789abcdef' },
  cwd: dir,
  logStream: new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines += chunk.toString('utf8').split('\n').length - 1;
      done();
    },
  }),
});

// Scraped from another loopback address: the guesses' address may have to wait.
async function checked(): Promise<number> {
  const text = await new Promise<string>((resolve, reject) => {
    const options = { port: running.port, path: '/metrics', localAddress: '127.0.0.2' };
    get({ ...options, headers: { authorization: `Bearer ${key.key}` } }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      response.on('end', () => resolve(body));
    }).on('error', reject);
  });
  const line = text.split('\n').find((l) => l.startsWith(`${AUTH_FAILURES_METRIC}{reason="invalid"}`));
  return line === undefined ? 0 : Number(line.split(' ')[1]);
}

for (const surface of ['/metrics', '/admin/api/v1/events']) {
  const before = await checked();
  const linesBefore = logLines;
  // The CLI runs in another process, so the load generator does not share the daemon's event loop.
  // Asynchronously: the daemon runs on this process's event loop.
  const { stdout } = await promisify(execFile)(
    path.join(root, 'node_modules/.bin/autocannon'),
    [
      '-c',
      '16',
      '-d',
      String(seconds),
      '-j',
      '-H',
      'authorization=Bearer sy_wrongwrongwrongwrongwrong',
      `http://127.0.0.1:${running.port}${surface}`,
    ],
    { encoding: 'utf8' },
  );
  const result = JSON.parse(stdout) as { requests: { total: number }; duration: number };
  const after = await checked();
  const rate = (n: number) => `${n} (${(n / result.duration).toFixed(1)}/s)`;
  console.log(
    `${surface}, ${result.duration} s: answers ${rate(result.requests.total)}, wrong keys checked ` +
      `${rate(after - before)}, log lines ${rate(logLines - linesBefore)}`,
  );
}
await running.close();
rmSync(dir, { recursive: true, force: true });
