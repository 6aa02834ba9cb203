import { runDemo } from '../demo/run-demo.js';
import { SwitchyardError } from '../switchyard-error.js';
import type { CliCommand } from './cli-io.js';
import { parseCommandArgs } from './parse-command-args.js';

const USAGE = `usage: switchyard demo [--keep] [--timeout SECONDS]

Runs the daemon with rules.example.yaml against local stand-ins for Slack, an SMTP server and a ticketing API
(which fails for a while, then recovers), sends signed events of every kind and prints what reached which
target, with attempts. Needs no configuration; uses 127.0.0.1 only. Exit 0 when everything was delivered.
  --keep          keep the daemon, its console and the stand-ins running until Ctrl-C (it prints the console's
                  address and a key to sign in with), and the temporary folder (config, journal, log) afterwards
  --timeout S     wait at most S seconds for the deliveries (default 60)
`;

/** `switchyard demo`: a guided tour on a fresh clone (`npm run demo`). */
export const runDemoCommand: CliCommand = async (args, io) => {
  const options = { keep: { type: 'boolean' }, timeout: { type: 'string' } } as const;
  const parsed = parseCommandArgs(args, options, { min: 0, max: 0 }, USAGE, io);
  if (typeof parsed === 'number') return parsed;
  const timeout = parsed.values.timeout === undefined ? 60 : Number(parsed.values.timeout);
  if (!Number.isFinite(timeout) || timeout <= 0) {
    io.stderr(`switchyard demo: --timeout takes a positive number of seconds\n${USAGE}`);
    return 2;
  }
  try {
    const result = await runDemo({
      print: io.stdout,
      keep: parsed.values.keep === true,
      timeoutMs: timeout * 1000,
      whileKept: untilInterrupted,
    });
    return result.allDelivered ? 0 : 1;
  } catch (error) {
    if (!(error instanceof SwitchyardError)) throw error;
    io.stderr(`switchyard demo: ${error.code}: ${error.message}\n`);
    return 1;
  }
};

/** Resolves on Ctrl-C (SIGINT) or SIGTERM, so a kept demo stops cleanly and its folder stays. */
function untilInterrupted(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
