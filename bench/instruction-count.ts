// Instructions per ingested event, this checkout's daemon against another's (`--baseline DIR`), counted by
// valgrind's callgrind: the same for the same code and load whatever else the machine does, where CPU time
// per event swings by a fifth from round to round here and cannot resolve a change of a few per cent.
// npx tsx bench/instruction-count.ts --baseline DIR [--rounds 3] [--events 3000] [--warmup 1500]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from './free-port.js';
import { createEventFactory, SIGNATURE_HEADER } from './signed-event.js';
import { BENCH_SOURCE, startDaemon } from './start-daemon.js';
import { median } from './summarize.js';

const SECRET = 'instruction-count-secret';
const CONNECTIONS = 8;
const { values } = parseArgs({
  options: {
    baseline: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    events: { type: 'string', default: '3000' },
    warmup: { type: 'string', default: '1500' },
  },
});
if (values.baseline === undefined) throw new Error('--baseline DIR: a checkout with its own dist/ to compare with');
const builds = { candidate: path.resolve(import.meta.dirname, '..'), baseline: path.resolve(values.baseline) };
const [rounds, events, warmup] = [values.rounds, values.events, values.warmup].map(Number) as [number, number, number];

/** `count` distinct signed events, CONNECTIONS at a time on keep-alive connections; every answer must be 200. */
async function send(origin: string, count: number, next: ReturnType<typeof createEventFactory>): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const url = new URL(`/webhooks/${BENCH_SOURCE}`, origin);
  let started = 0;
  const one = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const event = next();
      const headers = { 'content-type': 'application/json', [SIGNATURE_HEADER]: event.signature };
      const request = http.request(url, { method: 'POST', agent, headers }, (answer) => {
        answer
          .resume()
          .on('end', () => (answer.statusCode === 200 ? resolve() : reject(new Error(`${answer.statusCode}`))));
      });
      request.on('error', reject).end(event.body);
    });
  const lane = async (): Promise<void> => {
    while (started < count) {
      started += 1;
      await one();
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, lane));
  agent.destroy();
}

/** One daemon under callgrind: warmed up uncounted, then `events` counted; returns instructions per event. */
async function countOnce(root: string): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-instructions-'));
  try {
    const out = path.join(dir, 'callgrind.out');
    const daemon = await startDaemon({
      root,
      dir,
      journal: { kind: 'sqlite' },
      port: await freePort(),
      secret: SECRET,
      logLevel: 'info',
      wrapper: ['valgrind', '--tool=callgrind', `--callgrind-out-file=${out}`, '--instr-atstart=no'],
      readyTimeoutMs: 180_000,
    });
    const next = createEventFactory(SECRET);
    try {
      await send(daemon.origin, warmup, next);
      execFileSync('callgrind_control', ['--instr=on', String(daemon.pid)], { stdio: 'ignore' });
      await send(daemon.origin, events, next);
      execFileSync('callgrind_control', ['--instr=off', String(daemon.pid)], { stdio: 'ignore' });
    } finally {
      await daemon.stop(); // callgrind writes what it counted as the process exits
    }
    const files = readdirSync(dir).filter((name) => name.startsWith('callgrind.out'));
    // A dump's `totals:` line, at its end, holds what it counted (its header's `summary:` may read 0).
    const total = files
      .map((name) => /^totals:\s+(\d+)/m.exec(readFileSync(path.join(dir, name), 'utf8'))?.[1] ?? '0')
      .reduce((sum, count) => sum + Number(count), 0);
    return total / events;
  } finally {
    if (process.env.KEEP === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

const counts = { candidate: [] as number[], baseline: [] as number[] };
console.log(`instructions per event, ${events} events after ${warmup} uncounted, ${CONNECTIONS} connections`);
for (let round = 1; round <= rounds; round += 1) {
  // Alternated, as in the other benchmarks, although the count barely moves with the order.
  const order = round % 2 === 1 ? (['baseline', 'candidate'] as const) : (['candidate', 'baseline'] as const);
  for (const name of order) {
    const count = await countOnce(builds[name]);
    counts[name].push(count);
    console.log(`  round ${round} ${name.padEnd(9)} ${Math.round(count).toLocaleString('en-US')} instructions`);
  }
}
const ratios = counts.candidate.map((count, index) => count / (counts.baseline[index] ?? Number.NaN));
console.log(
  `candidate / baseline: ${(median(counts.candidate) / median(counts.baseline)).toFixed(3)} of the medians; ` +
    `per round ${ratios.map((ratio) => ratio.toFixed(3)).join(' ')}`,
);
