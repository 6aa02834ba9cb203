/**
 * Noise control's cost at ingest (issue 12, Performance: "with 1,000 active silences, 100 throttle keys and
 * 50 open groups, ingest throughput stays within 10% of the same run without them"): the daemon on SQLite with
 * the benchmark rules plus a route copying every event to an archive target, against the same daemon with
 * 1,000 silences in force that every benchmark event is tested against (they match its kind, and a `where`
 * that never holds), a throttle on the benchmark's route keyed by host (50 hosts, two targets: 100 keys) with
 * a `max` never reached in its 1 s window (it decides about every delivery but holds nothing back), and the
 * archive route grouping by host with a one-hour wait (50 digests open). Alternating rounds, one invocation;
 * reports the throughput ratio and the daemons' CPU per event, never asserts. Then the journal's share alone
 * (noise-journal-bench.ts).
 *
 *   npm run build && npx tsx bench/noise-bench.ts [--rounds 3] [--parts silences,throttle,group] [--cpu-prof DIR]
 *     [--config LINE]   (a config line for both daemons, e.g. 'log: { level: warn }')
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createSqliteStore } from '../src/store/sqlite/create-sqlite-store.js';
import type { ChildServer } from './child-server.js';
import { freePort } from './free-port.js';
import { main as runNoiseJournalBench } from './noise-journal-bench.js';
import { runLoad, type LoadResult } from './run-load.js';
import { smokeCheck } from './smoke.js';
import { BENCH_RULES, BENCH_SOURCE, startDaemon } from './start-daemon.js';
import { formatTable, median, summarize } from './summarize.js';

const SILENCES = 1_000;
const KEY = '{{ data.host }}';
const PLAIN_RULES = BENCH_RULES.replace(
  'routes:\n',
  'routes:\n  - { name: archive, match: { event: "incident.*" }, to: [archive] }\n',
).replace('targets:\n', 'targets:\n  archive: { type: http, url: "https://archive.invalid/events" }\n');
const PARTS = ['silences', 'throttle', 'group'] as const;
type Part = (typeof PARTS)[number];

/** The noisy daemon's rules with the given parts of noise control switched on (silences are seeded apart). */
function noisyRules(parts: readonly Part[]): string {
  let rules = PLAIN_RULES;
  if (parts.includes('group')) {
    rules = rules.replace(
      '  - { name: archive, match: { event: "incident.*" }, to: [archive] }\n',
      `  - { name: archive, match: { event: "incident.*" }, group: { by: ["${KEY}"], wait: 1h }, to: [archive] }\n`,
    );
  }
  if (parts.includes('throttle')) {
    rules = rules.replace(
      '    to: [soc-slack, ticketing]\n',
      `    to: [soc-slack, ticketing]\n    throttle: { key: "${KEY}", window: 1s, max: 100000 }\n`,
    );
  }
  return rules;
}

/** The daemon's CPU time per accepted event, in µs (its cores over the run divided by its rate). */
function cpuPerEvent(result: LoadResult): number | undefined {
  return result.cpu && (result.cpu.processCores / result.requestsPerSecond) * 1e6;
}

async function seedSilences(dir: string): Promise<void> {
  const store = createSqliteStore({ path: path.join(dir, 'journal.db') });
  try {
    await store.migrate();
    const now = Date.now();
    for (let i = 0; i < SILENCES; i += 1) {
      await store.createSilence({
        id: `sil_bench_${String(i).padStart(4, '0')}`,
        matchers: { event: 'incident.*', where: [{ field: 'data.host', equals: `never-${i}` }] },
        startsAt: now - 60_000,
        endsAt: now + 86_400_000,
        comment: 'benchmark',
        createdBy: 'bench',
        onExpiry: 'drop',
        createdAt: now,
        updatedAt: now,
        releasedAt: null,
      });
    }
  } finally {
    await store.close();
  }
}

export async function main(args: readonly string[] = process.argv.slice(2)): Promise<void> {
  const rounds = Number(args[args.indexOf('--rounds') + 1] ?? 3) || 3;
  const profileDir = args.includes('--cpu-prof') ? args[args.indexOf('--cpu-prof') + 1] : undefined;
  // `--parts throttle,group`: what each part costs alone (default: all three, the case).
  const asked = args.includes('--parts') ? (args[args.indexOf('--parts') + 1] ?? '').split(',') : [...PARTS];
  const parts = PARTS.filter((part) => asked.includes(part));
  const extraConfig = args.includes('--config') ? [args[args.indexOf('--config') + 1] ?? ''] : [];
  const root = fileURLToPath(new URL('..', import.meta.url));
  const secret = randomBytes(24).toString('hex');
  const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-noise-bench-'));
  const servers: ChildServer[] = [];
  try {
    const start = async (name: string, rules: string) => {
      const own = path.join(dir, name);
      mkdirSync(own);
      if (name === 'noisy' && parts.includes('silences')) await seedSilences(own);
      const server = await startDaemon({
        root,
        dir: own,
        name,
        journal: { kind: 'sqlite' },
        port: await freePort(),
        secret,
        logLevel: 'info',
        rules,
        extraConfig,
        nodeFlags: profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}/${name}`],
      });
      servers.push(server);
      await smokeCheck(`${server.origin}/webhooks/${BENCH_SOURCE}`, secret, true);
      return { name, server };
    };
    const targets = [await start('plain', PLAIN_RULES), await start('noisy', noisyRules(parts))];
    console.log(
      `noise benchmark: ${parts.join(', ')} (${SILENCES} silences, 100 throttle keys, 50 digests open) vs none; ${rounds} rounds`,
    );
    const results = new Map<string, LoadResult[]>(targets.map((t) => [t.name, []]));
    for (let round = 1; round <= rounds; round += 1) {
      for (const target of round % 2 === 1 ? targets : [...targets].reverse()) {
        const result = await runLoad(
          {
            urls: [`${target.server.origin}/webhooks/${BENCH_SOURCE}`],
            connections: 64,
            durationSeconds: 10,
            warmupSeconds: 2,
            poolSize: 150_000,
            serverPids: [target.server.pid],
          },
          secret,
        );
        results.get(target.name)?.push(result);
        console.log(
          `  round ${round} ${target.name.padEnd(6)} ${Math.round(result.requestsPerSecond)} req/s  p99 ${result.p99Ms} ms` +
            `  ${Math.round(cpuPerEvent(result) ?? 0)} µs CPU per event`,
        );
      }
    }
    const [plain, noisy] = targets.map((t) => summarize(t.name, results.get(t.name) ?? []));
    if (plain && noisy) {
      console.log(formatTable([plain, noisy]));
      console.log(
        `noisy / plain throughput: ${(noisy.requestsPerSecond / plain.requestsPerSecond).toFixed(3)} (goal: >= 0.90)`,
      );
      // The daemon's own CPU per event does not depend on what else the machine runs meanwhile.
      const cpu = (name: string) => median((results.get(name) ?? []).map((r) => cpuPerEvent(r) ?? NaN));
      console.log(
        `CPU per event: plain ${Math.round(cpu('plain'))} µs, noisy ${Math.round(cpu('noisy'))} µs, ` +
          `plain / noisy ${(cpu('plain') / cpu('noisy')).toFixed(3)}`,
      );
      // Each round's two runs are back to back: their ratio cancels most of the machine's drift between rounds,
      // which on this shared machine moves both daemons by 20-30% within minutes.
      const paired = (of: (r: LoadResult) => number) => {
        const ratios = (results.get('noisy') ?? []).map((n, i) => {
          const p = results.get('plain')?.[i];
          return p === undefined ? NaN : of(n) / of(p);
        });
        return `${median(ratios).toFixed(3)} (${ratios.map((r) => r.toFixed(2)).join(' ')})`;
      };
      console.log(`per round, noisy / plain throughput: ${paired((r) => r.requestsPerSecond)}`);
      console.log(`per round, plain / noisy CPU per event: ${paired((r) => 1 / (cpuPerEvent(r) ?? NaN))}`);
    }
  } finally {
    for (const server of servers) await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  // The journal's share alone, in this process: steadier than the daemons' figures on a shared machine.
  await runNoiseJournalBench(['--rounds', String(rounds)]);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
