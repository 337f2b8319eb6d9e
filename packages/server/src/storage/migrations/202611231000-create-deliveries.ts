import type { Kysely } from 'kysely';
import type { DialectName } from '../database-factory.js';
import { addIdColumn } from '../dialect-sql.js';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  // DESIGN.md principle 8, the transactional outbox: delivery jobs are written in the submission's
  // own transaction and drained by workers, so an acknowledged submission is always delivered.
  await addIdColumn(db.schema.createTable('svc_deliveries'), dialect)
    .addColumn('uid', 'text', (c) => c.notNull().unique())
    .addColumn('submission_id', 'integer')
    .addColumn('form_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    /** JSON: what to deliver to whom ({template, to} / {url} / …). */
    .addColumn('target', 'text', (c) => c.notNull())
    /** JSON snapshot of the submission as delivered (works for forms that store nothing). */
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text')
    .execute();
  await db.schema.createIndex('svc_deliveries_due').on('svc_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('svc_deliveries_submission').on('svc_deliveries').column('submission_id').execute();

  await addIdColumn(db.schema.createTable('svc_delivery_attempts'), dialect)
    .addColumn('delivery_id', 'integer', (c) => c.notNull().references('svc_deliveries.id').onDelete('cascade'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('ok', 'integer', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('svc_delivery_attempts_delivery').on('svc_delivery_attempts').column('delivery_id').execute();
}
