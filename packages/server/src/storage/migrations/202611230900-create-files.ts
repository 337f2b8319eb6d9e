import type { Kysely } from 'kysely';
import type { DialectName } from '../database-factory.js';
import { addIdColumn } from '../dialect-sql.js';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  // contract §7: every stored file has a row. It is unattached (submission_id null) from upload
  // until a submit claims it; unattached rows past their hold are purged with their blobs.
  await addIdColumn(db.schema.createTable('svc_files'), dialect)
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('form_id', 'integer', (c) => c.notNull().references('svc_forms.id').onDelete('cascade'))
    .addColumn('field_handle', 'text', (c) => c.notNull())
    .addColumn('column_index', 'integer')
    .addColumn('owner_hash', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('extension', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('submission_id', 'integer')
    .addColumn('hold_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('svc_files_submission').on('svc_files').column('submission_id').execute();
  await db.schema.createIndex('svc_files_owner').on('svc_files').columns(['owner_hash', 'form_id', 'field_handle']).execute();
  await db.schema.createIndex('svc_files_created').on('svc_files').column('created_at').execute();
}
