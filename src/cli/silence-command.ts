import { parse as parseYaml } from 'yaml';
import { loadConfig } from '../config/load-config.js';
import { flattenHeaderText } from '../delivery/targets/flatten-header-text.js';
import { parseNewSilence, parseSilenceChange } from '../noise/parse-silence-request.js';
import { PREVIEW_MAX_EVENTS, previewSilence } from '../noise/preview-silence.js';
import { silenceStatus } from '../noise/silence-status.js';
import { loadRulesOrThrow } from '../rules/load-rules-or-throw.js';
import { newId } from '../store/new-id.js';
import type { Store } from '../store/store.js';
import type { StoredSilence } from '../store/stored-silence.js';
import { SwitchyardError } from '../switchyard-error.js';
import type { CliCommand, CliIo } from './cli-io.js';
import { formatSilencePreview } from './format-silence-preview.js';
import { formatTable } from './format-table.js';
import { openJournal } from './open-journal.js';
import { parseCommandArgs } from './parse-command-args.js';

const USAGE = `usage: switchyard silence add (MATCHER... | --match MATCH) (--duration D | --ends-at WHEN) --comment TEXT [options]
       switchyard silence list [--status active|pending|expired|all] [--json]
       switchyard silence update ID [--duration D | --ends-at WHEN] [--comment TEXT]
       switchyard silence expire ID

Silences hold back what they match: matching events are journaled and routed as usual, and their deliveries
are recorded as silenced (switchyard deliveries --state silenced), never sent. A running daemon applies a
change within about a second.
  MATCHER             NAME=VALUE, NAME!=VALUE, NAME=~REGEX or NAME!~REGEX (all must hold); NAME is event,
                      severity or data.<key>; a REGEX must match the whole value: 'event=agent.offline' 'data.host=~db-.*'
  --match MATCH       instead of matchers, a route's match: in YAML or JSON: '{event: agent.*, severity: {at_least: high}}'
  --duration D        from the start (add) or from now (update): 30m, 2h, 1d; at most 366 days
  --ends-at WHEN      an ISO 8601 date and time with Z or an offset: 2026-12-24T22:00:00+01:00
  --starts-at WHEN    add only; default now
  --comment TEXT      why (required for add)
  --created-by NAME   add only; default $USER, else $LOGNAME (give it where neither is set: cron, containers)
  --on-expiry WHAT    drop (default): what it held stays held; deliver_unresolved: when it ends, send what is
                      still open (not resolved meanwhile)
  --dry-run           add only: store nothing; show which of the last 24 hours' events it would have held, by
                      kind and target (the newest ${PREVIEW_MAX_EVENTS} events at most)
  --status S          list only: active (default), pending, expired or all
  --config FILE       the daemon's config, to find the journal and the rules
  --json              print the silence(s) as JSON
`;

const OPTIONS = {
  config: { type: 'string', short: 'c' },
  match: { type: 'string' },
  duration: { type: 'string' },
  'ends-at': { type: 'string' },
  'starts-at': { type: 'string' },
  comment: { type: 'string' },
  'created-by': { type: 'string' },
  'on-expiry': { type: 'string' },
  status: { type: 'string' },
  json: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
} as const;

type Values = Record<string, string | boolean | undefined>;

/** `switchyard silence add|list|update|expire`: the shift's way to hold back what it already knows about. */
export const runSilence: CliCommand = async (args, io) => {
  const parsed = parseCommandArgs(args, OPTIONS, { min: 1, max: Infinity }, USAGE, io);
  if (typeof parsed === 'number') return parsed;
  const [action, ...rest] = parsed.positionals;
  const id = action === 'add' ? undefined : rest[0];
  const wantsId = action === 'update' || action === 'expire';
  if (
    !['add', 'list', 'update', 'expire'].includes(action ?? '') ||
    (action !== 'add' && rest.length !== (wantsId ? 1 : 0))
  ) {
    io.stderr(`switchyard silence: expected add MATCHER..., list, update ID or expire ID\n${USAGE}`);
    return 2;
  }
  const values = parsed.values;
  if (values['dry-run'] === true && action !== 'add') {
    io.stderr(`switchyard silence: --dry-run goes with add only\n${USAGE}`);
    return 2;
  }
  const config = typeof values.config === 'string' ? values.config : undefined;
  try {
    const store = await openJournal(config, io);
    try {
      if (action === 'list') return await list(store, values, io);
      const now = Date.now();
      if (action === 'add' && values['dry-run'] === true) {
        const { silence, rules } = newSilence(rest, values, config, io, now);
        const preview = await previewSilence(silence, { store, rules, now });
        io.stdout(
          values.json === true
            ? `${JSON.stringify({ match: silence.matchers, ...preview })}\n`
            : formatSilencePreview(silence, preview),
        );
        return 0;
      }
      const silence =
        action === 'add'
          ? await add(store, rest, values, config, io, now)
          : await change(store, id ?? '', action === 'expire' ? { expire: true } : changeRequest(values), now);
      io.stdout(values.json === true ? `${JSON.stringify(silence)}\n` : describe(silence, now));
      return 0;
    } finally {
      await store.close();
    }
  } catch (error) {
    if (!(error instanceof SwitchyardError)) throw error;
    io.stderr(`switchyard silence: ${error.code}: ${error.message}\n`);
    return error.code === 'invalid_silence' ? 2 : 1;
  }
};

async function add(
  store: Store,
  matchers: string[],
  values: Values,
  config: string | undefined,
  io: CliIo,
  now: number,
) {
  const { silence } = newSilence(matchers, values, config, io, now);
  await store.createSilence(silence);
  return silence;
}

/** The silence `add` would store, validated against the rules in force, and those rules. */
function newSilence(matchers: string[], values: Values, config: string | undefined, io: CliIo, now: number) {
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  let match: unknown;
  try {
    match = text('match') === undefined ? undefined : parseYaml(text('match') ?? '');
  } catch (error) {
    throw new SwitchyardError('invalid_silence', `--match is not YAML or JSON: ${(error as Error).message}`);
  }
  if (match === undefined && matchers.length === 0) {
    throw new SwitchyardError('invalid_silence', 'give matchers (event=agent.offline data.host=~db-.*) or --match');
  }
  const request = Object.fromEntries(
    Object.entries({
      match: match ?? undefined,
      matchers: matchers.length === 0 ? undefined : matchers,
      duration: text('duration'),
      ends_at: text('ends-at'),
      starts_at: text('starts-at'),
      comment: text('comment'),
      created_by: text('created-by') ?? io.env.USER ?? io.env.LOGNAME ?? missingAuthor(),
      on_expiry: text('on-expiry'),
    }).filter(([, value]) => value !== undefined),
  );
  const { rules } = loadRulesOrThrow(
    loadConfig({ file: config, env: io.env, cwd: io.cwd, requireEnv: false }).rules,
    io.env,
  );
  return { silence: parseNewSilence(request, { now, id: newId('sil_', now), rules }), rules };
}

/** Cron, systemd units and containers often run without $USER: say which option records who added it. */
function missingAuthor(): never {
  throw new SwitchyardError(
    'invalid_silence',
    'give --created-by NAME: who added the silence ($USER and $LOGNAME are not set here, as under cron, systemd or in a container)',
  );
}

function changeRequest(values: Values): Record<string, unknown> {
  const request: Record<string, unknown> = {};
  if (typeof values.duration === 'string') request.duration = values.duration;
  if (typeof values['ends-at'] === 'string') request.ends_at = values['ends-at'];
  if (typeof values.comment === 'string') request.comment = values.comment;
  return request;
}

async function change(store: Store, id: string, request: Record<string, unknown>, now: number) {
  const silence = await store.getSilence(id);
  if (silence === undefined) throw new SwitchyardError('not_found', `no silence ${id}`);
  const updated = await store.updateSilence(id, parseSilenceChange(request, silence, now), now);
  if (updated === undefined) throw new SwitchyardError('not_found', `no silence ${id}`);
  return updated;
}

async function list(store: Store, values: Values, io: CliIo): Promise<number> {
  const status = typeof values.status === 'string' ? values.status : 'active';
  if (!['active', 'pending', 'expired', 'all'].includes(status)) {
    io.stderr(`switchyard silence: --status must be active, pending, expired or all, got "${status}"\n`);
    return 2;
  }
  const now = Date.now();
  const found = await store.findSilences(status === 'active' || status === 'pending' ? { notEndedAt: now } : {});
  const shown = found.filter((s) => status === 'all' || silenceStatus(s, now) === status);
  if (values.json === true) {
    io.stdout(`${JSON.stringify(shown)}\n`);
    return 0;
  }
  const rows = shown.map((s) => [
    s.id,
    silenceStatus(s, now),
    new Date(s.startsAt).toISOString(),
    new Date(s.endsAt).toISOString(),
    flattenHeaderText(s.createdBy, 40),
    flattenHeaderText(JSON.stringify(s.matchers), 80),
    flattenHeaderText(s.comment, 80),
  ]);
  io.stdout(formatTable(['ID', 'STATUS', 'STARTS', 'ENDS', 'BY', 'MATCH', 'COMMENT'], rows));
  return 0;
}

function describe(silence: StoredSilence, now: number): string {
  const time = (ms: number) => new Date(ms).toISOString();
  const comment = flattenHeaderText(silence.comment, 200);
  // Expiring a silence that has not started ends it at its start: it never holds anything.
  if (silence.endsAt <= silence.startsAt) return `${silence.id} expired before it started: ${comment}\n`;
  const status = silenceStatus(silence, now);
  if (status === 'expired') return `${silence.id} expired at ${time(silence.endsAt)}: ${comment}\n`;
  const from = status === 'pending' ? ` from ${time(silence.startsAt)}` : '';
  return `${silence.id} ${status}${from} until ${time(silence.endsAt)}: ${comment}\n`;
}
