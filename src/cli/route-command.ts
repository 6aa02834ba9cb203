import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Envelope } from '../ingest/envelope.js';
import { validateEnvelope } from '../ingest/parse-envelope.js';
import { flattenHeaderText } from '../delivery/targets/flatten-header-text.js';
import { explainSilence, type SilenceExplanation } from '../noise/explain-silence.js';
import { explainRequests, keyedDeliveries, type KeyedDelivery } from '../lifecycle/explain-requests.js';
import { readKeyHistory, type KeyHistory } from '../lifecycle/read-key-history.js';
import { defaultCorrelationKey } from '../lifecycle/default-correlation-key.js';
import { followCandidates } from '../lifecycle/follow-candidates.js';
import type { FollowedTarget } from '../lifecycle/follow-targets.js';
import { readReachedTargets } from '../lifecycle/read-reached-targets.js';
import { type FollowExplanation } from './format-explanation.js';
import { explainRoute } from '../rules/explain-route.js';
import type { CompiledRules } from '../rules/rules.js';
import { SwitchyardError } from '../switchyard-error.js';
import { openJournal } from './open-journal.js';
import { parseInstant } from './parse-instant.js';
import { loadRulesFile } from '../rules/load-rules-file.js';
import { formatExplanation } from './format-explanation.js';
import { formatProblem } from '../rules/format-problem.js';
import { parseCommandArgs } from './parse-command-args.js';
import { resolveRulesPath } from './resolve-rules-path.js';
import { summarizeRulesWarnings } from './summarize-rules-warnings.js';
import type { CliCommand, CliIo } from './cli-io.js';

const USAGE = `usage: switchyard route [RULES] [--event FILE] [--at WHEN] [--config FILE] [--json]

Shows which routes match an event (JSON envelope from FILE, or from standard input without --event or
with --event -), which targets would receive it, and for each route that did not match the first
condition that failed; for targets with a lifecycle or a key, the correlation key and the request (create,
update or resolve) each delivery would use. RULES defaults to $SWITCHYARD_RULES, else ./rules.yaml. Unset \${VAR} references
are fine here. Exit 1 when the rules or the event are invalid.
  --at WHEN       route as if received at WHEN (time intervals, silences): 2026-12-24T22:00:00+01:00
  --config FILE   also read that daemon's journal: the silence in force that would hold the event, the
                  targets an update or resolve follows its incident to (those it reached before), and for
                  each keyed delivery (lifecycle targets) whether its key was started, so create or update
  --json          machine-readable output
`;

/** `switchyard route`: explains the routing of one event. Prints target names only, never their options. */
export const runRoute: CliCommand = async (args, io) => {
  const options = {
    event: { type: 'string' },
    json: { type: 'boolean' },
    config: { type: 'string' },
    at: { type: 'string' },
  } as const;
  const parsed = parseCommandArgs(args, options, { min: 0, max: 1 }, USAGE, io);
  if (typeof parsed === 'number') return parsed;
  const path = resolveRulesPath(parsed.positionals[0], io.env, io.cwd);
  const loaded = loadRulesFile(path.absolute, io.env, { requireEnv: false });
  if (!loaded.ok) {
    for (const problem of loaded.problems) io.stderr(`${formatProblem({ ...problem, file: path.display })}\n`);
    io.stderr(`switchyard route: ${path.display} is invalid (see above)\n`);
    return 1;
  }
  const eventFile = typeof parsed.values.event === 'string' ? parsed.values.event : undefined;
  const envelope = await readEnvelope(eventFile, io);
  if (typeof envelope === 'string') {
    io.stderr(`switchyard route: ${envelope}\n`);
    return 1;
  }
  io.stderr(summarizeRulesWarnings(path.display, loaded.warnings));
  const atText = typeof parsed.values.at === 'string' ? parsed.values.at : undefined;
  const now = atText === undefined ? Date.now() : parseInstant(atText, Date.now());
  if (now === undefined) {
    io.stderr(
      `switchyard route: --at: "${atText ?? ''}" is not a date-time with a zone, e.g. 2026-12-24T22:00:00+01:00\n`,
    );
    return 1;
  }
  const explanation = explainRoute(loaded.rules, envelope, now);
  const config = typeof parsed.values.config === 'string' ? parsed.values.config : undefined;
  // An update or resolve may follow its incident to targets no route names: which ones, only the journal says.
  const mayFollow = followCandidates(loaded.rules, envelope, explanation.targets);
  let journal: JournalView | undefined;
  if (config !== undefined && explanation.targets.length + mayFollow.length > 0) {
    try {
      journal = await readJournal(config, io, loaded.rules, envelope, now, explanation.targets);
    } catch (error) {
      if (!(error instanceof SwitchyardError)) throw error;
      io.stderr(`switchyard route: journal not read: ${error.code}: ${error.message}\n`);
      return 1;
    }
  }
  const silencedBy = journal?.silencedBy;
  const follow: FollowExplanation =
    journal === undefined ? { mayFollow: mayFollow.map((f) => f.target) } : { followed: journal.followed };
  const keyed = journal?.keyed ?? keyedDeliveries(loaded.rules, envelope, explanation.targets);
  // Without a journal the key's history is unknown: the answer names both possible requests.
  const requests = explainRequests(envelope.event, keyed, (target, key) =>
    journal === undefined ? undefined : journal.history(target, key),
  );
  if (parsed.values.json === true) {
    const { steps, ...decision } = explanation;
    const report = {
      rules: { file: path.display, version: loaded.rules.version },
      event: envelope.event,
      ...decision,
      routes: steps,
      ...follow,
      requests,
      at: new Date(now).toISOString(),
      ...(silencedBy !== undefined && { silencedBy }),
    };
    io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    io.stdout(formatExplanation(envelope, explanation, requests, follow));
    if (silencedBy) {
      const { id, createdBy, endsAt, comment } = silencedBy;
      io.stdout(
        `silenced by ${id} (${flattenHeaderText(createdBy, 40)}, until ${endsAt}: ${flattenHeaderText(comment, 120)}): ` +
          'its deliveries would be recorded as silenced, not sent\n',
      );
    }
  }
  return 0;
};

interface JournalView {
  readonly silencedBy: SilenceExplanation | null;
  /** The targets the event follows its incident to, besides its routes. */
  readonly followed: readonly FollowedTarget[];
  /** The keyed deliveries, routed and followed. */
  readonly keyed: readonly KeyedDelivery[];
  /** The stored references of the keyed deliveries' keys. */
  readonly history: KeyHistory;
}

/**
 * From the daemon's journal: the silence in force that would hold the event, the targets it follows its incident
 * to, and the references its keys have.
 */
async function readJournal(
  config: string,
  io: CliIo,
  rules: CompiledRules,
  envelope: Envelope,
  now: number,
  routed: readonly string[],
): Promise<JournalView> {
  const store = await openJournal(config, io);
  try {
    const silencedBy = explainSilence(await store.findSilences({ activeAt: now }), rules, envelope, now);
    const key = defaultCorrelationKey(envelope.event, envelope.data);
    const reached = key === null ? new Map<string, string | undefined>() : await readReachedTargets(store, rules, key);
    const followed = followCandidates(rules, envelope, routed, reached.keys(), reached);
    const keyed = keyedDeliveries(rules, envelope, [...routed, ...followed.map((f) => f.target)]);
    return { silencedBy, followed, keyed, history: await readKeyHistory(store, keyed) };
  } finally {
    await store.close();
  }
}

/** The envelope, or a message saying why there is none. */
async function readEnvelope(file: string | undefined, io: CliIo): Promise<Envelope | string> {
  const source = file === undefined || file === '-' ? 'standard input' : file;
  let text: string;
  try {
    text = source === 'standard input' ? await io.readStdin() : await readFile(resolve(io.cwd, source), 'utf8');
  } catch (error) {
    return `cannot read the event from ${source} (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `the event in ${source} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  try {
    return validateEnvelope(value);
  } catch (error) {
    return `the event in ${source} is not a valid envelope: ${error instanceof Error ? error.message : String(error)}`;
  }
}
