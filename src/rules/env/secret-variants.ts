import { safeDecode } from './safe-decode.js';

/** Path parts shorter than this (`/api`, `T000`) are too common to mask. */
const MIN_PART = 8;
/** A path segment this long is taken for a token (Discord's, a Teams connector's), whatever the host. */
const TOKEN_SEGMENT = 20;
/** Slack's webhook paths: `/services/T…/B…/token`, `/workflows/…`, `/triggers/…`; the rest is the credential. */
const SLACK_PATH = /^\/(?:services|workflows|triggers)\/(.+)$/;
/**
 * A Power Automate / Logic Apps request trigger (a Teams Workflows webhook):
 * `…/workflows/<id>/triggers/manual/paths/invoke?api-version=…&sp=…&sv=…&sig=…`. Its credential is the `sig`
 * query value; the rest of the path is the same words for every workflow, and not Slack's.
 * https://learn.microsoft.com/en-us/azure/logic-apps/logic-apps-securing-a-logic-app#access-for-inbound-calls-to-request-based-triggers
 */
const WORKFLOW_TRIGGER_PATH = /\/triggers\/[^/]+\/paths\/invoke$/;
/** Query parameters of signed Azure URLs that only name the API version and the permission: never secret. */
const PUBLIC_QUERY: ReadonlySet<string> = new Set(['api-version', 'sp', 'sv']);

/**
 * The value itself, and for a URL the parts that are secret and travel on their own: its password (as
 * written and percent-decoded, and with the user as `user:pass` and `\0user\0pass`, the forms Basic auth and
 * SMTP AUTH PLAIN encode), query values (`?key=...`, but not an Azure URL's `api-version`, `sp`, `sv`), and
 * the path only when it carries a credential: a Slack webhook's `T…/B…/token` (whole and by segment) or a
 * token-long segment (a workflow's id). The user name alone is not a secret, and neither is an ordinary path
 * (`/api/v2/tickets`): masking them would mask the words everywhere (a user `switchyard` made the log read
 * "[redacted] listening").
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
  const queryValues = [...url.searchParams]
    .filter(([name, part]) => !PUBLIC_QUERY.has(name) && part.length >= MIN_PART)
    .map(([, part]) => part);
  for (const part of queryValues) add(part);
  const slack = WORKFLOW_TRIGGER_PATH.test(url.pathname) ? undefined : SLACK_PATH.exec(url.pathname)?.[1];
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
