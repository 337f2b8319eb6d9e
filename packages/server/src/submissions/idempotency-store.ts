/**
 * Idempotency keys (contract §4), kept in the database so every instance sees them. A key is
 * reserved before the request runs, so two identical requests racing on two instances submit
 * once: the second finds the reservation and is told to retry (409) or gets the stored answer.
 * The stored answer can carry what was submitted, so it is sealed under a data key of its own
 * (issue #37 item 1); an answer stored before that (no data key) is read as it was written.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import { sha256 } from '../security/token-crypto.js';
import type { SubmitResult } from './submit-response.js';
import type { ValueSealer } from '../privacy/privacy-sealer.js';

export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

export type IdempotencyOutcome =
  | { readonly kind: 'fresh' }
  | { readonly kind: 'replay'; readonly result: SubmitResult }
  | { readonly kind: 'conflict'; readonly message: string };

export interface IdempotencyStore {
  begin(formId: number, key: string, requestHash: string, now: Date): Promise<IdempotencyOutcome>;
  complete(formId: number, key: string, result: SubmitResult): Promise<void>;
  /** Release a reservation whose request failed, so a retry can run. */
  abandon(formId: number, key: string): Promise<void>;
  purgeExpired(now: Date): Promise<number>;
}

const keyHash = (formId: number, key: string) => sha256(`${formId}:${key}`);
/** An answer is bound to its key's row: it cannot be moved under another key and replayed there. */
const answerAad = (hash: string) => `idempotency:${hash}`;

export function createIdempotencyStore(db: Kysely<Database>, sealer: Pick<ValueSealer, 'forNew' | 'openJson'>): IdempotencyStore {
  async function reserve(hash: string, formId: number, requestHash: string, now: Date): Promise<boolean> {
    const inserted = await db
      .insertInto('svc_idempotency_keys')
      .values({ key_hash: hash, form_id: formId, request_hash: requestHash, response_status: null, response_body: null, created_at: now.toISOString() })
      .onConflict((oc) => oc.column('key_hash').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  return {
    async begin(formId, key, requestHash, now) {
      const hash = keyHash(formId, key);
      if (await reserve(hash, formId, requestHash, now)) return { kind: 'fresh' };
      const row = await db.selectFrom('svc_idempotency_keys').selectAll().where('key_hash', '=', hash).executeTakeFirst();
      if (!row) return (await reserve(hash, formId, requestHash, now)) ? { kind: 'fresh' } : { kind: 'conflict', message: 'This idempotency key is in use; retry shortly.' };
      if (Date.parse(row.created_at) + IDEMPOTENCY_TTL_MS <= now.getTime()) {
        // Expired: the key may be used afresh.
        await db.deleteFrom('svc_idempotency_keys').where('key_hash', '=', hash).where('created_at', '=', row.created_at).execute();
        return (await reserve(hash, formId, requestHash, now)) ? { kind: 'fresh' } : { kind: 'conflict', message: 'This idempotency key is in use; retry shortly.' };
      }
      if (row.request_hash !== requestHash) return { kind: 'conflict', message: 'This idempotency key was used with a different request.' };
      if (row.response_status === null || row.response_body === null) {
        return { kind: 'conflict', message: 'A request with this idempotency key is still being processed; retry shortly.' };
      }
      const body = sealer.openJson<SubmitResult['body']>(row.data_key, row.response_body, answerAad(hash));
      // Its key is gone or it was altered: the first request did run, so it must not run again.
      if (body === null) return { kind: 'conflict', message: 'This idempotency key was used already; its answer can no longer be read.' };
      return { kind: 'replay', result: { httpStatus: row.response_status, body } };
    },

    async complete(formId, key, result) {
      const hash = keyHash(formId, key);
      const seal = sealer.forNew();
      await db
        .updateTable('svc_idempotency_keys')
        .set({ response_status: result.httpStatus, response_body: seal.sealJson(result.body, answerAad(hash)), data_key: seal.wrapped })
        .where('key_hash', '=', hash)
        .execute();
    },

    async abandon(formId, key) {
      await db.deleteFrom('svc_idempotency_keys').where('key_hash', '=', keyHash(formId, key)).where('response_status', 'is', null).execute();
    },

    async purgeExpired(now) {
      const cutoff = new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString();
      const result = await db.deleteFrom('svc_idempotency_keys').where('created_at', '<=', cutoff).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

/** What makes two requests "the same": everything but the key itself. */
export function requestFingerprint(parts: unknown): string {
  return sha256(JSON.stringify(parts));
}
