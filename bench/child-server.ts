import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ChildServer {
  readonly name: string;
  /** Base URL, e.g. `http://127.0.0.1:43123`. */
  readonly origin: string;
  readonly pid: number;
  /** SIGTERM, then SIGKILL if it has not exited after 10 s. */
  stop(): Promise<void>;
}

export interface ChildServerOptions {
  readonly name: string;
  /** Arguments to `command`. */
  readonly args: readonly string[];
  /** The program; `node` (this process's) by default. */
  readonly command?: string;
  /** Answers 200 once the server is ready; `/readyz` by default. */
  readonly readyPath?: string;
  readonly port: number;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Where the child's stdout goes (its JSON log lines for the daemon); /dev/null by default. */
  readonly stdoutFile?: string;
  readonly readyTimeoutMs?: number;
}

/**
 * Starts a server as a child process (`node` unless told otherwise) and resolves once its ready path (`GET
 * /readyz`) answers 200. Its stderr is kept (last 4 KiB) so a failed start says why.
 */
export async function startChildServer(options: ChildServerOptions): Promise<ChildServer> {
  const stdout = openSync(options.stdoutFile ?? '/dev/null', 'a');
  const child = spawn(options.command ?? process.execPath, [...options.args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', stdout, 'pipe'],
  });
  closeSync(stdout); // the child holds its own copy
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    stderr = (stderr + text).slice(-4096);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  // A program that cannot be started (a wrong path) emits 'error' and no 'exit': unheard, it would crash the run.
  let spawnError: Error | undefined;
  child.once('error', (error) => (spawnError = error));

  const origin = `http://127.0.0.1:${options.port}`;
  const ready = `${origin}${options.readyPath ?? '/readyz'}`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 20_000);
  for (;;) {
    if (spawnError !== undefined) throw new Error(`${options.name} could not be started: ${spawnError.message}`);
    if (exitCode !== undefined) {
      throw new Error(`${options.name} exited with code ${exitCode} before it was ready:\n${stderr}`);
    }
    if (Date.now() > deadline) {
      await stop(child, exited);
      throw new Error(`${options.name} was not ready at ${ready} within the timeout:\n${stderr}`);
    }
    if (await isReady(ready)) break;
    await sleep(50);
  }
  return {
    name: options.name,
    origin,
    pid: child.pid ?? 0,
    stop: () => stop(child, exited),
  };
}

async function isReady(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

async function stop(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
