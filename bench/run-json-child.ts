import { spawn } from 'node:child_process';

/**
 * Runs `node <args>` and resolves with the JSON line it prints last on stdout; rejects, with the end of its
 * stderr, when it exits non-zero or prints no such line.
 */
export function runJsonChild<T>(name: string, args: readonly string[], cwd: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args], { cwd, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-4096)));
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = stdout.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !line.startsWith('{')) {
        reject(new Error(`${name} failed (exit ${code}):\n${stderr}${stdout.slice(-2048)}`));
        return;
      }
      resolve(JSON.parse(line) as T);
    });
  });
}
