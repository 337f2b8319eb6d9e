/**
 * Save-and-continue drafts (contract §5). A draft is found by the SHA-256 of its token and opened
 * with a key derived from the draft key and the row's own data key (AES-256-GCM, bound to the
 * token hash), so neither a database dump nor a guessed token reveals or alters one. A wrong key
 * and an unknown token are the same "not found": there is no oracle.
 *
 * The data key (issue #37 item 1) is random per save and stored wrapped under the configured KEK
 * in `data_key`: rotating the KEK rewraps it, destroying it shreds the draft. Rows saved before it
 * (no data key) open with the key derived from the server secret, as they were sealed.
 */
import { hkdfSync } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Form } from '@svc/core';
import type { Database } from '../storage/database-schema.js';
import { deriveKey, openJson, randomAlphanumeric, sealJson, sha256 } from '../security/token-crypto.js';
import { withKeys } from '../submissions/object-shapes.js';
import type { ValueSealer } from '../privacy/privacy-sealer.js';

export const DRAFT_TOKEN_LENGTH = 40;
export const DRAFT_KEY_LENGTH = 25;

export interface DraftContent {
  /** Raw values as posted, re-normalised on every step like multi-page state. */
  readonly values: Readonly<Record<string, unknown>>;
  readonly pageIndex: number;
  readonly pageHistory: readonly number[];
}

export interface LoadedDraft extends DraftContent {
  readonly token: string;
  readonly key: string;
}

export interface DraftService {
  /** The draft, or null when the token is unknown, the key wrong, or it expired. */
  load(form: Form, token: string, key: string, now: Date): Promise<LoadedDraft | null>;
  /** Update `existing` in place, or create a new token/key pair. */
  save(form: Form, content: DraftContent, existing: LoadedDraft | null, now: Date): Promise<{ token: string; key: string }>;
  delete(token: string): Promise<void>;
  /** Delete expired drafts; returns how many. */
  purgeExpired(now?: Date): Promise<number>;
  resumeUrl(form: Form, token: string, key: string): string | null;
}

function isContent(value: unknown): value is DraftContent {
  const v = value as DraftContent;
  return (
    typeof v === 'object' && v !== null &&
    typeof v.values === 'object' && v.values !== null && !Array.isArray(v.values) &&
    Number.isInteger(v.pageIndex) && v.pageIndex >= 0 &&
    Array.isArray(v.pageHistory) && v.pageHistory.every((n) => Number.isInteger(n))
  );
}

export function createDraftService(
  db: Kysely<Database>,
  secret: string,
  sealer: Pick<ValueSealer, 'newKey' | 'unwrap'>,
  ttlDays: number,
  clock: () => Date,
  resolveUrl: (url: string) => string = (url) => url,
): DraftService {
  /** Both halves are needed: the row's data key (the server's) and the draft key (the holder's). */
  const keyFor = (draftKey: string, dataKey: Buffer) => Buffer.from(hkdfSync('sha256', dataKey, draftKey, 'svc:draft', 32));
  const legacyKeyFor = (draftKey: string) => deriveKey(secret, 'draft', draftKey);
  const expiry = (now: Date) => new Date(now.getTime() + ttlDays * 86_400_000).toISOString();
  const wellFormed = (token: string, key: string) =>
    /^[A-Za-z0-9]+$/.test(token) && token.length === DRAFT_TOKEN_LENGTH && /^[A-Za-z0-9]+$/.test(key) && key.length === DRAFT_KEY_LENGTH;

  return {
    async load(form, token, key, now) {
      if (!wellFormed(token, key)) return null;
      const tokenHash = sha256(token);
      const row = await db
        .selectFrom('svc_drafts')
        .select(['payload', 'expires_at', 'form_id', 'data_key'])
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      if (!row || row.form_id !== form.id || row.expires_at <= now.toISOString()) return null;
      const dataKey = row.data_key === null ? null : sealer.unwrap(row.data_key);
      if (row.data_key !== null && !dataKey) return null;
      const content = openJson(dataKey ? keyFor(key, dataKey) : legacyKeyFor(key), row.payload, tokenHash);
      if (!isContent(content) || content.pageIndex >= form.pages.length) return null;
      return withKeys(content, { token, key });
    },

    async save(form, content, existing, now) {
      const stamp = now.toISOString();
      // A fresh data key with every save: a row saved before sealing is sealed by its next save.
      const dataKey = sealer.newKey();
      const payload = (token: string, key: string) => sealJson(keyFor(key, dataKey.key), content, sha256(token));
      if (existing) {
        const updated = await db
          .updateTable('svc_drafts')
          .set({ payload: payload(existing.token, existing.key), data_key: dataKey.wrapped, updated_at: stamp, expires_at: expiry(now) })
          .where('token_hash', '=', sha256(existing.token))
          .executeTakeFirst();
        // Deleted in the meantime (a submit or a purge): fall through and issue a new pair.
        if (Number(updated.numUpdatedRows) > 0) return { token: existing.token, key: existing.key };
      }
      const token = randomAlphanumeric(DRAFT_TOKEN_LENGTH);
      const key = randomAlphanumeric(DRAFT_KEY_LENGTH);
      await db
        .insertInto('svc_drafts')
        .values({ form_id: form.id, token_hash: sha256(token), payload: payload(token, key), data_key: dataKey.wrapped, created_at: stamp, updated_at: stamp, expires_at: expiry(now) })
        .execute();
      return { token, key };
    },

    async delete(token) {
      await db.deleteFrom('svc_drafts').where('token_hash', '=', sha256(token)).execute();
    },

    async purgeExpired(now = clock()) {
      const result = await db.deleteFrom('svc_drafts').where('expires_at', '<=', now.toISOString()).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    resumeUrl(form, token, key) {
      const template = form.settings.saveRedirectUrl;
      if (!template) return null;
      // A template written as a path (`/demo/resume?…`) is on svc itself (http/service-address.ts).
      return resolveUrl(template.replaceAll('{token}', encodeURIComponent(token)).replaceAll('{key}', encodeURIComponent(key)));
    },
  };
}
