import { parseArgs } from 'node:util';
import { startSwitchyard, type RunningSwitchyard } from '../main.js';
import { SwitchyardError } from '../switchyard-error.js';
import type { CliCommand } from './cli-io.js';

/**
 * `switchyard serve [--config FILE]`: runs the daemon until SIGTERM or SIGINT. Signals are handled here,
 * in one place: SIGTERM/SIGINT finish in-flight requests and commits, then exit 0 (a second signal exits
 * at once); SIGHUP reloads the rules file, keeping the old rules if the new ones are invalid.
 * Handlers are installed before start-up, because Node's default for SIGHUP is to exit: a reload sent
 * the moment the daemon says it is listening must not kill it.
 */
export const runServe: CliCommand = async (args, io) => {
  const { values } = parseArgs({
    args: [...args],
    options: { config: { type: 'string', short: 'c' } },
    allowPositionals: false,
  });
  let daemon: RunningSwitchyard | undefined;
  let stopRequested: string | undefined;
  let finish: (code: number) => void = () => undefined;
  const finished = new Promise<number>((resolve) => (finish = resolve));

  const stop = (signal: string): void => {
    if (stopRequested !== undefined) {
      daemon?.log.warn('second signal, exiting without waiting', { signal });
      finish(1);
      return;
    }
    stopRequested = signal;
    if (daemon) shutDown(daemon, signal);
  };
  const shutDown = (running: RunningSwitchyard, signal: string): void => {
    running.log.info('shutting down', { signal });
    running.close().then(
      () => finish(0),
      (error: unknown) => {
        running.log.error('shutdown failed', { error: String(error) });
        finish(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGHUP', () => daemon?.reloadRules());

  try {
    daemon = await startSwitchyard({ configFile: values.config, env: io.env, cwd: io.cwd });
  } catch (error) {
    io.stderr(`switchyard: ${error instanceof SwitchyardError ? `${error.code}: ${error.message}` : String(error)}\n`);
    return 1;
  }
  if (stopRequested !== undefined) shutDown(daemon, stopRequested);
  return finished;
};
