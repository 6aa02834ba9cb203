import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CliIo } from './cli-io.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface ParsedCommandArgs {
  readonly values: Record<string, string | boolean | undefined>;
  readonly positionals: readonly string[];
}

/**
 * parseArgs with the CLI's conventions: `--help` prints usage (exit 0); an unknown option or a wrong
 * number of positionals prints the problem and usage to stderr (exit 2). Returns the exit code then.
 */
export function parseCommandArgs(
  args: readonly string[],
  options: Options,
  positionals: { readonly min: number; readonly max: number },
  usage: string,
  io: CliIo,
): ParsedCommandArgs | number {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...args],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    io.stderr(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    return 2;
  }
  if (parsed.values.help === true) {
    io.stdout(usage);
    return 0;
  }
  if (parsed.positionals.length < positionals.min || parsed.positionals.length > positionals.max) {
    io.stderr(`wrong number of arguments\n${usage}`);
    return 2;
  }
  return { values: parsed.values as ParsedCommandArgs['values'], positionals: parsed.positionals };
}
