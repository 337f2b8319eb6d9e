/** Site-owner reads and writes of stored submissions: counts per form, one by id, status and spam updates. */
import { sql } from 'kysely';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import { toRecord, type SubmissionRecord, type SubmissionSource } from './submission-search.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface FormCounts {
  readonly total: number;
  readonly spam: number;
  /** Submissions that are not spam, per status handle. */
  readonly byStatus: Readonly<Record<string, number>>;
}

/** Counts for every form id in `formIds`, from one grouped query. */
export async function countByForm(db: Db, formIds: readonly number[]): Promise<Map<number, FormCounts>> {
  const out = new Map<number, { total: number; spam: number; byStatus: Record<string, number> }>();
  for (const id of formIds) out.set(id, { total: 0, spam: 0, byStatus: {} });
  if (formIds.length === 0) return out;
  const rows = await db
    .selectFrom('svc_submissions')
    .select(['form_id', 'status', 'is_spam', (eb) => eb.fn.countAll<string | number>().as('n')])
    .where('form_id', 'in', formIds)
    .groupBy(['form_id', 'status', 'is_spam'])
    .execute();
  for (const row of rows) {
    const counts = out.get(Number(row.form_id));
    if (!counts) continue;
    const n = Number(row.n);
    counts.total += n;
    if (Number(row.is_spam) === 1) counts.spam += n;
    else counts.byStatus[row.status] = (counts.byStatus[row.status] ?? 0) + n;
  }
  return out;
}

/** One submission with the handle of its form (which may no longer be live). */
export async function findWithFormHandle(source: SubmissionSource, id: number): Promise<{ submission: SubmissionRecord; formHandle: string; revision: number; dataKey: string | null } | undefined> {
  const row = await source.db
    .selectFrom('svc_submissions as s')
    .innerJoin('svc_forms as f', 'f.id', 's.form_id')
    .select(['s.id', 's.uid', 's.form_id', 's.title', 's.status', 's.is_spam', 's.spam_reasons', 's.values', 's.created_at', 's.updated_at', 's.client', 's.profile', 's.site', 's.revision', 's.data_key', 'f.handle'])
    .where('s.id', '=', id)
    .executeTakeFirst();
  // The revision counts owners' edits (issue #35); an edit writes only over the revision it read.
  // The data key too: an edit re-seals the values under the row's own key (issue #37).
  return row ? { submission: toRecord(source.sealer, row), formHandle: row.handle, revision: Number(row.revision), dataKey: row.data_key } : undefined;
}

export async function updateSubmissionState(db: Db, id: number, change: { status?: string; isSpam?: boolean }, updatedAt: string): Promise<void> {
  await db
    .updateTable('svc_submissions')
    .set({
      ...(change.status !== undefined ? { status: change.status } : {}),
      ...(change.isSpam !== undefined ? { is_spam: change.isSpam ? 1 : 0 } : {}),
      updated_at: updatedAt,
    })
    .where('id', '=', id)
    .execute();
}

/** Number of files attached to each of `submissionIds`. */
export async function countFiles(db: Db, submissionIds: readonly number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (submissionIds.length === 0) return out;
  const rows = await db
    .selectFrom('svc_files')
    .select(['submission_id', (eb) => eb.fn.countAll<string | number>().as('n')])
    .where('submission_id', 'in', submissionIds)
    .groupBy('submission_id')
    .execute();
  for (const row of rows) out.set(Number(row.submission_id), Number(row.n));
  return out;
}

/** A stored file that belongs to a submission (released or unclaimed uploads are not served). */
export async function findAttachedFile(db: Db, publicId: string) {
  return db
    .selectFrom('svc_files')
    .select(['public_id', 'storage_key', 'name', 'mime', 'size', 'data_key'])
    .where('public_id', '=', publicId)
    .where('submission_id', 'is not', null)
    .executeTakeFirst();
}

/** Per form: the newest submission's time, and clean and spam counts per UTC day since `since` (ISO). */
export async function activityByForm(
  db: Db,
  formIds: readonly number[],
  since: string,
): Promise<Map<number, { last: string | null; days: Map<string, { clean: number; spam: number }> }>> {
  const out = new Map<number, { last: string | null; days: Map<string, { clean: number; spam: number }> }>();
  for (const id of formIds) out.set(id, { last: null, days: new Map() });
  if (formIds.length === 0) return out;
  const lasts = await db.selectFrom('svc_submissions').select(['form_id', (eb) => eb.fn.max('created_at').as('last')]).where('form_id', 'in', formIds).groupBy('form_id').execute();
  for (const row of lasts) {
    const entry = out.get(Number(row.form_id));
    if (entry) entry.last = row.last === null ? null : String(row.last);
  }
  // created_at is ISO text on both dialects, so its first ten characters are the UTC day.
  const days = await db
    .selectFrom('svc_submissions')
    .select(['form_id', 'is_spam', sql<string>`substr(created_at, 1, 10)`.as('day'), (eb) => eb.fn.countAll<string | number>().as('n')])
    .where('form_id', 'in', formIds)
    .where('created_at', '>=', since)
    .groupBy(['form_id', 'is_spam', sql`substr(created_at, 1, 10)`])
    .execute();
  for (const row of days) {
    const entry = out.get(Number(row.form_id))?.days;
    if (!entry) continue;
    const day = entry.get(row.day) ?? { clean: 0, spam: 0 };
    if (Number(row.is_spam) === 1) day.spam += Number(row.n);
    else day.clean += Number(row.n);
    entry.set(row.day, day);
  }
  return out;
}
