import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface SpawnedCli {
  readonly child: ChildProcess;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Resolves with the exit code (or the signal name) when the process ends. */
  readonly exited: Promise<number | string>;
  /** Resolves with the first stdout line that contains `text`. */
  waitFor(text: string, timeoutMs?: number): Promise<string>;
}

/** Runs the real CLI (`src/cli/main.ts` through tsx) as a separate process, as an operator would. */
export function spawnCli(args: readonly string[], env: Record<string, string>, cwd = ROOT): SpawnedCli {
  const child = spawn(process.execPath, ['--import', 'tsx', `${ROOT}src/cli/main.ts`, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters: { text: string; resolve: (line: string) => void }[] = [];
  child.stdout?.on('data', (data: Buffer) => {
    out += data.toString('utf8');
    for (const waiter of [...waiters]) {
      const line = out.split('\n').find((l) => l.includes(waiter.text));
      if (line !== undefined) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  child.stderr?.on('data', (data: Buffer) => (err += data.toString('utf8')));
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(text, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for "${text}"; stderr: ${err}`)), timeoutMs);
        const existing = out.split('\n').find((l) => l.includes(text));
        if (existing !== undefined) {
          clearTimeout(timer);
          resolve(existing);
          return;
        }
        waiters.push({
          text,
          resolve: (line) => {
            clearTimeout(timer);
            resolve(line);
          },
        });
      });
    },
  };
}
