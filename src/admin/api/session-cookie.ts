import type { Request, Response } from 'express';

export const SESSION_COOKIE = 'sy_session';

/** The session cookie's token, or undefined; other cookies (another app on the same host) are ignored. */
export function readSessionCookie(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

/**
 * HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), Path=/ (the console and the
 * API share it), Secure when the request came over TLS: a cookie set over https must never travel in clear.
 * The admin listener speaks plain HTTP, so TLS means a reverse proxy in front: its X-Forwarded-Proto is
 * believed for this flag only, where a forged one can only make the sender's own cookie stricter.
 */
export function setSessionCookie(req: Request, res: Response, token: string, maxAgeSeconds: number): void {
  const proto = req.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  const secure = req.secure || proto === 'https' ? '; Secure' : '';
  res.append(
    'set-cookie',
    `${SESSION_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAgeSeconds}${secure}`,
  );
}

export function clearSessionCookie(req: Request, res: Response): void {
  setSessionCookie(req, res, '', 0);
}
