import type { Kysely } from 'kysely';
import type { DialectName } from '../database-factory.js';
import { addIdColumn } from '../dialect-sql.js';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  // issue #15: every write a site owner makes (admin API, later the console), append-only: who,
  // what, when and from where. No route updates or deletes a row.
  await addIdColumn(db.schema.createTable('svc_audit_log'), dialect)
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('form_handle', 'text')
    .addColumn('target', 'text')
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .execute();
  await db.schema.createIndex('svc_audit_log_form').on('svc_audit_log').columns(['form_handle', 'id']).execute();
}
