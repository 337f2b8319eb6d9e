import type { Kysely } from 'kysely';
import type { DialectName } from '../database-factory.js';
import { addIdColumn } from '../dialect-sql.js';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  // contract §5: only a hash of the draft token is stored, and the payload is sealed under a key
  // derived from the draft key, so the database alone can neither read nor overwrite a draft.
  await addIdColumn(db.schema.createTable('svc_drafts'), dialect)
    .addColumn('form_id', 'integer', (c) => c.notNull().references('svc_forms.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('svc_drafts_expires').on('svc_drafts').column('expires_at').execute();

  // contract §4: a key (hashed, per form) remembers the request it came with and the answer given.
  await db.schema
    .createTable('svc_idempotency_keys')
    .addColumn('key_hash', 'text', (c) => c.primaryKey())
    .addColumn('form_id', 'integer', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('svc_idempotency_created').on('svc_idempotency_keys').column('created_at').execute();
}
