import { writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { sign } from '../helpers/post-webhook.js';
import { spawnCli, type SpawnedCli } from '../helpers/spawn-cli.js';
import { SOURCE_SECRET } from '../helpers/start-test-daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs();

/** A raw connection whose received bytes the test can wait on, to send a body in steps. */
function openConnection(port: number): Promise<{ socket: Socket; until: (pattern: RegExp) => Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const waiters: (() => void)[] = [];
    socket.on('data', (data: Buffer) => {
      text += data.toString('utf8');
      for (const wake of waiters.splice(0)) wake();
    });
    socket.on('close', () => {
      for (const wake of waiters.splice(0)) wake();
    });
    socket.once('error', reject);
    socket.once('connect', () =>
      resolve({
        socket,
        async until(pattern) {
          const deadline = Date.now() + 15_000;
          while (!pattern.test(text)) {
            if (socket.destroyed || Date.now() > deadline) throw new Error(`no ${pattern} in: ${text}`);
            await new Promise<void>((wake) => {
              waiters.push(wake);
              setTimeout(wake, 200);
            });
          }
          return text;
        },
      }),
    );
  });
}

/** Resolves with the connection error code, or 'connected' if something still accepts on the port. */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? String(error)));
  });
}

/** Connects until refused (the listener closes right after the daemon logs that it is shutting down). */
async function refusedSoon(port: number): Promise<string> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const result = await tryConnect(port);
    if (result === 'ECONNREFUSED' || Date.now() > deadline) return result;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('graceful shutdown of the ingest path (a real process, SIGTERM)', () => {
  let cli: SpawnedCli | undefined;
  afterEach(() => {
    if (cli?.child.exitCode === null) cli.child.kill('SIGKILL');
  });

  it('finishes a webhook whose body is still streaming, refuses new connections, journals it and exits 0', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'rules.yaml'), 'targets: {}\nroutes: []\nfallback: []\n');
    writeFileSync(
      path.join(dir, 'switchyard.yaml'),
      `listen: { host: 127.0.0.1, port: 0 }\nrules: ./rules.yaml\nstore: { sqlite: { path: ./journal.db } }\nsources: { monitor: { secrets: ["\${MONITOR_SECRET}"] } }\n`,
    );
    cli = spawnCli(['serve', '--config', path.join(dir, 'switchyard.yaml')], { MONITOR_SECRET: SOURCE_SECRET });
    const port = (JSON.parse(await cli.waitFor('switchyard listening')) as { port: number }).port;

    const body = JSON.stringify({
      event: 'incident.created',
      timestamp: '2026-11-22T10:00:00Z',
      data: { incident_id: 'inc_in_flight', severity: 'high' },
    });
    const half = Math.floor(body.length / 2);
    const connection = await openConnection(port);
    // `Expect: 100-continue` makes the server say when it has read the headers and started the request, so
    // SIGTERM arrives while the request is provably in flight, not while it is still in the accept queue.
    connection.socket.write(
      [
        'POST /webhooks/monitor HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        'Content-Type: application/json',
        `X-Service-Signature: ${sign(body, SOURCE_SECRET)}`,
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Expect: 100-continue',
        '',
        '',
      ].join('\r\n'),
    );
    await connection.until(/^HTTP\/1\.1 100 Continue\r\n/);
    connection.socket.write(body.slice(0, half));

    cli.child.kill('SIGTERM');
    await cli.waitFor('shutting down');
    // The listener is closed: a new connection is refused while the old request is still unfinished.
    // (The log line is written just before the listener closes, so the first try may still get in.)
    expect(await refusedSoon(port)).toBe('ECONNREFUSED');
    expect(cli.child.exitCode).toBeNull();

    connection.socket.write(body.slice(half));
    const text = await connection.until(/HTTP\/1\.1 200 [^]*\r\n\r\n\{[^]*\}$/);
    connection.socket.destroy();
    const answer = JSON.parse(text.slice(text.lastIndexOf('\r\n\r\n') + 4)) as { id: string; duplicate: boolean };
    expect(answer).toMatchObject({ id: expect.stringMatching(/^evt_/), duplicate: false });

    expect(await cli.exited).toBe(0);
    expect(cli.stdout()).toContain('switchyard stopped');
    const store = createSqliteStore({ path: path.join(dir, 'journal.db') });
    const event = await store.getEvent(answer.id).finally(() => store.close());
    expect(event).toMatchObject({ id: answer.id, source: 'monitor', kind: 'incident.created' });
    expect(event?.body.toString('utf8')).toBe(body);
  }, 40_000);
});
