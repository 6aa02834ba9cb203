import { parseArgs } from 'node:util';
import { startSwitchyard } from '../main.js';
import { SwitchyardError } from '../switchyard-error.js';
import type { CliCommand } from './cli-io.js';

/**
 * `switchyard serve [--config FILE]`: runs the daemon until SIGTERM or SIGINT. Signals are handled here,
 * in one place: SIGTERM/SIGINT finish in-flight requests and commits, then exit 0 (a second signal exits
 * at once); SIGHUP reloads the rules file, keeping the old rules if the new ones are invalid.
 */
export const runServe: CliCommand = async (args, io) => {
  const { values } = parseArgs({
    args: [...args],
    options: { config: { type: 'string', short: 'c' } },
    allowPositionals: false,
  });
  let running;
  try {
    running = await startSwitchyard({ configFile: values.config, env: io.env, cwd: io.cwd });
  } catch (error) {
    io.stderr(`switchyard: ${error instanceof SwitchyardError ? `${error.code}: ${error.message}` : String(error)}\n`);
    return 1;
  }
  const daemon = running;
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string): void => {
      if (stopping) {
        daemon.log.warn('second signal, exiting without waiting', { signal });
        resolve(1);
        return;
      }
      stopping = true;
      daemon.log.info('shutting down', { signal });
      daemon.close().then(
        () => resolve(0),
        (error: unknown) => {
          daemon.log.error('shutdown failed', { error: String(error) });
          resolve(1);
        },
      );
    };
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGHUP', () => daemon.reloadRules());
  });
};
