/**
 * The console benchmark (issue 13): each console page's admin API calls, timed over HTTP against a real daemon
 * (a child process) whose SQLite journal holds `events` events over 30 days (bench/fill-console-journal.ts).
 * p50 and max per call over `rounds` calls after two warm-ups; the aim is under 200 ms each. Reports, never asserts.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { newApiKey } from '../src/admin/api/new-api-key.js';
import { startChildServer } from './child-server.js';
import { fillConsoleJournal } from './fill-console-journal.js';
import { freePort } from './free-port.js';
import { BENCH_RULES, BENCH_SOURCE } from './start-daemon.js';
import { median } from './summarize.js';

export interface ConsoleBenchOptions {
  readonly root: string;
  readonly events: number;
  readonly rounds: number;
  readonly logLevel: string;
}

export async function runConsoleBench(options: ConsoleBenchOptions): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-console-bench-'));
  try {
    const fillStarted = performance.now();
    const { deadEventId } = await fillConsoleJournal(path.join(dir, 'journal.db'), options.events, Date.now());
    const fillSeconds = ((performance.now() - fillStarted) / 1000).toFixed(0);
    const [port, adminPort] = [await freePort(), await freePort()];
    const key = newApiKey();
    writeFileSync(path.join(dir, 'rules.yaml'), BENCH_RULES);
    writeFileSync(
      path.join(dir, 'switchyard.yaml'),
      [
        `listen: { host: 127.0.0.1, port: ${port} }`,
        'rules: ./rules.yaml',
        'store: { sqlite: { path: ./journal.db } }',
        `sources: { ${BENCH_SOURCE}: { secrets: ["\${BENCH_SECRET}"] } }`,
        `log: { level: ${options.logLevel} }`,
        `admin: { listen: { port: ${adminPort} }, keys: [{ name: bench, hash: "${key.hash}", scopes: [read] }] }`,
        '',
      ].join('\n'),
    );
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SWITCHYARD_')));
    const daemon = await startChildServer({
      name: 'switchyard (console bench)',
      args: [path.join(options.root, 'dist/cli/main.js'), 'serve', '--config', path.join(dir, 'switchyard.yaml')],
      port,
      env: { ...env, BENCH_SECRET: randomBytes(24).toString('hex'), NODE_ENV: 'production' },
      cwd: dir,
      readyTimeoutMs: 120_000,
    });
    try {
      console.log(
        `console benchmark: ${options.events.toLocaleString('en-US')} events over 30 days (filled in ${fillSeconds} s), ` +
          `one delivery each (2% dead), ${options.rounds} calls per API call after 2 warm-ups`,
      );
      const api = `http://127.0.0.1:${adminPort}/api/v1`;
      const get = async (route: string): Promise<{ ms: number; body: unknown }> => {
        const started = performance.now();
        const response = await fetch(`${api}${route}`, { headers: { authorization: `Bearer ${key.key}` } });
        const body: unknown = await response.json();
        const ms = performance.now() - started;
        if (response.status !== 200) throw new Error(`${route}: ${response.status} ${JSON.stringify(body)}`);
        return { ms, body };
      };
      const changes = (await get('/changes')).body as { cursor: string };
      const calls: [string, string][] = [
        ['overview (6 h)', '/overview?hours=6'],
        ['overview (48 h)', '/overview?hours=48'],
        ['events, page 1', '/events?limit=50'],
        ['events, kind + severity', '/events?limit=50&kind=agent.offline&severity=critical'],
        ['events, q (rare title word)', '/events?limit=50&q=needle'],
        ['events, q + since 24h', '/events?limit=50&q=disk&since=24h'],
        ['event detail', `/events/${deadEventId}`],
        ['dead letters, reason filter', '/dead-letters?limit=50&reason=503'],
        ['silences', '/silences'],
        ['changes (after cursor)', `/changes?after=${changes.cursor}`],
        ['targets', '/targets'],
      ];
      console.log(`  ${'call'.padEnd(30)} ${'p50 ms'.padStart(8)} ${'max ms'.padStart(8)}`);
      for (const [name, route] of calls) {
        for (let i = 0; i < 2; i++) await get(route);
        const times: number[] = [];
        for (let i = 0; i < options.rounds; i++) times.push((await get(route)).ms);
        const max = Math.max(...times);
        console.log(`  ${name.padEnd(30)} ${median(times).toFixed(1).padStart(8)} ${max.toFixed(1).padStart(8)}`);
      }
    } finally {
      await daemon.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
