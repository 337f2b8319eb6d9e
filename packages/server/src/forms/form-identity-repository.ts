/**
 * Assigns form and field identities once and keeps them (interface.md §2.1, §2.4): ids are
 * database sequences, uids and hashes random, so they survive restarts, label edits and reordering.
 * Concurrent boots of several instances race safely: inserts ignore conflicts and re-read.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { FieldIdentity } from '@svc/core';
import type { Database } from '../storage/database-schema.js';
import { randomAlphanumeric } from '../security/token-crypto.js';

export interface FormIdentity {
  readonly id: number;
  readonly uid: string;
  readonly hash: string;
  /** Field key (handle, or `submit@<page>`) -> identity. */
  readonly fields: ReadonlyMap<string, FieldIdentity>;
}

export interface IdentityRequest {
  readonly handle: string;
  /** An explicit uid from the definition file keeps identity across a handle rename. */
  readonly uid?: string;
  readonly version: string;
  readonly fieldKeys: readonly string[];
}

async function findForm(db: Kysely<Database>, request: IdentityRequest) {
  if (request.uid) {
    const byUid = await db.selectFrom('svc_forms').selectAll().where('uid', '=', request.uid).executeTakeFirst();
    if (byUid) return byUid;
  }
  return db.selectFrom('svc_forms').selectAll().where('handle', '=', request.handle).executeTakeFirst();
}

export async function syncFormIdentity(
  db: Kysely<Database>,
  request: IdentityRequest,
  now: string,
): Promise<FormIdentity> {
  let form = await findForm(db, request);
  if (!form) {
    await db
      .insertInto('svc_forms')
      .values({
        uid: request.uid ?? randomUUID(),
        handle: request.handle,
        hash: randomAlphanumeric(9),
        version: request.version,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
    form = await findForm(db, request);
    if (!form) throw new Error(`Could not register form ${request.handle}`);
  } else if (form.handle !== request.handle || form.version !== request.version) {
    await db
      .updateTable('svc_forms')
      .set({ handle: request.handle, version: request.version, updated_at: now })
      .where('id', '=', form.id)
      .execute();
  }

  const formId = form.id;
  const existing = await db.selectFrom('svc_fields').select(['key', 'id', 'uid', 'hash']).where('form_id', '=', formId).execute();
  const known = new Set(existing.map((row) => row.key));
  const missing = request.fieldKeys.filter((key) => !known.has(key));
  if (missing.length > 0) {
    await db
      .insertInto('svc_fields')
      .values(missing.map((key) => ({ form_id: formId, key, uid: randomUUID(), hash: randomAlphanumeric(9), created_at: now })))
      .onConflict((oc) => oc.columns(['form_id', 'key']).doNothing())
      .execute();
  }
  const rows =
    missing.length > 0
      ? await db.selectFrom('svc_fields').select(['key', 'id', 'uid', 'hash']).where('form_id', '=', formId).execute()
      : existing;
  const fields = new Map(rows.map((row) => [row.key, { id: row.id, uid: row.uid, hash: row.hash }]));
  return { id: formId, uid: form.uid, hash: form.hash, fields };
}
