import type { CliIo } from '../../../src/cli/cli-io.js';

export interface FakeCliIo extends CliIo {
  readonly out: () => string;
  readonly err: () => string;
}

/** A CliIo that collects what a command prints, for in-process command tests. */
export function fakeCliIo(cwd: string, env: Record<string, string | undefined> = {}, stdin = ''): FakeCliIo {
  let out = '';
  let err = '';
  return {
    stdout: (text) => {
      out += text;
    },
    stderr: (text) => {
      err += text;
    },
    env,
    cwd,
    readStdin: async () => stdin,
    out: () => out,
    err: () => err,
  };
}
