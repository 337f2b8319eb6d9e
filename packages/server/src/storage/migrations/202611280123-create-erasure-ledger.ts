import type { Kysely } from 'kysely';
import type { DialectName } from '../database-factory.js';
import { addIdColumn } from '../dialect-sql.js';

/**
 * issue #37 item 2: the erasure ledger (privacy/privacy-ledger.ts). `svc_erasures` holds one row per
 * erased submission — its uid, its uploads' ids and storage keys, when, why and the receipt — and
 * never a value, so keeping it forever keeps nobody's data. Rows are written in the erasure's own
 * transaction and mirrored to an append-only file outside the database (`mirrored` says whether
 * that happened); a restored older database re-applies the file's entries it does not hold.
 * `svc_erasure_marks` is how far each ledger file (by the id in its first line) has been applied
 * to this database: a high-water mark that a restore rolls back with everything else, so the
 * entries written after the backup are exactly the ones read again.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await addIdColumn(db.schema.createTable('svc_erasures'), dialect)
    .addColumn('submission_uid', 'text', (c) => c.notNull())
    .addColumn('form_id', 'integer', (c) => c.notNull())
    .addColumn('uploads', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('receipt', 'text')
    .addColumn('erased_at', 'text', (c) => c.notNull())
    .addColumn('mirrored', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('svc_erasures_uid').on('svc_erasures').columns(['submission_uid']).execute();
  await db.schema.createIndex('svc_erasures_mirrored').on('svc_erasures').columns(['mirrored', 'id']).execute();
  await db.schema
    .createTable('svc_erasure_marks')
    .addColumn('ledger', 'text', (c) => c.primaryKey())
    .addColumn('applied_bytes', 'bigint', (c) => c.notNull())
    .addColumn('applied_at', 'text', (c) => c.notNull())
    .execute();
}
