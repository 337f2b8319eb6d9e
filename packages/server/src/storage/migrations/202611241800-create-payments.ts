import type { Kysely } from 'kysely';
import type { DialectName } from '../database-factory.js';
import { addIdColumn } from '../dialect-sql.js';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  // issue #12: one row per gateway intent svc created. `intent_id` is unique, and a submission is
  // made from it only by the update that sets `submission_id` where it is still null, in the
  // submission's own transaction: a callback and a webhook racing cannot both make one.
  await addIdColumn(db.schema.createTable('svc_payments'), dialect)
    .addColumn('intent_id', 'text', (c) => c.notNull().unique())
    .addColumn('gateway', 'text', (c) => c.notNull())
    .addColumn('form_id', 'integer', (c) => c.notNull())
    .addColumn('field_handle', 'text', (c) => c.notNull())
    .addColumn('submission_id', 'integer', (c) => c.unique().references('svc_submissions.id').onDelete('set null'))
    /** Minor units (cents), as the gateway counts. */
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('amount_refunded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finalised_at', 'text')
    .execute();
  await db.schema.createIndex('svc_payments_open').on('svc_payments').columns(['finalised_at', 'created_at']).execute();

  // The values a respondent submitted before paying, encrypted, until the payment finishes them.
  await db.schema
    .createTable('svc_payment_checkpoints')
    .addColumn('intent_id', 'text', (c) => c.primaryKey())
    .addColumn('form_id', 'integer', (c) => c.notNull())
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('svc_payment_checkpoints_expiry').on('svc_payment_checkpoints').column('expires_at').execute();

  // FormSG's lesson: every gateway event is kept once (unique event id) and the status is
  // recomputed from the whole log ordered by the gateway's own time, so a late event cannot regress it.
  await addIdColumn(db.schema.createTable('svc_payment_events'), dialect)
    .addColumn('event_id', 'text', (c) => c.notNull().unique())
    .addColumn('intent_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('amount_refunded', 'integer', (c) => c.notNull().defaultTo(0))
    /** The gateway's event time (Unix seconds). */
    .addColumn('occurred_at', 'integer', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('svc_payment_events_intent').on('svc_payment_events').column('intent_id').execute();
}
