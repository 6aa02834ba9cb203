import { planReplay, skippedDeliveredNote } from '../store/plan-replay.js';
import { refusedReplayState } from '../store/refused-replay-state.js';
import type { ReplaySelection } from '../store/store.js';
import { SwitchyardError } from '../switchyard-error.js';
import type { CliCommand } from './cli-io.js';
import { DELIVERY_FILTER_OPTIONS, DELIVERY_FILTER_USAGE, parseDeliveryFilter } from './delivery-filter-args.js';
import { openJournal } from './open-journal.js';
import { parseCommandArgs, type ParsedCommandArgs } from './parse-command-args.js';
import type { CliIo } from './cli-io.js';
import { clearForCreate } from '../store/clear-for-create.js';
import { parseRepairAudit } from '../store/parse-repair-audit.js';
import type { RepairAudit } from '../store/repair-journal.js';

const USAGE = `usage: switchyard replay ID... [--include-delivered] [--as create --reason TEXT [--by NAME]] [--config FILE]
       switchyard replay [--state dead|delivered] [--target T] [--since WHEN] ... [--include-delivered] [--dry-run]

Re-queues deliveries as new attempts: due now, with a fresh retry budget (max_attempts and max_age count
from the replay); their earlier attempts stay in the history. With IDs (dlv_...), exactly those; otherwise
every delivery matching the filters, dead ones unless --state says otherwise (at least one filter is needed).
Delivered deliveries only with --include-delivered: the receiver already has them, so the resend carries a
new Idempotency-Key (dlv_17.r1, .r2, ...) that a deduplicating receiver does not drop.
Pending deliveries are never touched, nor held ones (silenced, muted, suppressed, grouped: noise control
kept them back on purpose). A running daemon picks replays up within about a second.
${DELIVERY_FILTER_USAGE}
  --include-delivered  also re-queue delivered deliveries (without --state: dead and delivered ones)
  --dry-run       list what would be re-queued, change nothing
  --as create     (with IDs) send them as their key's first event: the key's references are cleared first
                  (recorded with --reason and --by, default $USER), so a new ticket or thread is made
`;

/** `switchyard replay`: the way out of the dead letters once the cause is fixed. */
export const runReplay: CliCommand = async (args, io) => {
  const options = {
    ...DELIVERY_FILTER_OPTIONS,
    'dry-run': { type: 'boolean' },
    'include-delivered': { type: 'boolean' },
    as: { type: 'string' },
    reason: { type: 'string' },
    by: { type: 'string' },
  } as const;
  const parsed = parseCommandArgs(args, options, { min: 0, max: Number.POSITIVE_INFINITY }, USAGE, io);
  if (typeof parsed === 'number') return parsed;
  const filter = parseDeliveryFilter(parsed.values, Date.now());
  if (typeof filter === 'string') {
    io.stderr(`switchyard replay: ${filter}\n${USAGE}`);
    return 2;
  }
  const ids = parsed.positionals;
  const filtered = ['state', 'target', 'event', 'since', 'until', 'limit'].some((n) => parsed.values[n] !== undefined);
  if (ids.length > 0 && filtered) {
    io.stderr(`switchyard replay: give either delivery ids or filters, not both\n${USAGE}`);
    return 2;
  }
  if (ids.length === 0 && !filtered) {
    io.stderr(`switchyard replay: name deliveries by id or narrow them with at least one filter\n${USAGE}`);
    return 2;
  }
  const refused = refusedReplayState(filter.state);
  if (refused !== undefined) {
    io.stderr(`switchyard replay: ${refused}\n`);
    return 2;
  }
  const asCreate = parseAs(parsed.values, ids, io);
  if (typeof asCreate === 'number') return asCreate;
  const includeDelivered = parsed.values['include-delivered'] === true;
  const filterSelection = { ...filter, state: filter.state ?? (includeDelivered ? undefined : 'dead') };
  const selection: ReplaySelection =
    ids.length > 0 ? { ids, includeDelivered } : { filter: filterSelection, includeDelivered };
  const config = typeof parsed.values.config === 'string' ? parsed.values.config : undefined;
  try {
    const store = await openJournal(config, io);
    try {
      const plan = await planReplay(store, selection);
      const skipped = plan.skippedDelivered;
      const note = skipped.length > 0 ? `${skippedDeliveredNote(skipped, 'add --include-delivered')}\n` : '';
      if (parsed.values['dry-run'] === true) {
        const would = plan.requeue;
        io.stdout(`would re-queue ${would.length} deliveries${would.length > 0 ? `: ${would.join(' ')}` : ''}\n`);
        io.stdout(note);
        return 0;
      }
      const refused = asCreate === null ? null : await clearForCreate(store, ids, asCreate);
      if (refused !== null) {
        io.stderr(`switchyard replay: ${refused}; nothing changed\n`);
        return 2;
      }
      const replayed = await store.replay(selection, Date.now());
      io.stdout(`re-queued ${replayed.length} deliveries${replayed.length > 0 ? `: ${replayed.join(' ')}` : ''}\n`);
      io.stderr(note);
      const missed = ids.filter((id) => !replayed.includes(id) && !skipped.includes(id));
      if (missed.length > 0) io.stderr(`not re-queued (unknown, still pending, or held): ${missed.join(' ')}\n`);
      return missed.length > 0 || skipped.length > 0 ? 1 : 0;
    } finally {
      await store.close();
    }
  } catch (error) {
    if (!(error instanceof SwitchyardError)) throw error;
    io.stderr(`switchyard replay: ${error.code}: ${error.message}\n`);
    return 1;
  }
};

/** `--as create` with its who and why (null without `--as`), or the exit code after saying what is wrong. */
function parseAs(values: ParsedCommandArgs['values'], ids: readonly string[], io: CliIo): RepairAudit | null | number {
  const refuse = (problem: string) => {
    io.stderr(`switchyard replay: ${problem}\n${USAGE}`);
    return 2;
  };
  if (values.as === undefined) {
    return values.reason === undefined && values.by === undefined ? null : refuse('--reason and --by go with --as');
  }
  if (values.as !== 'create') return refuse("--as takes create only (an update needs a create's references)");
  if (ids.length === 0) return refuse('--as create needs delivery ids');
  if (values['dry-run'] === true) return refuse('--as create changes references: no --dry-run');
  const audit = parseRepairAudit(values.by ?? io.env.USER ?? io.env.LOGNAME, values.reason, Date.now());
  return typeof audit === 'string' ? refuse(audit) : audit;
}
