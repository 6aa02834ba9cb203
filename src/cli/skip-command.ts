import { parseRepairAudit } from '../store/parse-repair-audit.js';
import { SwitchyardError } from '../switchyard-error.js';
import type { CliCommand } from './cli-io.js';
import { openJournal } from './open-journal.js';
import { parseCommandArgs } from './parse-command-args.js';

const USAGE = `usage: switchyard skip ID... --reason TEXT [--by NAME] [--config FILE]

Gives up on dead deliveries for good: each is recorded skipped (who, when, why: in its last error and in the
journal's repair trail), is never sent, and no longer holds back the later deliveries of its correlation key,
which then go on (a daemon picks them up within about a second). Only dead deliveries can be skipped.
  --reason TEXT   why (required): "ticket deleted in Redmine", say
  --by NAME       who (default: $USER)
`;

/** `switchyard skip`: the way past a dead delivery that will never go through (its ticket was deleted). */
export const runSkip: CliCommand = async (args, io) => {
  const options = { reason: { type: 'string' }, by: { type: 'string' }, config: { type: 'string' } } as const;
  const parsed = parseCommandArgs(args, options, { min: 1, max: 100 }, USAGE, io);
  if (typeof parsed === 'number') return parsed;
  const audit = parseRepairAudit(parsed.values.by ?? io.env.USER ?? io.env.LOGNAME, parsed.values.reason, Date.now());
  if (typeof audit === 'string') {
    io.stderr(`switchyard skip: ${audit}\n${USAGE}`);
    return 2;
  }
  const config = typeof parsed.values.config === 'string' ? parsed.values.config : undefined;
  try {
    const store = await openJournal(config, io);
    try {
      let failed = 0;
      for (const id of parsed.positionals) {
        const result = await store.skipDelivery(id, audit);
        if (result === 'skipped') io.stdout(`skipped ${id}\n`);
        else {
          failed += 1;
          io.stderr(`not skipped: ${id} ${result === 'unknown' ? 'is not a delivery' : 'is not dead'}\n`);
        }
      }
      return failed > 0 ? 1 : 0;
    } finally {
      await store.close();
    }
  } catch (error) {
    if (!(error instanceof SwitchyardError)) throw error;
    io.stderr(`switchyard skip: ${error.code}: ${error.message}\n`);
    return 1;
  }
};
