// Where a daemon's main thread spent its busy time, by part of the pipeline, from a `.cpuprofile` written by
// `--pipeline-cpu-prof DIR` (the main thread's file is the one whose name ends in `.0.001.cpuprofile`). Each
// sample goes to the first part below that any frame of its stack belongs to, so the shares add up to 100%.
// Run: npx tsx bench/profile-shares.ts FILE.cpuprofile
import { readFileSync } from 'node:fs';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
}
interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const PARTS: readonly (readonly [string, (frame: CallFrame) => boolean])[] = [
  ['idle', (f) => f.functionName === '(idle)'],
  ['garbage collection', (f) => f.functionName === '(garbage collector)'],
  [
    'attempt records',
    (f) => /recordAttempts|create-attempt-recorder|record-until-lease/.test(`${f.functionName} ${f.url}`),
  ],
  ['ingest transaction (event, dedupe, deliveries)', (f) => /create-sqlite-ingest\.js/.test(f.url)],
  ['claims (claimDue, event reads)', (f) => /claimDue/.test(f.functionName)],
  ['other journal calls', (f) => /\/store\//.test(f.url)],
  [
    'sending deliveries (HTTP client)',
    (f) => /create-http-sender|_http_client|_http_agent|run-attempt|build-http-attempt/.test(f.url),
  ],
  ['receiving webhooks (ingest handler, parse, verify)', (f) => /\/ingest\/|_http_server|_http_incoming/.test(f.url)],
  ['logging (winston)', (f) => /winston|logform|\/log\//.test(f.url)],
  ['metrics (prom-client)', (f) => /prom-client|\/admin\//.test(f.url)],
  ['delivery engine bookkeeping', (f) => /\/delivery\//.test(f.url)],
];
const OTHER = 'other (socket I/O, timers, promises, program)';

const file = process.argv[2];
if (file === undefined) throw new Error('usage: npx tsx bench/profile-shares.ts FILE.cpuprofile');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

const totals = new Map<string, number>();
let busy = 0;
profile.samples.forEach((leaf, i) => {
  const micros = profile.timeDeltas[i] ?? 0;
  const frames: CallFrame[] = [];
  for (let id: number | undefined = leaf; id !== undefined; id = parents.get(id)) {
    const node = nodes.get(id);
    if (node !== undefined) frames.push(node.callFrame);
  }
  const part = PARTS.find(([, belongs]) => frames.some(belongs))?.[0] ?? OTHER;
  totals.set(part, (totals.get(part) ?? 0) + micros);
  if (part !== 'idle') busy += micros;
});
console.log(`busy ${(busy / 1000).toFixed(0)} ms`);
for (const [part, micros] of [...totals].sort((a, b) => b[1] - a[1])) {
  if (part === 'idle') continue;
  console.log(
    `${((100 * micros) / busy).toFixed(1).padStart(5)}%  ${(micros / 1000).toFixed(0).padStart(6)} ms  ${part}`,
  );
}
