import { parseReferenceValues, parseRepairAudit } from '../store/parse-repair-audit.js';
import { SwitchyardError } from '../switchyard-error.js';
import type { CliCommand } from './cli-io.js';
import { openJournal } from './open-journal.js';
import { parseCommandArgs } from './parse-command-args.js';

const USAGE = `usage: switchyard references set TARGET KEY NAME=VALUE... --reason TEXT [--by NAME] [--config FILE]
       switchyard references clear TARGET KEY --reason TEXT [--by NAME] [--config FILE]

What a lifecycle target remembers for a correlation key ({{ ref.NAME }}: a ticket id, a Slack thread),
replaced by hand: "set" makes the key's later updates and resolve use these values (all of them: values not
given are gone); "clear" forgets them, so the key's next event creates anew. Recorded with who and why.
  --reason TEXT   why (required)
  --by NAME       who (default: $USER)
`;

/** `switchyard references`: point a key at the ticket that exists (or at none) without touching the database. */
export const runReferences: CliCommand = async (args, io) => {
  const options = { reason: { type: 'string' }, by: { type: 'string' }, config: { type: 'string' } } as const;
  const parsed = parseCommandArgs(args, options, { min: 3, max: 103 }, USAGE, io);
  if (typeof parsed === 'number') return parsed;
  const [action, target = '', key = '', ...pairs] = parsed.positionals;
  const refuse = (problem: string) => {
    io.stderr(`switchyard references: ${problem}\n${USAGE}`);
    return 2;
  };
  if (action !== 'set' && action !== 'clear') return refuse(`unknown action "${action}" (set or clear)`);
  if (action === 'clear' && pairs.length > 0) return refuse('clear takes no NAME=VALUE');
  if (pairs.some((pair) => !pair.includes('='))) return refuse('give each reference as NAME=VALUE');
  const values = action === 'clear' ? null : parseReferenceValues(Object.fromEntries(pairs.map(splitPair)));
  if (typeof values === 'string') return refuse(values);
  const audit = parseRepairAudit(parsed.values.by ?? io.env.USER ?? io.env.LOGNAME, parsed.values.reason, Date.now());
  if (typeof audit === 'string') return refuse(audit);
  const config = typeof parsed.values.config === 'string' ? parsed.values.config : undefined;
  try {
    const store = await openJournal(config, io);
    try {
      if ((await store.setReferences(target, key, values, audit)) === 'unknown-key') {
        io.stderr(`switchyard references: no delivery of target ${target} has the key ${key}; nothing changed\n`);
        return 1;
      }
      io.stdout(
        values === null ? `cleared the references of ${target} ${key}\n` : `set the references of ${target} ${key}\n`,
      );
      return 0;
    } finally {
      await store.close();
    }
  } catch (error) {
    if (!(error instanceof SwitchyardError)) throw error;
    io.stderr(`switchyard references: ${error.code}: ${error.message}\n`);
    return 1;
  }
};

function splitPair(pair: string): [string, string] {
  const at = pair.indexOf('=');
  return at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
}
