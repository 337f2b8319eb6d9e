import type { Kysely } from 'kysely';
import type { DialectName } from '../database-factory.js';
import { addIdColumn } from '../dialect-sql.js';

/**
 * issue #35 item 7: saved filters, per console user and form. `owner` names the account as the
 * audit log does (`user:<name>`, `key:<name>`); `query` is the list page's query string as it was
 * saved. A name is unique per owner and form, so saving again under a name replaces it.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await addIdColumn(db.schema.createTable('svc_console_filters'), dialect)
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('form_handle', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('query', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('svc_console_filters_owner_form_name', ['owner', 'form_handle', 'name'])
    .execute();
}
