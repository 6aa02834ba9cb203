import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuSnapshot, cpuUse, type CpuUse } from './cpu-sample.js';
import type { EngineRunOptions, ThroughputResult } from './delivery-results.js';

export interface FleetOptions {
  /** Options for every engine; `mode` is set to `fleet`. */
  readonly engine: EngineRunOptions;
  readonly instances: number;
  /** True once the journal holds nothing left to deliver. */
  readonly drained: () => Promise<boolean>;
  readonly timeoutMs: number;
}

interface Engine {
  readonly child: ChildProcess;
  /** Resolves with the next line the engine prints on stdout; rejects once it has exited. */
  readonly nextLine: () => Promise<string>;
}

// Often enough that the end of a run is seen within a few ms; one indexed query each, cheap for the server.
const POLL_MS = 10;

function spawnEngine(options: EngineRunOptions): Engine {
  const script = path.join(options.root, 'bench/delivery-engine-process.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify({ ...options, mode: 'fleet' })], {
    cwd: options.root,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  // A child that died makes writing to it fail (EPIPE); its exit is what gets reported, through `nextLine`.
  child.stdin?.on('error', () => undefined);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-4096)));
  const lines: string[] = [];
  let waiting: ((line: string) => void) | undefined;
  let buffer = '';
  child.stdout?.setEncoding('utf8').on('data', (text: string) => {
    buffer += text;
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      lines.push(buffer.slice(0, end));
      buffer = buffer.slice(end + 1);
    }
    while (waiting !== undefined && lines.length > 0) {
      const resolve = waiting;
      waiting = undefined;
      resolve(lines.shift() ?? '');
    }
  });
  // 'close', not 'exit': it comes after the child's stdout has been read to its end, result line included.
  const exited = new Promise<never>((_, reject) =>
    child.once('close', (code) => reject(new Error(`delivery engine exited (code ${code}):\n${stderr}`))),
  );
  exited.catch(() => undefined); // only a reason when a line is awaited
  return {
    child,
    nextLine: () =>
      lines.length > 0
        ? Promise.resolve(lines.shift() ?? '')
        : Promise.race([new Promise<string>((resolve) => (waiting = resolve)), exited]),
  };
}

/**
 * Several engine processes on one PostgreSQL journal, as several daemons would run. No engine can tell when
 * the shared journal is drained, so this process does: it waits until all are loaded, starts the clock and
 * tells them to go, polls the journal, and stops them once nothing is left. The figure is wall time from go
 * to drained; each engine's CPU and counts come back in its own result line, and are summed.
 */
export async function runEngineFleet(
  options: FleetOptions,
): Promise<{ seconds: number; results: ThroughputResult[]; cpu: CpuUse | undefined }> {
  const engines = Array.from({ length: options.instances }, () => spawnEngine(options.engine));
  try {
    for (const engine of engines) {
      const line = await engine.nextLine();
      if (line !== 'ready') throw new Error(`delivery engine: expected "ready", got ${line}`);
    }
    const cpuBefore = cpuSnapshot([]);
    const started = performance.now();
    for (const engine of engines) engine.child.stdin?.write('go\n');
    while (!(await options.drained())) {
      if (performance.now() - started > options.timeoutMs)
        throw new Error('the engines did not drain the journal in time');
      await sleep(POLL_MS);
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuUse(cpuBefore, cpuSnapshot([]));
    for (const engine of engines) engine.child.stdin?.write('stop\n');
    const results: ThroughputResult[] = [];
    for (const engine of engines) results.push(JSON.parse(await engine.nextLine()) as ThroughputResult);
    return { seconds, results, cpu };
  } finally {
    for (const engine of engines) {
      if (engine.child.exitCode === null && engine.child.signalCode === null) {
        const exited = new Promise((resolve) => engine.child.once('close', resolve));
        engine.child.stdin?.end(); // a clean exit after `stop`; a kill only if it hangs
        const timer = setTimeout(() => engine.child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
    }
  }
}
