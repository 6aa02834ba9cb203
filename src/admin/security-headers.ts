import type { RequestHandler } from 'express';

/**
 * On every answer of the admin listener, the console's page and the API alike: only the daemon's own scripts,
 * styles and images run (the built page has no inline script or style), the page is never framed, forms only
 * post back here, and nothing of the URL leaks in a Referer.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'; object-src 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

export const securityHeaders: RequestHandler = (_req, res, next) => {
  res.set(SECURITY_HEADERS);
  next();
};
