/** Storage of payments, their checkpoints and their gateway event log (issue #12). */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, PaymentsTable } from '../storage/database-schema.js';
import type { PaymentStatus } from './payment-gateway.js';
import type { DialectName } from '../storage/database-factory.js';
import { runCompiled } from '../storage/compiled-queries.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface PaymentRow {
  readonly id: number;
  readonly intentId: string;
  readonly gateway: string;
  readonly formId: number;
  readonly fieldHandle: string;
  readonly submissionId: number | null;
  readonly amount: number;
  readonly amountRefunded: number;
  readonly currency: string;
  readonly status: PaymentStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly finalisedAt: string | null;
  /** Hash of the creating browser's binding, or null (a client without the cookie). */
  readonly ownerHash: string | null;
}

type Selected = Omit<PaymentsTable, 'id'> & { id: number };

function toRow(row: Selected): PaymentRow {
  return {
    id: row.id,
    intentId: row.intent_id,
    gateway: row.gateway,
    formId: row.form_id,
    fieldHandle: row.field_handle,
    submissionId: row.submission_id,
    amount: row.amount,
    amountRefunded: row.amount_refunded,
    currency: row.currency,
    status: row.status as PaymentStatus,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finalisedAt: row.finalised_at,
    ownerHash: row.owner_hash,
  };
}

export async function insertPayment(
  db: Db,
  row: { intentId: string; gateway: string; formId: number; fieldHandle: string; amount: number; currency: string; status: PaymentStatus; at: string; ownerHash: string | null },
): Promise<void> {
  await db
    .insertInto('svc_payments')
    .values({
      intent_id: row.intentId,
      gateway: row.gateway,
      form_id: row.formId,
      field_handle: row.fieldHandle,
      submission_id: null,
      amount: row.amount,
      amount_refunded: 0,
      currency: row.currency,
      status: row.status,
      created_at: row.at,
      updated_at: row.at,
      finalised_at: null,
      owner_hash: row.ownerHash,
    })
    .onConflict((oc) => oc.column('intent_id').doNothing())
    .execute();
}

/** The row, locked for this transaction on PostgreSQL (SQLite transactions already run one at a time). */
export async function lockPayment(trx: Transaction<Database>, intentId: string, dialect: DialectName): Promise<PaymentRow | null> {
  const query = trx.selectFrom('svc_payments').selectAll().where('intent_id', '=', intentId);
  const row = await (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  return row ? toRow(row) : null;
}

export async function findPayment(db: Db, intentId: string): Promise<PaymentRow | null> {
  // Every checkpoint asks: compiled once (issue #17).
  const { rows } = await runCompiled(db, 'find-payment', () => db.selectFrom('svc_payments').selectAll().where('intent_id', '=', intentId), [intentId]);
  const row = rows[0];
  return row ? toRow(row) : null;
}

export async function paymentsOfSubmissions(db: Db, submissionIds: readonly number[]): Promise<PaymentRow[]> {
  if (submissionIds.length === 0) return [];
  const rows = await db.selectFrom('svc_payments').selectAll().where('submission_id', 'in', submissionIds).execute();
  return rows.map(toRow);
}

export async function updatePaymentAmount(db: Db, intentId: string, amount: number, at: string): Promise<void> {
  await db.updateTable('svc_payments').set({ amount, updated_at: at }).where('intent_id', '=', intentId).where('finalised_at', 'is', null).execute();
}

export async function setPaymentStatus(db: Db, intentId: string, status: PaymentStatus, amountRefunded: number, at: string): Promise<void> {
  await db.updateTable('svc_payments').set({ status, amount_refunded: amountRefunded, updated_at: at }).where('intent_id', '=', intentId).execute();
}

/**
 * The exactly-once guard (issue #12): marks the payment finalised in the submission's
 * transaction. Only one transaction finds `finalised_at` null; the other gets false and rolls back.
 */
export async function claimPayment(db: Db, intentId: string, submissionId: number | null, at: string): Promise<boolean> {
  // Paid now, unless an event already took it further (a refund folded in meanwhile stays).
  const status = sql<string>`case when status in ('succeeded', 'partially_refunded', 'refunded', 'disputed') then status else 'succeeded' end`;
  const result = await db
    .updateTable('svc_payments')
    .set({ submission_id: submissionId, finalised_at: at, status, updated_at: at })
    .where('intent_id', '=', intentId)
    .where('finalised_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Unfinished intents created before `before` and not yet in a final state: to cancel at the gateway. */
export async function staleUnpaid(db: Db, before: string, limit: number): Promise<PaymentRow[]> {
  const rows = await db
    .selectFrom('svc_payments')
    .selectAll()
    .where('finalised_at', 'is', null)
    .where('created_at', '<', before)
    .where('status', 'in', ['requires_payment_method', 'requires_action', 'failed'])
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map(toRow);
}

// Checkpoints -----------------------------------------------------------------------------------

export async function saveCheckpoint(db: Db, row: { intentId: string; formId: number; sealed: string; at: string; expiresAt: string }): Promise<void> {
  // A client retrying its checkpoint (or changing a value and trying again) replaces the first one.
  // Every checkpoint writes one: compiled once, parameters in column order (issue #17).
  const build = () =>
    db
      .insertInto('svc_payment_checkpoints')
      .values({ intent_id: row.intentId, form_id: row.formId, sealed: row.sealed, created_at: row.at, expires_at: row.expiresAt })
      .onConflict((oc) =>
        oc.column('intent_id').doUpdateSet((eb) => ({
          form_id: eb.ref('excluded.form_id'),
          sealed: eb.ref('excluded.sealed'),
          created_at: eb.ref('excluded.created_at'),
          expires_at: eb.ref('excluded.expires_at'),
        })),
      );
  await runCompiled(db, 'save-checkpoint', build, [row.intentId, row.formId, row.sealed, row.at, row.expiresAt]);
}

export async function findCheckpoint(db: Db, intentId: string): Promise<{ formId: number; sealed: string; expiresAt: string } | null> {
  const row = await db.selectFrom('svc_payment_checkpoints').select(['form_id', 'sealed', 'expires_at']).where('intent_id', '=', intentId).executeTakeFirst();
  return row ? { formId: row.form_id, sealed: row.sealed, expiresAt: row.expires_at } : null;
}

export async function deleteCheckpoint(db: Db, intentId: string): Promise<void> {
  await db.deleteFrom('svc_payment_checkpoints').where('intent_id', '=', intentId).execute();
}

export async function deleteExpiredCheckpoints(db: Db, now: string): Promise<number> {
  const result = await db.deleteFrom('svc_payment_checkpoints').where('expires_at', '<', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Intents with a live checkpoint and no submission yet, oldest first. */
export async function pendingCheckpoints(db: Db, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('svc_payment_checkpoints as c')
    .innerJoin('svc_payments as p', 'p.intent_id', 'c.intent_id')
    .select('c.intent_id')
    .where('p.finalised_at', 'is', null)
    .orderBy('c.created_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.intent_id);
}

// Event log -------------------------------------------------------------------------------------

/** Records an event once; false when its id was seen before (a replay). */
export async function recordEvent(
  db: Db,
  event: { eventId: string; intentId: string; type: string; status: PaymentStatus; amountRefunded: number; occurredAt: number; at: string },
): Promise<boolean> {
  const result = await db
    .insertInto('svc_payment_events')
    .values({
      event_id: event.eventId,
      intent_id: event.intentId,
      type: event.type,
      status: event.status,
      amount_refunded: event.amountRefunded,
      occurred_at: event.occurredAt,
      received_at: event.at,
    })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export async function eventsOf(db: Db, intentId: string) {
  return db.selectFrom('svc_payment_events').select(['status', 'occurred_at as occurredAt', 'amount_refunded as amountRefunded']).where('intent_id', '=', intentId).execute();
}
