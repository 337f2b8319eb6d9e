/**
 * Where a rendered form's state lives between posts (`classic.sessionStorage`, issue #14):
 * `payload` seals it into the `svc_payload` the page posts back (nothing stored, any instance
 * opens it); `database` keeps it in svc_classic_sessions under a random id that the signed
 * `formHash` carries, so no `svc_payload` is sent. Both tell a missing, an altered and an
 * expired state apart.
 */
import { SvcError, type Form } from '@svc/core';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import { deriveKey, openJson, randomAlphanumeric, sealJson, sha256 } from '../security/token-crypto.js';
import type { ClassicPayload, ClassicSeals } from './classic-payload.js';

export type ClassicStorage = 'payload' | 'database';

export interface ClassicCarrier {
  readonly storage: ClassicStorage;
  /**
   * Keeps `payload` and answers what the page carries for it: the sealed payload, or the session
   * id (the same id again when `current` names one).
   */
  keep(form: Form, payload: ClassicPayload, current: string | null): Promise<string>;
  /** The state a post carries (`svc_payload`, or the session id from its formHash). */
  open(form: Form, carried: unknown, now: number): Promise<ClassicPayload>;
  /** Drops expired sessions (the hourly purge); 0 in payload mode. */
  purge(now: Date): Promise<number>;
}

/** 22 alphanumerics: 131 random bits, and no `-`, which separates the parts of a formHash. */
const SESSION_ID = /^[A-Za-z0-9]{22}$/;

function payloadCarrier(seals: ClassicSeals): ClassicCarrier {
  return {
    storage: 'payload',
    keep: async (_form, payload) => seals.sealPayload(payload),
    open: async (form, carried, now) => seals.openPayload(form, carried, now),
    purge: async () => 0,
  };
}

function databaseCarrier(db: Kysely<Database>, secret: string, ttlMs: number): ClassicCarrier {
  const key = deriveKey(secret, 'classic-session');
  return {
    storage: 'database',
    async keep(form, payload, current) {
      const id = current && SESSION_ID.test(current) ? current : randomAlphanumeric(22);
      const row = {
        id_hash: sha256(id),
        form_id: form.id,
        sealed: sealJson(key, payload, form.uid),
        expires_at: new Date(payload.renderedAt + ttlMs).toISOString(),
      };
      await db
        .insertInto('svc_classic_sessions')
        .values(row)
        .onConflict((oc) => oc.column('id_hash').doUpdateSet({ sealed: row.sealed }))
        .execute();
      return id;
    },
    async open(form, carried, now) {
      if (carried === undefined || carried === null || carried === '') throw new SvcError('PAYLOAD_MISSING', 'This form has expired; please reload it. (formHash names no stored session: render it from the properties JSON.)');
      if (typeof carried !== 'string' || !SESSION_ID.test(carried)) throw new SvcError('PAYLOAD_TAMPERED');
      const row = await db.selectFrom('svc_classic_sessions').select(['form_id', 'sealed', 'expires_at']).where('id_hash', '=', sha256(carried)).executeTakeFirst();
      // Purged rows were expired ones: an unknown id of the right shape is most likely one of them.
      if (!row || row.expires_at <= new Date(now).toISOString()) throw new SvcError('PAYLOAD_EXPIRED');
      const payload = row.form_id === form.id ? (openJson(key, row.sealed, form.uid, 1_000_000) as ClassicPayload | null) : null;
      if (!payload || payload.formUid !== form.uid) throw new SvcError('PAYLOAD_TAMPERED');
      return payload;
    },
    async purge(now) {
      const result = await db.deleteFrom('svc_classic_sessions').where('expires_at', '<=', now.toISOString()).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export function createClassicCarrier(storage: ClassicStorage, deps: { db: Kysely<Database>; secret: string; seals: ClassicSeals; ttlMs: number }): ClassicCarrier {
  return storage === 'database' ? databaseCarrier(deps.db, deps.secret, deps.ttlMs) : payloadCarrier(deps.seals);
}
