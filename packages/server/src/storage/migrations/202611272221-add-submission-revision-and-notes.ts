import type { Kysely } from 'kysely';
import type { DialectName } from '../database-factory.js';
import { addIdColumn } from '../dialect-sql.js';

/**
 * issue #35: an owner may correct a submission's values and leave notes on it.
 * `revision` counts the edits (0 = as submitted), so a reader sees a value was changed since;
 * the old and new values of each edit are in the audit log. Notes belong to their submission and
 * go with it: the foreign key deletes them on both dialects (SQLite runs with foreign_keys on), so
 * the admin delete, a bulk delete and the retention purge need no step of their own.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema.alterTable('svc_submissions').addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await addIdColumn(db.schema.createTable('svc_submission_notes'), dialect)
    .addColumn('submission_id', 'integer', (c) => c.notNull().references('svc_submissions.id').onDelete('cascade'))
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .execute();
  // A submission's notes are read oldest first: one index range, in id order.
  await db.schema.createIndex('svc_submission_notes_submission').on('svc_submission_notes').columns(['submission_id', 'id']).execute();
}
