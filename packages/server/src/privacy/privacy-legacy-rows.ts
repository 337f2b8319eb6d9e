/**
 * Sealing what an installation stored before encryption at rest, besides submissions (issue #37
 * item 1; privacy-legacy-encryption.ts does the submissions): uploads (their bytes), idempotency
 * answers, outbox jobs (payload and target) and owners' edits in the audit log. Each kind is sealed
 * in batches in key order, each row under a new data key of its own and only while it is still
 * plain (`data_key is null` in the UPDATE), so a pass resumes where one stopped, runs safely beside
 * a second instance and beside live writes, and reads accept both kinds of row meanwhile.
 *
 * Drafts are left as they are: they were sealed before (under a key from the server secret and the
 * holder's draft key, which the server does not keep, so it cannot re-seal them); a draft is sealed
 * under a data key at its next save and expires after `drafts.ttlDays` in any case.
 */
import type { Kysely, Transaction, UpdateResult } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import type { FileStore } from '../files/file-store.js';
import { sealLegacyUpload } from '../files/upload-legacy-sealing.js';
import { PAYLOAD_AAD, TARGET_AAD } from '../notifications/outbox-repository.js';
import { storedDetail } from '../admin/audit-log.js';
import type { ValueSealer } from './privacy-sealer.js';

/** What the pass seals, in the order it does. */
export const LEGACY_ROW_KINDS = ['uploads', 'idempotency answers', 'outbox jobs', 'audit entries'] as const;
export type LegacyRowKind = (typeof LEGACY_ROW_KINDS)[number];

export interface LegacyRowsServices {
  readonly db: Kysely<Database>;
  readonly sealer: Pick<ValueSealer, 'forNew' | 'newKey'>;
  readonly store: FileStore;
}

export interface LegacyRowsOptions {
  /** Rows per batch. */
  readonly batch: number;
  /** After each batch: the kind, how many of it this run sealed so far. */
  readonly onBatch?: (kind: LegacyRowKind, sealed: number) => void;
  /** Checked between batches: true stops the pass. */
  readonly stopped?: () => boolean;
}

/** Rows of each kind still plain (audit entries: owners' edits only, the ones holding values). */
export async function countLegacyRows(db: Kysely<Database>): Promise<Record<LegacyRowKind, number>> {
  const count = async (query: { executeTakeFirstOrThrow(): Promise<{ n: string | number }> }) => Number((await query.executeTakeFirstOrThrow()).n);
  return {
    uploads: await count(db.selectFrom('svc_files').select((eb) => eb.fn.countAll<string | number>().as('n')).where('data_key', 'is', null)),
    'idempotency answers': await count(
      db.selectFrom('svc_idempotency_keys').select((eb) => eb.fn.countAll<string | number>().as('n')).where('data_key', 'is', null).where('response_body', 'is not', null),
    ),
    'outbox jobs': await count(db.selectFrom('svc_deliveries').select((eb) => eb.fn.countAll<string | number>().as('n')).where('data_key', 'is', null)),
    'audit entries': await count(
      db.selectFrom('svc_audit_log').select((eb) => eb.fn.countAll<string | number>().as('n')).where('data_key', 'is', null).where('action', '=', 'submission.edit'),
    ),
  };
}

/** Seals every plain row of every kind; answers how many of each this run sealed. */
export async function encryptLegacyRows(services: LegacyRowsServices, options: LegacyRowsOptions): Promise<Record<LegacyRowKind, number>> {
  const { db, sealer } = services;
  const sealed: Record<LegacyRowKind, number> = { uploads: 0, 'idempotency answers': 0, 'outbox jobs': 0, 'audit entries': 0 };
  const report = (kind: LegacyRowKind, done: number) => {
    sealed[kind] += done;
    options.onBatch?.(kind, sealed[kind]);
  };

  // Uploads: the bytes are re-sealed under a new storage key, one file at a time.
  for (let lastId = 0; !options.stopped?.(); ) {
    const rows = await db.selectFrom('svc_files').select(['id', 'storage_key', 'size', 'mime']).where('data_key', 'is', null).where('id', '>', lastId).orderBy('id').limit(options.batch).execute();
    if (rows.length === 0) break;
    let done = 0;
    for (const row of rows) {
      if (await sealLegacyUpload(db, services.store, sealer, { id: Number(row.id), storageKey: row.storage_key, size: Number(row.size), mime: row.mime })) done++;
    }
    lastId = Number(rows[rows.length - 1]?.id);
    report('uploads', done);
  }

  for (let lastKey = ''; !options.stopped?.(); ) {
    const rows = await db
      .selectFrom('svc_idempotency_keys')
      .select(['key_hash', 'response_body'])
      .where('data_key', 'is', null)
      .where('response_body', 'is not', null)
      .where('key_hash', '>', lastKey)
      .orderBy('key_hash')
      .limit(options.batch)
      .execute();
    if (rows.length === 0) break;
    const done = await sealEach(db, rows, async (trx, row) => {
      const seal = sealer.forNew();
      // The answer's binding is its key's row (idempotency-store.ts).
      const body = seal.sealJson(JSON.parse(row.response_body as string), `idempotency:${row.key_hash}`);
      return trx.updateTable('svc_idempotency_keys').set({ response_body: body, data_key: seal.wrapped }).where('key_hash', '=', row.key_hash).where('data_key', 'is', null).executeTakeFirst();
    });
    lastKey = rows[rows.length - 1]?.key_hash ?? lastKey;
    report('idempotency answers', done);
  }

  for (let lastId = 0; !options.stopped?.(); ) {
    const rows = await db.selectFrom('svc_deliveries').select(['id', 'payload', 'target']).where('data_key', 'is', null).where('id', '>', lastId).orderBy('id').limit(options.batch).execute();
    if (rows.length === 0) break;
    const done = await sealEach(db, rows, async (trx, row) => {
      const seal = sealer.forNew();
      return trx
        .updateTable('svc_deliveries')
        .set({ payload: seal.sealJson(JSON.parse(row.payload), PAYLOAD_AAD), target: seal.sealJson(JSON.parse(row.target), TARGET_AAD), data_key: seal.wrapped })
        .where('id', '=', row.id)
        .where('data_key', 'is', null)
        .executeTakeFirst();
    });
    lastId = Number(rows[rows.length - 1]?.id);
    report('outbox jobs', done);
  }

  for (let lastId = 0; !options.stopped?.(); ) {
    const rows = await db
      .selectFrom('svc_audit_log')
      .select(['id', 'detail', 'target'])
      .where('data_key', 'is', null)
      .where('action', '=', 'submission.edit')
      .where('id', '>', lastId)
      .orderBy('id')
      .limit(options.batch)
      .execute();
    if (rows.length === 0) break;
    const done = await sealEach(db, rows, async (trx, row) => {
      const { from, to, ...rest } = JSON.parse(row.detail) as Record<string, unknown>;
      const seal = sealer.forNew();
      // The same shape appendAudit writes: the values under `sealed`, the rest as it was.
      const detail = storedDetail(rest, { seal, detail: { from, to } }, row.target);
      return trx.updateTable('svc_audit_log').set({ detail, data_key: seal.wrapped }).where('id', '=', row.id).where('data_key', 'is', null).executeTakeFirst();
    });
    lastId = Number(rows[rows.length - 1]?.id);
    report('audit entries', done);
  }
  return sealed;
}

/**
 * One batch in one transaction: `update` seals a row and writes it only while it is still plain;
 * answers how many rows it wrote (a row another instance or a live write sealed first is skipped).
 */
async function sealEach<R>(db: Kysely<Database>, rows: readonly R[], update: (trx: Transaction<Database>, row: R) => Promise<UpdateResult>): Promise<number> {
  return db.transaction().execute(async (trx) => {
    let count = 0;
    for (const row of rows) count += Number((await update(trx, row)).numUpdatedRows);
    return count;
  });
}
