/**
 * Unauthenticated memory under a flood (issue 10, item 2): `--attackers` connections (2,000 by default) each
 * send a 1 MiB body with a well-formed but wrong signature, 64 KiB every 200 ms, and reconnect when the daemon
 * closes them, for `--seconds`. The daemon's VmRSS (from /proc/<pid>/status) is sampled every 250 ms, and a
 * valid signed event is posted every second meanwhile. Two daemons in one run: the defaults, and a baseline
 * with the bounds lifted (`max_body_in_flight: 4096mb`, `max_connections: 1000000`), as before the fix.
 * Reports, never asserts. Alone: `npx tsx bench/hostile-bodies.ts` after `npm run build`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort } from './free-port.js';
import { createEventFactory, SIGNATURE_HEADER } from './signed-event.js';
import { startDaemon } from './start-daemon.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SECRET = 'hostile-bench-secret-0123456789';
const BODY = 1024 * 1024 - 1024; // under the default max_body (1mb), so it is read, not refused from its length
const CHUNK = Buffer.alloc(64 * 1024, 'x');

interface Result {
  readonly name: string;
  readonly idleMb: number;
  readonly peakMb: number;
  readonly afterMb: number;
  readonly valid: string;
  readonly refused: number;
}

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Math.round(Number(match?.[1] ?? 0) / 1024);
}

/** One attacker: connects, trickles a wrongly signed body, and starts again whenever the daemon closes it. */
function attack(port: number, until: number, counts: { refused: number }, live: Set<Socket>): void {
  const open = (): void => {
    if (Date.now() >= until) return;
    const socket = connect(port, '127.0.0.1');
    live.add(socket);
    let sent = 0;
    const timer = setInterval(() => {
      if (sent >= BODY || socket.destroyed) return;
      const part = CHUNK.subarray(0, Math.min(CHUNK.length, BODY - sent));
      sent += part.length;
      socket.write(part);
    }, 200);
    socket.on('connect', () =>
      socket.write(
        `POST /webhooks/monitor HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
          `${SIGNATURE_HEADER}: sha256=${'0'.repeat(64)}\r\nContent-Length: ${BODY}\r\n\r\n`,
      ),
    );
    socket.on('data', (data) => {
      if (data.toString('latin1').startsWith('HTTP/1.1 503')) counts.refused += 1;
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      live.delete(socket);
      clearInterval(timer);
      setTimeout(open, 100);
    });
  };
  open();
}

async function measure(name: string, extraConfig: readonly string[], attackers: number, seconds: number) {
  const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-hostile-'));
  const port = await freePort();
  const daemon = await startDaemon({
    root: ROOT,
    dir,
    journal: { kind: 'sqlite' },
    port,
    secret: SECRET,
    logLevel: 'error',
    extraConfig,
  });
  const nextEvent = createEventFactory(SECRET);
  try {
    const idleMb = rssMb(daemon.pid);
    const until = Date.now() + seconds * 1000;
    const counts = { refused: 0 };
    const live = new Set<Socket>();
    for (let i = 0; i < attackers; i++) attack(port, until, counts, live);
    let peakMb = idleMb;
    const statuses: string[] = [];
    while (Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      peakMb = Math.max(peakMb, rssMb(daemon.pid));
      if (statuses.length < Math.floor((seconds * 1000 - (until - Date.now())) / 1000)) {
        const event = nextEvent();
        const started = Date.now();
        const answer = await fetch(`${daemon.origin}/webhooks/monitor`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: event.signature },
          body: event.body,
          signal: AbortSignal.timeout(5_000),
        }).then(
          (response) => String(response.status),
          () => 'no answer',
        );
        statuses.push(`${answer} ${Date.now() - started}ms`);
      }
    }
    for (const socket of live) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const result: Result = {
      name,
      idleMb,
      peakMb,
      afterMb: rssMb(daemon.pid),
      valid: summarize(statuses),
      refused: counts.refused,
    };
    return result;
  } finally {
    await daemon.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function summarize(statuses: readonly string[]): string {
  const ok = statuses.filter((s) => s.startsWith('200 ')).length;
  return `${ok}/${statuses.length} answered 200 (${statuses.join(', ')})`;
}

export async function main(options: { attackers?: number; seconds?: number } = {}): Promise<void> {
  const attackers = options.attackers ?? 2_000;
  const seconds = options.seconds ?? 10;
  console.log(`${attackers} connections, each a wrongly signed 1 MiB body at 64 KiB / 200 ms, for ${seconds} s`);
  const results = [
    await measure('defaults', [], attackers, seconds),
    await measure('unbounded', ['max_body_in_flight: 4096mb', 'max_connections: 1000000'], attackers, seconds),
  ];
  for (const r of results) {
    console.log(
      `${r.name.padEnd(10)} RSS idle ${r.idleMb} MB, peak ${r.peakMb} MB, 2 s after ${r.afterMb} MB; ` +
        `503 ingest_busy x${r.refused}; valid events: ${r.valid}`,
    );
  }
  const [bounded, unbounded] = results as [Result, Result];
  console.log(`peak RSS bounded / unbounded: ${(bounded.peakMb / unbounded.peakMb).toFixed(2)}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { attackers: { type: 'string' }, seconds: { type: 'string' } } });
  await main({
    ...(values.attackers ? { attackers: Number(values.attackers) } : {}),
    ...(values.seconds ? { seconds: Number(values.seconds) } : {}),
  });
}
