import type { Kysely } from 'kysely';
import type { DialectName } from '../database-factory.js';

/**
 * issue #37 item 3: the blind index of fields marked `personal`. One row per submission, kind and
 * keyed hash (HMAC-SHA-256 of the normalised value, privacy/privacy-blind-index.ts): no plaintext.
 * Looked up by hash; rows go with their submission through the foreign key (SQLite runs with
 * foreign_keys on), whatever path deletes it. The primary key leads with the submission id, so the
 * cascade finds a submission's rows by index on both dialects.
 */
export async function up(db: Kysely<unknown>, _dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('svc_privacy_index')
    .addColumn('submission_id', 'integer', (c) => c.notNull().references('svc_submissions.id').onDelete('cascade'))
    .addColumn('form_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('svc_privacy_index_pk', ['submission_id', 'kind', 'hash'])
    .execute();
  await db.schema.createIndex('svc_privacy_index_hash').on('svc_privacy_index').columns(['hash']).execute();
}
