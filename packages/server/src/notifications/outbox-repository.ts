/**
 * The outbox table (DESIGN.md principle 8). Jobs are claimed with a lease: on PostgreSQL through
 * `FOR UPDATE SKIP LOCKED`, so several instances drain one outbox without taking the same job;
 * on SQLite the single writer serialises claims. A worker that dies leaves its lease to expire,
 * and the job is taken again: at least once, never lost.
 *
 * A job's payload is the submission as it was, values included, so it is stored sealed (issue #37
 * item 1) under the data key the job carries in `data_key`: the submission's own when the caller
 * hands it over, else a fresh one per submission. A job written before sealing (no data key) is
 * read as it was written.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import type { DialectName } from '../storage/database-factory.js';
import { runCompiled } from '../storage/compiled-queries.js';
import { timeOrderedUuid } from '../security/token-crypto.js';
import { describeTarget, type DeliveryJob, type DeliveryPayload, type DeliveryRecord, type DeliveryStatus, type DeliveryTarget } from './delivery-model.js';
import type { RowSeal, ValueSealer } from '../privacy/privacy-sealer.js';

type Db = Kysely<Database> | Transaction<Database>;

/** At most this many jobs per INSERT (14 binds each; a batch of submissions has a few each). */
const JOBS_PER_STATEMENT = 64;

/** One job to write: where it goes and the submission as it was (its own payload). */
export interface NewDelivery {
  readonly target: DeliveryTarget;
  readonly submissionId: number | null;
  readonly formId: number;
  readonly payload: DeliveryPayload;
  /** The data key its payload is sealed under; a submission's jobs share it with their payload. */
  readonly seal: RowSeal;
}

/** What a sealed payload is bound to: a payload column, not a submission's values or title. */
export const PAYLOAD_AAD = 'delivery:payload';
/** A target names where a person's data goes (a submitter's address for a confirmation): sealed too. */
export const TARGET_AAD = 'delivery:target';

/** A job's target, or null when it is sealed and does not open (its key destroyed, or altered). */
export function openTarget(sealer: Pick<ValueSealer, 'openJson'>, row: { readonly data_key: string | null; readonly target: string }): DeliveryTarget | null {
  return sealer.openJson<DeliveryTarget>(row.data_key, row.target, TARGET_AAD);
}

/** How a job whose target no longer opens is listed. */
const unreadableDestination = (kind: string) => `${kind} (its address can no longer be read)`;

/**
 * The rows of `jobs` in the column order of `svc_deliveries` (the compiled inserts bind them in
 * this order; keep it fixed). A submission's jobs share their payload object: serialised and
 * sealed once.
 */
export function deliveryRows(jobs: readonly NewDelivery[], now: string) {
  let lastPayload: DeliveryPayload | null = null;
  let lastSeal: RowSeal | null = null;
  let lastSealed = '';
  return jobs.map((job) => {
    if (job.payload !== lastPayload || job.seal !== lastSeal) {
      lastPayload = job.payload;
      lastSeal = job.seal;
      lastSealed = job.seal.sealJson(job.payload, PAYLOAD_AAD);
    }
    return {
      uid: timeOrderedUuid(),
      submission_id: job.submissionId,
      form_id: job.formId,
      kind: job.target.kind,
      target: job.seal.sealJson(job.target, TARGET_AAD),
      payload: lastSealed,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      locked_until: null,
      last_error: null,
      created_at: now,
      updated_at: now,
      delivered_at: null,
      data_key: job.seal.wrapped,
    };
  });
}

export async function enqueueDeliveries(db: Db, jobs: readonly NewDelivery[], now: string): Promise<void> {
  if (jobs.length === 0) return;
  const rows = deliveryRows(jobs, now);
  // One statement for many jobs (it runs inside the submit transaction: a round trip less per
  // job on PostgreSQL), compiled once per number of rows.
  for (let start = 0; start < rows.length; start += JOBS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + JOBS_PER_STATEMENT);
    await runCompiled(db, `insert-deliveries-${chunk.length}`, () => db.insertInto('svc_deliveries').values(chunk), chunk.flatMap((row) => Object.values(row)));
  }
}

interface ClaimedRow {
  id: number;
  uid: string;
  submission_id: number | null;
  form_id: number;
  kind: string;
  target: string;
  payload: string;
  attempts: number;
  data_key: string | null;
}

/** A claimed job whose payload does not open (its data key was destroyed, or it was altered). */
export interface UnreadableJob {
  readonly id: number;
  readonly uid: string;
  readonly attempts: number;
  readonly kind: string;
}

/**
 * Leases up to `limit` due jobs to the caller until `leaseUntil`, their payloads opened; those
 * that do not open are answered apart, for the caller to dead-letter (no retry can open them).
 */
export async function claimDue(
  db: Kysely<Database>,
  dialect: DialectName,
  limit: number,
  now: string,
  leaseUntil: string,
  sealer: Pick<ValueSealer, 'openJson'>,
): Promise<{ jobs: DeliveryJob[]; unreadable: UnreadableJob[] }> {
  const lock = dialect === 'postgres' ? sql`FOR UPDATE SKIP LOCKED` : sql``;
  const result = await sql<ClaimedRow>`
    UPDATE svc_deliveries SET locked_until = ${leaseUntil}, attempts = attempts + 1, updated_at = ${now}
    WHERE id IN (
      SELECT id FROM svc_deliveries
      WHERE status = 'pending' AND next_attempt_at <= ${now} AND (locked_until IS NULL OR locked_until < ${now})
      ORDER BY next_attempt_at, id
      LIMIT ${limit}
      ${lock}
    )
    RETURNING id, uid, submission_id, form_id, kind, target, payload, attempts, data_key`.execute(db);
  const jobs: DeliveryJob[] = [];
  const unreadable: UnreadableJob[] = [];
  for (const row of result.rows) {
    const submissionId = row.submission_id === null ? null : Number(row.submission_id);
    const target = openTarget(sealer, row);
    const payload = sealer.openJson<DeliveryPayload>(row.data_key, row.payload, PAYLOAD_AAD);
    if (payload === null || target === null) {
      unreadable.push({ id: Number(row.id), uid: row.uid, attempts: Number(row.attempts), kind: row.kind });
      continue;
    }
    jobs.push({
      id: Number(row.id),
      uid: row.uid,
      submissionId,
      formId: Number(row.form_id),
      target,
      // The column is the submission id's source: a batch statement on PostgreSQL writes the
      // payload before its submission has an id (submission-batch-statement.ts).
      payload: submissionId === null ? payload : { ...payload, submission: { ...payload.submission, id: submissionId } },
      attempts: Number(row.attempts),
    });
  }
  return { jobs, unreadable };
}

/**
 * Gives back claimed jobs that were never attempted (a worker stopping, issue #16): no lease, and
 * the attempt the claim counted taken back, so another instance delivers them at once.
 */
export async function releaseClaims(db: Kysely<Database>, ids: readonly number[], now: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('svc_deliveries')
    .set((eb) => ({ locked_until: null, attempts: eb('attempts', '-', 1), updated_at: now }))
    .where('id', 'in', [...ids])
    .where('status', '=', 'pending')
    .execute();
}

export interface AttemptOutcome {
  readonly ok: boolean;
  readonly detail: string | null;
  readonly durationMs: number;
  readonly next: { readonly status: DeliveryStatus; readonly at: string | null };
}

/**
 * Records the attempts of a batch in one transaction: the log rows in one insert, the delivered
 * jobs in one update, failures one by one (they carry their own retry time and error). One write
 * per batch instead of one per job is what lets the worker keep up with submits on SQLite's
 * single writer (issue #11).
 */
export async function recordAttempts(db: Kysely<Database>, batch: readonly { job: Pick<DeliveryJob, 'id' | 'attempts'>; outcome: AttemptOutcome }[], now: string): Promise<void> {
  let results = batch;
  if (results.length === 0) return;
  await db.transaction().execute(async (trx) => {
    // A job deleted while it was delivered (its submission was deleted) has nothing left to record;
    // one such job must not fail the record of the whole batch.
    const present = new Set(
      (await trx.selectFrom('svc_deliveries').select('id').where('id', 'in', results.map((r) => r.job.id)).execute()).map((r) => Number(r.id)),
    );
    results = results.filter((r) => present.has(r.job.id));
    if (results.length === 0) return;
    await trx
      .insertInto('svc_delivery_attempts')
      .values(
        results.map(({ job, outcome }) => ({
          delivery_id: job.id,
          attempt: job.attempts,
          at: now,
          ok: outcome.ok ? 1 : 0,
          detail: outcome.detail,
          duration_ms: outcome.durationMs,
        })),
      )
      .execute();
    const delivered = results.filter((r) => r.outcome.ok).map((r) => r.job.id);
    if (delivered.length > 0) {
      await trx
        .updateTable('svc_deliveries')
        .set({ status: 'delivered', next_attempt_at: now, locked_until: null, last_error: null, updated_at: now, delivered_at: now })
        .where('id', 'in', delivered)
        .execute();
    }
    for (const { job, outcome } of results) {
      if (outcome.ok) continue;
      await trx
        .updateTable('svc_deliveries')
        .set({ status: outcome.next.status, next_attempt_at: outcome.next.at ?? now, locked_until: null, last_error: outcome.detail, updated_at: now, delivered_at: null })
        .where('id', '=', job.id)
        .execute();
    }
  });
}

export async function listDeliveries(db: Kysely<Database>, submissionId: number, sealer: Pick<ValueSealer, 'openJson'>): Promise<DeliveryRecord[]> {
  const rows = await db.selectFrom('svc_deliveries').selectAll().where('submission_id', '=', submissionId).orderBy('id').execute();
  if (rows.length === 0) return [];
  const attempts = await db
    .selectFrom('svc_delivery_attempts')
    .selectAll()
    .where('delivery_id', 'in', rows.map((r) => r.id))
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    uid: row.uid,
    kind: row.kind as DeliveryRecord['kind'],
    destination: describeOpened(sealer, row),
    status: row.status as DeliveryStatus,
    attempts: Number(row.attempts),
    nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
    lastError: row.last_error,
    createdAt: row.created_at,
    deliveredAt: row.delivered_at,
    log: attempts
      .filter((a) => a.delivery_id === row.id)
      .map((a) => ({ attempt: Number(a.attempt), at: a.at, ok: Number(a.ok) === 1, detail: a.detail, durationMs: Number(a.duration_ms) })),
  }));
}

/** Dead-lettered deliveries of some forms, newest first (the owners' dead-letter list, issue #15). */
function describeOpened(sealer: Pick<ValueSealer, 'openJson'>, row: { readonly kind: string; readonly data_key: string | null; readonly target: string }): string {
  const target = openTarget(sealer, row);
  return target ? describeTarget(target) : unreadableDestination(row.kind);
}

export async function listDead(db: Kysely<Database>, formIds: readonly number[], limit: number, sealer: Pick<ValueSealer, 'openJson'>) {
  if (formIds.length === 0) return [];
  const rows = await db
    .selectFrom('svc_deliveries')
    .select(['id', 'form_id', 'submission_id', 'kind', 'target', 'attempts', 'last_error', 'updated_at', 'data_key'])
    .where('status', '=', 'dead')
    .where('form_id', 'in', [...formIds])
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    formId: Number(row.form_id),
    submissionId: row.submission_id === null ? null : Number(row.submission_id),
    kind: row.kind,
    destination: describeOpened(sealer, row),
    attempts: Number(row.attempts),
    lastError: row.last_error,
    deadAt: row.updated_at,
  }));
}

/** Queues a delivery again now, with a fresh set of attempts (the admin's "resend"). */
export async function requeueDelivery(db: Kysely<Database>, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('svc_deliveries')
    .set({ status: 'pending', attempts: 0, next_attempt_at: now, locked_until: null, updated_at: now })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deleting a submission takes its deliveries and their log with it (retention, admin delete). */
export async function deleteForSubmissions(db: Db, submissionIds: readonly number[]): Promise<void> {
  if (submissionIds.length === 0) return;
  const ids = db.selectFrom('svc_deliveries').select('id').where('submission_id', 'in', submissionIds);
  await db.deleteFrom('svc_delivery_attempts').where('delivery_id', 'in', ids).execute();
  await db.deleteFrom('svc_deliveries').where('submission_id', 'in', submissionIds).execute();
}
