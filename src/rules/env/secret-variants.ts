import { safeDecode } from './safe-decode.js';

/** Path parts shorter than this (`/api`, `T000`) are too common to mask. */
const MIN_PART = 8;
/** A path segment this long is taken for a token (Discord's, a Teams connector's), whatever the host. */
const TOKEN_SEGMENT = 20;
/** Slack's webhook paths: `/services/T…/B…/token`, `/workflows/…`, `/triggers/…`; the rest is the credential. */
const SLACK_PATH = /^\/(?:services|workflows|triggers)\/(.+)$/;

/**
 * The value itself, and for a URL the parts that are secret and travel on their own: its password (as
 * written and percent-decoded, and with the user as `user:pass` and `\0user\0pass`, the forms Basic auth and
 * SMTP AUTH PLAIN encode), query values (`?key=...`), and the path only when it carries a credential: a
 * Slack webhook's `T…/B…/token` (whole and by segment) or a token-long segment. The user name alone is not a
 * secret, and neither is an ordinary path (`/api/v2/tickets`): masking them would mask the words everywhere
 * (a user `switchyard` made the log read "[redacted] listening").
 */
export function secretVariants(value: string): string[] {
  const variants = [value];
  if (!URL.canParse(value)) return variants;
  const url = new URL(value);
  const add = (part: string, min = MIN_PART): void => {
    if (part.length >= min && !variants.includes(part)) variants.push(part);
  };
  if (url.password !== '') {
    const [user, password] = [safeDecode(url.username), safeDecode(url.password)];
    add(url.password, 1);
    add(password, 1);
    add(`${user}:${password}`, 1);
    add(`\u0000${user}\u0000${password}`, 1);
  }
  const queryValues = [...url.searchParams.values()].filter((part) => part.length >= MIN_PART);
  for (const part of queryValues) add(part);
  const slack = SLACK_PATH.exec(url.pathname)?.[1];
  const segments = slack?.split('/') ?? url.pathname.split('/').filter((part) => part.length >= TOKEN_SEGMENT);
  if (slack !== undefined) add(slack);
  for (const segment of segments) add(segment);
  if (segments.length > 0) {
    add(url.pathname);
    add(url.pathname.slice(1));
  }
  if (segments.length > 0 || queryValues.length > 0) add(`${url.pathname}${url.search}`);
  return variants;
}
