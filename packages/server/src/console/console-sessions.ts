/**
 * Console sessions (issue #15): a signed cookie naming who signed in (a user or an API key), when,
 * and when last seen, with a fingerprint of the credential, so a password change or a removed key
 * ends every session made with the old one. Idle and absolute expiry; HttpOnly, SameSite=Strict.
 */
import { deriveKey, hmac, safeEqual, sha256 } from '../security/token-crypto.js';

export interface ConsoleSession {
  readonly kind: 'user' | 'key';
  readonly name: string;
  /** A fingerprint of the credential the session was made with. */
  readonly credential: string;
  readonly issuedAt: number;
  readonly seenAt: number;
}

export interface ConsoleSessions {
  seal(session: ConsoleSession): string;
  /** The session a cookie carries, when its signature holds and it has not expired; else null. */
  open(cookie: string | undefined, now: number): ConsoleSession | null;
  /** The CSRF input of this session's forms. */
  csrf(session: ConsoleSession): string;
}

/** What a session remembers of a credential: never the credential, only a short hash of it. */
export function credentialFingerprint(secretOrHash: string): string {
  return sha256(secretOrHash).slice(0, 24);
}

export function createConsoleSessions(secret: string, options: { idleMs: number; maxMs: number }): ConsoleSessions {
  const key = deriveKey(secret, 'console-session');
  const csrfKey = deriveKey(secret, 'console-csrf');
  return {
    seal(session) {
      const body = Buffer.from(JSON.stringify(session), 'utf8').toString('base64url');
      return `${body}.${hmac(key, body)}`;
    },
    open(cookie, now) {
      if (typeof cookie !== 'string' || cookie.length > 2048) return null;
      const [body, mac, extra] = cookie.split('.');
      if (!body || !mac || extra !== undefined || !safeEqual(mac, hmac(key, body))) return null;
      let session: ConsoleSession;
      try {
        session = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as ConsoleSession;
      } catch {
        return null;
      }
      if (now - session.seenAt > options.idleMs || now - session.issuedAt > options.maxMs || session.issuedAt > now + 60_000) return null;
      return session;
    },
    csrf(session) {
      return hmac(csrfKey, `${session.kind}:${session.name}:${session.issuedAt}`);
    },
  };
}
