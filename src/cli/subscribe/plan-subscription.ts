import path from 'node:path';
import { DEFAULT_CONFIG_FILE } from '../../config/load-config.js';
import { generateWebhookSecret } from '../../upstream/generate-webhook-secret.js';
import { parseUpstreamBaseUrl } from '../../upstream/parse-upstream-base-url.js';
import type { CliIo } from '../cli-io.js';
import { checkEnvFile } from './check-env-file.js';
import { findSourceSecret, type SourceSecret } from './find-source-secret.js';
import { parseEventKinds } from './parse-event-kinds.js';
import { readSubscribeCredentials, type SubscribeCredentials } from './read-subscribe-credentials.js';

/** The daemon's config requires at least this many characters per source secret. */
const MIN_SECRET_LENGTH = 16;
/** Characters every env file reader takes literally without quotes. */
const PLAIN_VALUE = /^[A-Za-z0-9_\-.~+/=:@%]+$/;

export interface SubscriptionPlan {
  readonly baseUrl: URL;
  readonly publicUrl: URL;
  readonly events: readonly string[];
  readonly credentials: SubscribeCredentials;
  readonly secret: string;
  /** The variable given with --secret-env; undefined when the secret was generated. */
  readonly secretEnv: string | undefined;
  /** The config file as the operator named it (or the default). */
  readonly config: string;
  readonly place: SourceSecret;
  /** Absolute path of --write-env-file. */
  readonly envFile: string | undefined;
}

/**
 * Everything `subscribe` can check before talking to the service: arguments, credentials, the secret, and
 * where it will go. Returns the first problem as a string (exit 2: nothing was sent).
 */
export function planSubscription(
  values: Record<string, string | boolean | undefined>,
  io: CliIo,
): SubscriptionPlan | string {
  const text = (name: string): string | undefined =>
    typeof values[name] === 'string' ? (values[name] as string) : undefined;
  const baseText = text('base-url');
  const urlText = text('url');
  const eventsText = text('events');
  if (baseText === undefined || urlText === undefined || eventsText === undefined) {
    return '--base-url, --url and --events are required';
  }
  const baseUrl = parseUpstreamBaseUrl(baseText);
  if (typeof baseUrl === 'string') return baseUrl;
  const publicUrl = URL.canParse(urlText) ? new URL(urlText) : undefined;
  if (publicUrl === undefined || (publicUrl.protocol !== 'https:' && publicUrl.protocol !== 'http:')) {
    return '--url: not an http(s) URL';
  }
  if (publicUrl.username !== '' || publicUrl.password !== '') return '--url: must not carry credentials';
  const events = parseEventKinds(eventsText);
  if (typeof events === 'string') return events;
  const credentials = readSubscribeCredentials(text('oauth-code'), io.env);
  if (typeof credentials === 'string') return credentials;

  const secretEnv = text('secret-env');
  const secret = secretEnv === undefined ? generateWebhookSecret() : io.env[secretEnv];
  if (secret === undefined || secret === '') return `--secret-env: ${secretEnv ?? ''} is not set`;
  if (secret.length < MIN_SECRET_LENGTH) {
    return `--secret-env: the secret in ${secretEnv ?? ''} is shorter than ${MIN_SECRET_LENGTH} characters`;
  }

  const config = text('config') ?? (io.env.SWITCHYARD_CONFIG || DEFAULT_CONFIG_FILE);
  const place = findSourceSecret(path.resolve(io.cwd, config), text('source'), publicUrl);
  if (typeof place === 'string') return place;
  const envFileText = text('write-env-file');
  const envFile = envFileText === undefined ? undefined : path.resolve(io.cwd, envFileText);
  if (envFile !== undefined) {
    if (place.variable === null) {
      return `--write-env-file: sources.${place.source}.secrets[0] in ${config} is not a \${VAR} reference, so no variable would be read from the file`;
    }
    if (!PLAIN_VALUE.test(secret))
      return `--write-env-file: the secret in ${secretEnv ?? ''} would need quoting in an env file`;
    const problem = checkEnvFile(envFile);
    if (problem !== undefined) return problem;
  }
  return { baseUrl, publicUrl, events, credentials, secret, secretEnv, config, place, envFile };
}
