import { KNOWN_EVENT_KINDS } from '../ingest/envelope.js';
import { SwitchyardError } from '../switchyard-error.js';
import { createWebhookSubscription } from '../upstream/create-webhook-subscription.js';
import { exchangeOAuthCode } from '../upstream/exchange-oauth-code.js';
import { UPSTREAM_ENV } from '../upstream/upstream-env.js';
import type { CliCommand, CliIo } from './cli-io.js';
import { parseCommandArgs } from './parse-command-args.js';
import { describeSecretPlacement } from './subscribe/describe-secret-placement.js';
import { planSubscription, type SubscriptionPlan } from './subscribe/plan-subscription.js';
import { writeEnvVariable } from './subscribe/write-env-variable.js';

const USAGE = `usage: switchyard subscribe --base-url URL --url PUBLIC_URL --events KIND,... [options]

Creates the webhook subscription at the monitoring service (POST {base-url}/v1/webhooks with the public URL,
the event kinds and an HMAC secret) and puts the secret where the daemon's config expects the source's secret.
  --base-url URL         the monitoring service's API (https://; http:// only for loopback)
  --url PUBLIC_URL       where the service sends events: this daemon's public .../webhooks/<source>
  --events K1,K2         event kinds: ${[...KNOWN_EVENT_KINDS].join(', ')}
  --source NAME          the config's source (default: <name> of a URL ending in /webhooks/<name>, else the only one)
  --config FILE          the daemon's config (else $SWITCHYARD_CONFIG, else config/switchyard.yaml)
  --write-env-file FILE  write VAR=<secret> into FILE (created with mode 0600; a VAR line there is replaced),
                         VAR being the \${VAR} the config reads the source's secret from
  --secret-env NAME      use the secret in $NAME instead of generating one (32 random bytes)
  --oauth-code CODE      authenticate with an OAuth authorization code instead of an API key
Credentials come from the environment only: ${UPSTREAM_ENV.apiKey}, or with --oauth-code
${UPSTREAM_ENV.clientId} and ${UPSTREAM_ENV.clientSecret}. Without --write-env-file a generated secret
is printed once, as VAR=<secret>. Exit 0 when subscribed; 1 when the service refused or failed; 2 when
nothing was sent (arguments, credentials, or a config that does not say where the secret goes).
`;

const OPTIONS = {
  'base-url': { type: 'string' },
  url: { type: 'string' },
  events: { type: 'string' },
  source: { type: 'string' },
  config: { type: 'string', short: 'c' },
  // Not `--env-file`: Node 20 takes that for its own option even after the script name and exits when the
  // file does not exist yet (https://github.com/nodejs/node/issues/54232).
  'write-env-file': { type: 'string' },
  'secret-env': { type: 'string' },
  'oauth-code': { type: 'string' },
} as const;

/** `switchyard subscribe`: registers this daemon with the monitoring service. The secret is shown at most once. */
export const runSubscribe: CliCommand = async (args, io) => {
  const parsed = parseCommandArgs(args, OPTIONS, { min: 0, max: 0 }, USAGE, io);
  if (typeof parsed === 'number') return parsed;
  const plan = planSubscription(parsed.values, io);
  if (typeof plan === 'string') {
    io.stderr(`switchyard subscribe: ${plan}\nnothing was sent\n`);
    return 2;
  }
  if (plan.publicUrl.protocol === 'http:') {
    io.stderr('switchyard subscribe: warning: --url is plain http: events will cross the network unencrypted\n');
  }
  let id: string | null;
  try {
    const { credentials } = plan;
    const bearer =
      credentials.kind === 'api-key'
        ? credentials.apiKey
        : await exchangeOAuthCode(plan.baseUrl, credentials.code, credentials.client);
    const credential = credentials.kind === 'api-key' ? UPSTREAM_ENV.apiKey : 'the access token from --oauth-code';
    ({ id } = await createWebhookSubscription(plan.baseUrl, bearer, credential, {
      url: plan.publicUrl.href,
      events: plan.events,
      secret: plan.secret,
    }));
  } catch (error) {
    if (!(error instanceof SwitchyardError)) throw error;
    io.stderr(`switchyard subscribe: ${error.code}: ${error.message}\nno secret was written\n`);
    return 1;
  }
  const where = `${plan.publicUrl.origin}${plan.publicUrl.pathname}`;
  io.stdout(
    `subscribed${id === null ? '' : ` (${id})`}: ${plan.baseUrl.origin} sends ${plan.events.join(', ')} to ${where}\n`,
  );
  return placeSecret(plan, io);
};

/** Writes the secret to the env file, or says what to do with it; falls back to showing it if the write fails. */
function placeSecret(plan: SubscriptionPlan, io: CliIo): number {
  const { place, envFile } = plan;
  if (envFile !== undefined && place.variable !== null) {
    try {
      writeEnvVariable(envFile, place.variable, plan.secret);
      io.stdout(
        `wrote ${place.variable} to ${envFile} (mode 0600): restart the daemon with that file in its environment ` +
          '(node --env-file, systemd EnvironmentFile=, docker --env-file) so that it accepts the new signatures\n',
      );
      return 0;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      io.stderr(`switchyard subscribe: could not write ${envFile} (${code}); the subscription exists, so:\n`);
    }
  }
  const secret = plan.secretEnv === undefined ? { generated: plan.secret } : { fromEnv: plan.secretEnv };
  io.stdout(describeSecretPlacement({ config: plan.config, source: place.source, variable: place.variable, secret }));
  return envFile === undefined ? 0 : 1;
}
