/**
 * Console sessions (issues #15, #32), kept on the server: the cookie holds only a random id of 256
 * bits, and the database a row under the id's SHA-256 naming who signed in (a user or an API key),
 * when, when last seen, and a fingerprint of the credential. Deleting the row ends the session at
 * once on every instance sharing the database: sign-out deletes its own, `svc admin sessions
 * revoke` a user's; a password change or a removed key makes the fingerprint stop matching, and
 * the row is deleted when next presented. Idle expiry (console.sessionIdleMinutes, 30 by default)
 * and absolute expiry (console.sessionMaxHours, 12) are both in the row's expires_at; expired rows
 * are purged at each sign-in.
 *
 * Why not @fastify/session with a store of ours: it has no absolute expiry, writes the session
 * back on every request it touches, decorates every request of the app, and signs and sets its
 * own cookie, where the console sets its cookies on its own path and derives its CSRF token from
 * the session. What is left to do here (a random id, its hash, one row) is smaller than adapting it.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import { deriveKey, hmac, randomToken, sha256 } from '../security/token-crypto.js';

export interface ConsoleAccount {
  readonly kind: 'user' | 'key';
  readonly name: string;
  /** A fingerprint of the credential the session was made with (credentialFingerprint). */
  readonly credential: string;
}

export interface ConsoleSession extends ConsoleAccount {
  /** The id's hash: what the row is keyed by, and what the session's CSRF token is made from. */
  readonly idHash: string;
}

export interface ConsoleSessions {
  /** A new session for `account`: the cookie value to send, and the session. */
  start(account: ConsoleAccount, now: number): Promise<{ readonly cookie: string; readonly session: ConsoleSession }>;
  /** The live session a cookie names, its idle clock moved on; null when there is none (or it expired). */
  open(cookie: string | undefined, now: number): Promise<ConsoleSession | null>;
  /** Ends one session (sign-out, or a credential that no longer matches). */
  end(session: ConsoleSession): Promise<void>;
  /** The CSRF input of this session's forms. */
  csrf(session: ConsoleSession): string;
}

export interface ConsoleSessionOptions {
  readonly idleMs: number;
  readonly maxMs: number;
}

/** 32 random bytes, base64url: 43 characters. */
const COOKIE_FORMAT = /^[A-Za-z0-9_-]{43}$/;
/** The idle clock is written at most this often: a page view is a read, not a write, most times. */
const TOUCH_EVERY_MS = 60_000;

/** What a session remembers of a credential: never the credential, only a short hash of it. */
export function credentialFingerprint(secretOrHash: string): string {
  return sha256(secretOrHash).slice(0, 24);
}

const iso = (ms: number) => new Date(ms).toISOString();

export function createConsoleSessions(db: Kysely<Database>, secret: string, options: ConsoleSessionOptions): ConsoleSessions {
  const csrfKey = deriveKey(secret, 'console-csrf');
  const expiry = (createdAt: number, seenAt: number) => iso(Math.min(seenAt + options.idleMs, createdAt + options.maxMs));
  return {
    async start(account, now) {
      // Sessions past their expiry go at each sign-in, so the table holds live ones and few more.
      await purgeExpiredConsoleSessions(db, now);
      const cookie = randomToken(32);
      const idHash = sha256(cookie);
      await db
        .insertInto('svc_console_sessions')
        .values({ id_hash: idHash, kind: account.kind, name: account.name, credential: account.credential, created_at: iso(now), seen_at: iso(now), expires_at: expiry(now, now) })
        .execute();
      return { cookie, session: { ...account, idHash } };
    },
    async open(cookie, now) {
      if (typeof cookie !== 'string' || !COOKIE_FORMAT.test(cookie)) return null;
      const idHash = sha256(cookie);
      const row = await db.selectFrom('svc_console_sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
      if (!row || row.expires_at <= iso(now)) return null;
      const seenAt = Date.parse(row.seen_at);
      if (now - seenAt >= TOUCH_EVERY_MS) {
        await db.updateTable('svc_console_sessions').set({ seen_at: iso(now), expires_at: expiry(Date.parse(row.created_at), now) }).where('id_hash', '=', idHash).execute();
      }
      return { kind: row.kind, name: row.name, credential: row.credential, idHash };
    },
    async end(session) {
      await db.deleteFrom('svc_console_sessions').where('id_hash', '=', session.idHash).execute();
    },
    csrf(session) {
      return hmac(csrfKey, session.idHash);
    },
  };
}

/** Ends every session of one user or key now (`svc admin sessions revoke`); how many there were. */
export async function revokeConsoleSessions(db: Kysely<Database>, kind: ConsoleAccount['kind'], name: string): Promise<number> {
  const result = await db.deleteFrom('svc_console_sessions').where('kind', '=', kind).where('name', '=', name).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function purgeExpiredConsoleSessions(db: Kysely<Database>, now: number): Promise<number> {
  const result = await db.deleteFrom('svc_console_sessions').where('expires_at', '<=', iso(now)).executeTakeFirst();
  return Number(result.numDeletedRows);
}
