/**
 * The one-time hand-over from a classic post to the page it redirects back to (issue #14): the
 * values as posted, the errors, the page and the next payload, kept under a random key that the
 * redirect carries (`svc_flash`). Reading it deletes it, so the errors show exactly once; only the
 * key's hash is stored, and the row is sealed, so a database reader learns nothing of the answers.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import { deriveKey, openJson, randomToken, sealJson, sha256 } from '../security/token-crypto.js';

export interface ClassicFlash {
  readonly pageIndex: number;
  readonly values: Readonly<Record<string, unknown>>;
  readonly errors: Readonly<Record<string, readonly string[]>>;
  readonly formErrors: readonly string[];
  /** What carries the state the page posts next (a sealed payload or a session id), or null to start afresh. */
  readonly carried: string | null;
  readonly finished: boolean;
  readonly message: string | null;
  readonly submissionId: number | null;
  readonly draft: { readonly token: string; readonly key: string; readonly resumeUrl: string | null } | null;
}

export interface ClassicFlashes {
  /** Stores the flash; resolves with the key for the redirect. */
  put(formId: number, flash: ClassicFlash): Promise<string>;
  /** The flash under `key` for this form, once; null when unknown, spent, expired or another form's. */
  take(formId: number, key: string): Promise<ClassicFlash | null>;
  /** Drops expired flashes (the hourly purge). */
  purge(): Promise<number>;
}

const KEY = /^[A-Za-z0-9_-]{22,64}$/;

export function createClassicFlashes(db: Kysely<Database>, secret: string, ttlMs: number, now: () => Date): ClassicFlashes {
  const sealKey = deriveKey(secret, 'classic-flash');
  return {
    async put(formId, flash) {
      const key = randomToken(18);
      const expiresAt = new Date(now().getTime() + ttlMs).toISOString();
      await db.insertInto('svc_classic_flashes').values({ key_hash: sha256(key), form_id: formId, sealed: sealJson(sealKey, flash, String(formId)), expires_at: expiresAt }).execute();
      return key;
    },
    async take(formId, key) {
      if (!KEY.test(key)) return null;
      // Deleted as it is read: two reads of one key (a reload racing the first) show it once.
      const row = await db.deleteFrom('svc_classic_flashes').where('key_hash', '=', sha256(key)).returning(['form_id', 'sealed', 'expires_at']).executeTakeFirst();
      if (!row || row.form_id !== formId || row.expires_at <= now().toISOString()) return null;
      return openJson(sealKey, row.sealed, String(formId), 1_000_000) as ClassicFlash | null;
    },
    async purge() {
      const result = await db.deleteFrom('svc_classic_flashes').where('expires_at', '<=', now().toISOString()).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
