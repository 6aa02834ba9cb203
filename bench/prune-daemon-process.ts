/**
 * The daemon for the prune benchmark, in its own process: `node --import tsx bench/prune-daemon-process.ts
 * CONFIG FIRST_PRUNE_AFTER_MS`. The same daemon as `switchyard serve`, except that its first retention pass
 * starts when the benchmark says (the daemon's own default is one minute after start). SIGTERM stops it.
 */
import path from 'node:path';
import { startSwitchyard } from '../src/main.js';

const [configFile = '', firstPruneAfter = '60000'] = process.argv.slice(2);
const running = await startSwitchyard({
  configFile,
  env: process.env,
  cwd: path.dirname(configFile),
  firstPruneAfterMs: Number(firstPruneAfter),
});
process.once('SIGTERM', () => void running.close().then(() => process.exit(0)));
