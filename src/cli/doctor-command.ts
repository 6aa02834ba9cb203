import { parseUpstreamBaseUrl } from '../upstream/parse-upstream-base-url.js';
import type { CliCommand } from './cli-io.js';
import { checkConfig } from './doctor/check-config.js';
import { checkJournal } from './doctor/check-journal.js';
import { checkPostgresJournal } from './doctor/check-postgres-journal.js';
import { checkRules } from './doctor/check-rules.js';
import { checkTarget } from './doctor/check-target.js';
import { checkUpstream } from './doctor/check-upstream.js';
import type { DoctorCheck } from './doctor/doctor-check.js';
import { formatDoctorReport } from './doctor/format-doctor-report.js';
import { parseCommandArgs } from './parse-command-args.js';

const USAGE = `usage: switchyard doctor [--config FILE] [--base-url URL]

Checks what the daemon needs, as it would see it (run it with the daemon's environment), and prints
OK, WARN or FAIL with the reason for each: the config loads; the rules load; the journal opens, is
migrated and takes the write lock (nothing is written); each target is reachable (HTTP and Slack: a TCP
connection, and TLS with a valid certificate for https, without sending any request; e-mail: the SMTP
server's greeting, EHLO, STARTTLS and login, without sending mail); with --base-url, the monitoring
service accepts $SWITCHYARD_UPSTREAM_API_KEY (GET /v1/agents). Endpoints are shown as scheme and host only.
  --config FILE     the daemon's config (else $SWITCHYARD_CONFIG, else config/switchyard.yaml)
  --base-url URL    the monitoring service's API (https://; http:// only for loopback)
Exit 0 when nothing FAILed, 1 otherwise.
`;

/** `switchyard doctor`: a verdict per part of the setup, without delivering anything. */
export const runDoctor: CliCommand = async (args, io) => {
  const options = { config: { type: 'string', short: 'c' }, 'base-url': { type: 'string' } } as const;
  const parsed = parseCommandArgs(args, options, { min: 0, max: 0 }, USAGE, io);
  if (typeof parsed === 'number') return parsed;
  const baseText = parsed.values['base-url'];
  const baseUrl = typeof baseText === 'string' ? parseUpstreamBaseUrl(baseText) : undefined;
  if (typeof baseUrl === 'string') {
    io.stderr(`switchyard doctor: ${baseUrl}\n${USAGE}`);
    return 2;
  }
  const configFile = typeof parsed.values.config === 'string' ? parsed.values.config : undefined;

  const checks: DoctorCheck[] = [];
  const probes: Promise<DoctorCheck>[] = [];
  const { check: configCheck, config } = checkConfig(configFile, io.env, io.cwd);
  if (config === null) {
    checks.push({ ...configCheck, detail: `${configCheck.detail}\n(rules, journal and targets not checked)` });
  } else {
    const { check: rulesCheck, rules } = checkRules(config.rules, io.env);
    checks.push(configCheck, rulesCheck);
    if (config.store.kind === 'sqlite') checks.push(checkJournal(config.store.path));
    else probes.push(checkPostgresJournal(config.store));
    const secrets = [...config.secrets, ...(rules?.secrets ?? [])];
    for (const spec of rules?.targets.values() ?? []) probes.push(checkTarget(spec, secrets));
  }
  // Targets and the service are probed at once: each may take up to its timeout.
  probes.push(checkUpstream(baseUrl, io.env));
  checks.push(...(await Promise.all(probes)));
  io.stdout(formatDoctorReport(checks));
  return checks.some((check) => check.verdict === 'FAIL') ? 1 : 0;
};
