import type { Kysely } from 'kysely';
import type { DialectName } from '../database-factory.js';
import { addIdColumn } from '../dialect-sql.js';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await addIdColumn(db.schema.createTable('svc_forms'), dialect)
    .addColumn('uid', 'text', (c) => c.notNull().unique())
    .addColumn('handle', 'text', (c) => c.notNull().unique())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await addIdColumn(db.schema.createTable('svc_fields'), dialect)
    .addColumn('form_id', 'integer', (c) => c.notNull().references('svc_forms.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('uid', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('svc_fields_form_key', ['form_id', 'key'])
    .execute();

  await addIdColumn(db.schema.createTable('svc_submissions'), dialect)
    .addColumn('uid', 'text', (c) => c.notNull().unique())
    .addColumn('form_id', 'integer', (c) => c.notNull().references('svc_forms.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('is_spam', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('spam_reasons', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('ip', 'text')
    .addColumn('values', 'text', (c) => c.notNull())
    .addColumn('finished', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('svc_submissions_form_created')
    .on('svc_submissions')
    .columns(['form_id', 'created_at'])
    .execute();
  await db.schema.createIndex('svc_submissions_token').on('svc_submissions').column('token_hash').execute();
}
