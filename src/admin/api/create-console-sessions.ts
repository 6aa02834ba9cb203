import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { AdminKeyConfig, AdminScope } from '../../config/config.js';

/** One signed-in console: which key signed in (name and hash, never the key), what it may do, until when. */
export interface ConsoleSession {
  readonly keyName: string;
  readonly keyHash: string;
  readonly scopes: readonly AdminScope[];
  readonly expiresAt: number;
  readonly csrfToken: string;
}

/** Why a cookie's token has no live session: so the page can say whether to suspect a restart or a rotated key. */
export type SessionEnd = 'unknown' | 'expired' | 'revoked';

export interface ConsoleSessions {
  /** How long a session lives from sign-in (`admin.console.session_ttl`); the cookie's Max-Age. */
  readonly ttlMs: number;
  /** Opens a session for `key`; answers the cookie's token (shown once, kept only as a digest) and the session. */
  open(key: AdminKeyConfig): { readonly token: string; readonly session: ConsoleSession };
  /**
   * The live session of a cookie's token, or why there is none: `unknown` (never opened here: the daemon
   * restarted since, or it was signed out or swept), `expired`, or `revoked` because the key that signed in was
   * rotated or removed (no configured key has that name with that hash any more).
   */
  find(token: string): ConsoleSession | SessionEnd;
  close(token: string): void;
  /** True when `presented` is the session's CSRF token (constant time). */
  csrfMatches(session: ConsoleSession, presented: string | undefined): boolean;
}

/** A few hundred people on shift at most; the bound stops a key holder from growing the map without end. */
export const DEFAULT_MAX_SESSIONS = 1000;

/**
 * Console sessions in memory: a restart signs everyone out, which is also what revokes a rotated key's
 * sessions across restarts. The map is keyed by the SHA-256 of the token, so neither a lookup's timing nor a
 * heap dump gives a usable cookie. When full, the session closest to expiry is dropped first (expired ones
 * are swept on every open), so signing in always works.
 */
export function createConsoleSessions(deps: {
  readonly clock: Clock;
  readonly ttlMs: number;
  /** The keys configured now, read on every lookup, so a rotated or removed key revokes its sessions at once. */
  readonly keys: () => readonly AdminKeyConfig[];
  readonly maxSessions?: number;
}): ConsoleSessions {
  const max = deps.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const sessions = new Map<string, ConsoleSession>();
  const digest = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');
  const sweep = (): void => {
    const now = deps.clock.now();
    for (const [id, session] of sessions) if (session.expiresAt <= now) sessions.delete(id);
    // Same TTL for all, so insertion order is expiry order: the first is the closest to expiry.
    while (sessions.size >= max) {
      const first = sessions.keys().next();
      if (first.done === true) break;
      sessions.delete(first.value);
    }
  };
  return {
    ttlMs: deps.ttlMs,
    open(key) {
      sweep();
      const token = randomBytes(32).toString('base64url');
      const session: ConsoleSession = {
        keyName: key.name,
        keyHash: key.hash,
        scopes: [...key.scopes],
        expiresAt: deps.clock.now() + deps.ttlMs,
        csrfToken: randomBytes(32).toString('base64url'),
      };
      sessions.set(digest(token), session);
      return { token, session };
    },
    find(token) {
      const id = digest(token);
      const session = sessions.get(id);
      if (session === undefined) return 'unknown';
      const current = deps.keys().some((key) => key.name === session.keyName && key.hash === session.keyHash);
      if (session.expiresAt > deps.clock.now() && current) return session;
      sessions.delete(id);
      return current ? 'expired' : 'revoked';
    },
    close(token) {
      sessions.delete(digest(token));
    },
    csrfMatches(session, presented) {
      if (presented === undefined) return false;
      // Digests of both, so the comparison is of equal lengths whatever was sent (timingSafeEqual throws otherwise).
      return timingSafeEqual(digestBuffer(presented), digestBuffer(session.csrfToken));
    },
  };
}

function digestBuffer(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
