/**
 * Cost of reading a signed body at ingest: the checks added to JSON.parse (a byte order mark, a key written
 * twice at any depth, a NUL character) against the parse alone, for the benchmarks' event, a fuller one and a
 * 64 KB one. Reports microseconds per call and the ratio, never asserts.
 *
 *   npx tsx bench/parse-body-bench.ts
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatTable } from '../src/cli/format-table.js';
import { parseBody } from '../src/ingest/parse-envelope.js';
import { createEventFactory } from './signed-event.js';

const RUNS = 9;
const CALLS = 20_000;

const fuller = JSON.stringify({
  event: 'incident.created',
  timestamp: '2026-11-22T10:00:00Z',
  data: {
    incident_id: 'inc_1001',
    severity: 'critical',
    title: 'Ransomware encrypting files on fs-02',
    description: 'Files renamed at 400/s by svc-backup; shadow copies deleted.\n'.repeat(8),
    host: 'fs-02',
    environment: 'production',
    url: 'https://monitor.example.com/incidents/inc_1001',
    tags: ['ransomware', 'fileserver', 'tier-1', 'C:\\Shares\\Finance'],
    agent: { id: 'agt_17', name: 'fs-02', tags: ['windows', 'server'], version: '7.4.1' },
    indicators: Array.from({ length: 10 }, (_, i) => ({ type: 'sha256', value: `${i}`.repeat(64), seen: i })),
  },
});
const large = JSON.stringify({
  event: 'threat.detected',
  timestamp: '2026-11-22T10:00:00Z',
  data: { processes: Array.from({ length: 400 }, (_, i) => ({ pid: i, name: `proc-${i}.exe`, cmd: 'x'.repeat(100) })) },
});

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** The reading before these checks: decode (fatal) and parse. */
const parseOnly = (body: Buffer): unknown => JSON.parse(utf8.decode(body));

function timeRun(read: (body: Buffer) => unknown, body: Buffer, calls: number): number {
  let sink = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) sink += read(body) === null ? 1 : 0;
  if (sink < 0) console.log(sink); // keeps the work observable
  return Number(process.hrtime.bigint() - started) / 1_000 / calls;
}

export async function main(): Promise<void> {
  const bodies: [string, Buffer][] = [
    ['benchmark event', Buffer.from(createEventFactory('secret')().body)],
    ['fuller event', Buffer.from(fuller)],
    ['64 KB event', Buffer.from(large)],
  ];
  const rows: string[][] = [];
  for (const [name, body] of bodies) {
    const calls = Math.max(200, Math.floor((CALLS * 300) / body.length));
    for (let i = 0; i < calls / 4; i++) void (parseOnly(body), parseBody(body)); // warm-up (JIT)
    const times: [number[], number[]] = [[], []];
    for (let run = 0; run < RUNS; run++) {
      times[0].push(timeRun(parseOnly, body, calls));
      times[1].push(timeRun(parseBody, body, calls));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(RUNS / 2)] ?? Number.NaN;
    const [before, now] = [median(times[0]), median(times[1])];
    rows.push([name, String(body.length), before.toFixed(2), now.toFixed(2), (now / before).toFixed(2)]);
  }
  console.log(formatTable(['body', 'bytes', 'parse only µs', 'parseBody µs', 'ratio'], rows));
  console.log(`(medians of ${RUNS} interleaved runs)`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await main();
}
