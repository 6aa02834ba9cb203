import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';

/**
 * Bearer-token guard for admin routes. With no token configured the routes stay closed (403): an admin
 * surface must never be open by default. Both sides are hashed first so the comparison is constant-time
 * whatever the lengths.
 */
export function requireToken(token: string | null): RequestHandler {
  const expected = token === null ? null : digest(token);
  return (req, res, next) => {
    if (expected === null) {
      res
        .status(403)
        .json({ error: { code: 'admin_disabled', message: 'set SWITCHYARD_ADMIN_TOKEN to enable admin routes' } });
      return;
    }
    const header = req.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? digest(header.slice('Bearer '.length)) : null;
    if (given === null || !timingSafeEqual(given, expected)) {
      res.setHeader('www-authenticate', 'Bearer');
      res.status(401).json({ error: { code: 'unauthorized', message: 'a valid admin bearer token is required' } });
      return;
    }
    next();
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
