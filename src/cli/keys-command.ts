import { newApiKey } from '../admin/api/new-api-key.js';
import type { AdminScope } from '../config/config.js';
import type { CliCommand } from './cli-io.js';
import { parseCommandArgs } from './parse-command-args.js';

const SCOPES: readonly AdminScope[] = ['read', 'replay', 'silence', 'repair'];
// The config schema's pattern for admin.keys[].name.
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

const USAGE = `usage: switchyard keys new --name NAME [--scope read,replay] [--json]

Makes a new admin API key and prints it ONCE, with the lines to add under admin.keys in the daemon config.
The config holds only the key's SHA-256 hash; the key itself is written nowhere, so store it (a secret
manager, the dashboard's environment) before you close the terminal. The daemon reads keys at start-up.
  --name NAME     the key's name in logs: letters, digits, _ . - (up to 64)
  --scope LIST    read (events, deliveries, dead letters, rules, targets, route tester), replay (re-queue
                  deliveries, reload rules), silence, repair (skip dead deliveries, set references), or
                  several: read,replay; default read
  --json          {"name", "key", "hash", "scopes"} instead of text
`;

/** `switchyard keys new`: a 256-bit random key for the admin API, and its hash for the config. */
export const runKeys: CliCommand = async (args, io) => {
  const options = { name: { type: 'string' }, scope: { type: 'string' }, json: { type: 'boolean' } } as const;
  const parsed = parseCommandArgs(args, options, { min: 1, max: 1 }, USAGE, io);
  if (typeof parsed === 'number') return parsed;
  const problem = (message: string): number => {
    io.stderr(`switchyard keys: ${message}\n${USAGE}`);
    return 2;
  };
  if (parsed.positionals[0] !== 'new') return problem(`unknown subcommand "${parsed.positionals[0] ?? ''}"`);
  const name = parsed.values.name;
  if (typeof name !== 'string') return problem('--name is required');
  if (!NAME.test(name))
    return problem(`--name "${name}": use letters, digits, _ . - (up to 64, not starting with _ . -)`);
  const scopeText = typeof parsed.values.scope === 'string' ? parsed.values.scope : 'read';
  const scopes = [...new Set(scopeText.split(',').map((s) => s.trim()))];
  const unknown = scopes.filter((s) => !SCOPES.includes(s as AdminScope));
  if (unknown.length > 0)
    return problem(`--scope: unknown scope "${unknown.join('", "')}"; known: ${SCOPES.join(', ')}`);

  const { key, hash } = newApiKey();
  if (parsed.values.json === true) {
    io.stdout(`${JSON.stringify({ name, key, hash, scopes })}\n`);
    return 0;
  }
  io.stdout(
    [
      `New admin API key "${name}" (scopes: ${scopes.join(', ')}). It is shown only this once; store it now:`,
      '',
      `  ${key}`,
      '',
      'Add it to the daemon config under admin.keys (only the hash goes there), then restart the daemon:',
      '',
      'admin:',
      '  keys:',
      `    - name: ${name}`,
      `      hash: ${hash}`,
      `      scopes: [${scopes.join(', ')}]`,
      '',
      `Use it as: curl -H "Authorization: Bearer $SWITCHYARD_API_KEY" http://127.0.0.1:9090/api/v1/targets`,
      '',
    ].join('\n'),
  );
  return 0;
};
