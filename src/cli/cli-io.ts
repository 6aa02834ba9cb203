/**
 * What a CLI command may touch, passed in so commands are testable without spawning a process:
 * `src/cli/main.ts` builds the real one from `process`.
 */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Directory relative paths on the command line are resolved against. */
  readonly cwd: string;
  /** Reads all of standard input (for `switchyard route` without `--event`). */
  readonly readStdin: () => Promise<string>;
}

/** A command takes its own arguments (after the command name) and returns the process exit code. */
export type CliCommand = (args: readonly string[], io: CliIo) => Promise<number>;
