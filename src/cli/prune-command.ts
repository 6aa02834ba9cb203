import { formatDuration } from '../config/format-duration.js';
import { loadConfig } from '../config/load-config.js';
import { pruneCutoffs } from '../retention/prune-cutoffs.js';
import { runPrunePass } from '../retention/run-prune-pass.js';
import { describeStore } from '../store/describe-store.js';
import type { PruneCounts } from '../store/prune-request.js';
import { SwitchyardError } from '../switchyard-error.js';
import type { CliCommand } from './cli-io.js';
import { openJournal } from './open-journal.js';
import { parseCommandArgs } from './parse-command-args.js';
import { vacuumSqliteJournal } from './vacuum-sqlite-journal.js';

const USAGE = `usage: switchyard prune [--config FILE] [--dry-run] [--vacuum]

Removes what the config's retention allows now, as the daemon does in the background every
retention.interval (also with retention.enabled: false): events older than retention.events (or the
dedupe window, when that is longer) whose deliveries are all final, with their deliveries and attempts;
dead letters once older than retention.dead. Pending deliveries and their events are never removed, nor
held ones that noise control may still send (a silence not yet ended or released, an open digest, a
throttled delivery no later message has reported yet; docs/operations.md).
  --config FILE   the daemon's config (else $SWITCHYARD_CONFIG, else config/switchyard.yaml)
  --dry-run       print what would be removed, change nothing
  --vacuum        SQLite: afterwards, convert a journal that does not yet give space back (auto_vacuum) with a
                  one-time VACUUM: rewrites the whole file, needs room for a copy; stop the daemon first
Exit 0 when done, 1 when the journal could not be pruned (or another instance is pruning it right now).
`;

const describeCounts = (c: PruneCounts) =>
  `${c.events} events, ${c.deliveries} deliveries (${c.deadLetters} dead letters), ${c.attempts} attempts`;

/** `switchyard prune`: retention on demand, and what it would remove. */
export const runPrune: CliCommand = async (args, io) => {
  const options = {
    config: { type: 'string', short: 'c' },
    'dry-run': { type: 'boolean' },
    vacuum: { type: 'boolean' },
  } as const;
  const parsed = parseCommandArgs(args, options, { min: 0, max: 0 }, USAGE, io);
  if (typeof parsed === 'number') return parsed;
  const dryRun = parsed.values['dry-run'] === true;
  const configFile = typeof parsed.values.config === 'string' ? parsed.values.config : undefined;
  try {
    const config = loadConfig({ file: configFile, env: io.env, cwd: io.cwd, requireEnv: false });
    if (parsed.values.vacuum === true && (config.store.kind !== 'sqlite' || dryRun)) {
      const why = dryRun
        ? 'changes the journal; not with --dry-run'
        : 'is for SQLite; PostgreSQL reuses space by autovacuum';
      io.stderr(`switchyard prune: --vacuum ${why}\n`);
      return 2;
    }
    const now = Date.now();
    const cutoffs = pruneCutoffs(config.retention, config.dedupeWindowMs, now);
    const { retention, dedupeWindowMs } = config;
    io.stdout(
      `journal ${describeStore(config.store)}: events kept ${formatDuration(now - cutoffs.eventsBefore)} ` +
        `(retention.events ${formatDuration(retention.eventsMs)}, dedupe_window ${formatDuration(dedupeWindowMs)}), ` +
        `dead letters ${formatDuration(now - cutoffs.deadBefore)}\n` +
        `  events received before ${new Date(cutoffs.eventsBefore).toISOString()} with every delivery final; ` +
        `dead letters finished before ${new Date(cutoffs.deadBefore).toISOString()}\n`,
    );
    const store = await openJournal(configFile, io);
    try {
      if (dryRun) {
        io.stdout(`would remove ${describeCounts(await store.countPrunable(cutoffs))}\n`);
        return 0;
      }
      const started = performance.now();
      const result = await runPrunePass({ store, cutoffs, batchSize: retention.batchSize, pauseMs: 10 });
      io.stdout(
        `removed ${describeCounts(result)} in ${result.batches} batches, ${Math.round(performance.now() - started)} ms\n`,
      );
      if (result.busy) {
        io.stderr('switchyard prune: another instance is pruning this journal right now; it will finish the job\n');
        return 1;
      }
    } finally {
      await store.close();
    }
    if (parsed.values.vacuum === true && config.store.kind === 'sqlite') {
      io.stdout(`${vacuumSqliteJournal(config.store)}\n`);
    }
    return 0;
  } catch (error) {
    if (!(error instanceof SwitchyardError)) throw error;
    io.stderr(`switchyard prune: ${error.code}: ${error.message}\n`);
    return 1;
  }
};
