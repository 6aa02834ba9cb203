import { safeDecode } from './safe-decode.js';

const MIN_PART = 8;

/**
 * The value itself, and for a URL the parts that travel on their own: a receiver echoing the request path
 * (a Slack webhook's token is its path, and some echo only its segments), a query value (`?key=...`), or the user and password of an SMTP URL.
 * Each is masked wherever it appears. Parts shorter than 8 characters (`/api`) are too common to mask.
 */
export function secretVariants(value: string): string[] {
  const variants = [value];
  if (!URL.canParse(value)) return variants;
  const url = new URL(value);
  const parts = [
    `${url.pathname}${url.search}`,
    url.pathname,
    url.pathname.replace(/^\//, ''),
    url.username,
    url.password,
    safeDecode(url.password),
    ...[...url.searchParams.values()],
    // Token-like path segments (Slack's T.../B.../secret): a digit in them, or long. Plain words such as
    // `incidents` are left alone, or every log line mentioning them would be masked.
    ...url.pathname.split('/').filter((segment) => /\d/.test(segment) || segment.length >= 20),
  ];
  for (const part of parts) if (part.length >= MIN_PART && !variants.includes(part)) variants.push(part);
  return variants;
}
