/**
 * Recounting a form's report from its rows (issue #35 item 6): the backfill of an installation
 * older than the report counts, and the repair after a form's reported fields change (a field
 * added, removed or turned into a list), since the counts of a field are kept only while it is
 * reported. svc_report_forms records the fields each form was counted for; boot and every forms
 * reload recount the forms whose fields differ, and nothing else.
 *
 * A form is recounted in one transaction that no submission write of that table can interleave
 * with (SQLite: the one writer; PostgreSQL: a lock that lets reads through but makes writers and a
 * second instance's recount wait), so the counts it writes are exactly its rows' and a recount cut
 * short leaves the old counts and runs again at the next boot. Values are read through the same
 * reader the deletes use (ReportCounts.readValues), so the recount opens sealed values the way
 * the rest of svc does.
 */
import type { Form } from '@svc/core';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import type { DialectName } from '../storage/database-factory.js';
import { ReportTally, reportedFields, writeReportTally, type ReportCounts } from './report-counts.js';

/** Rows read per query: the values of 5,000 rows are a few MB at most. */
const PAGE = 5000;

/** What a form's counts were kept for: its reported fields' handles and kinds, as JSON. */
export function reportFingerprint(form: Form): string {
  return JSON.stringify(reportedFields(form).map((f) => [f.handle, f.list]));
}

/**
 * Recounts `form` unless its counts are already for its present fields (or `force`); answers the
 * number of rows read, or null when nothing needed doing.
 */
export async function recountForm(db: Kysely<Database>, dialect: DialectName, counts: ReportCounts, form: Form, now: Date, force = false): Promise<number | null> {
  const fingerprint = reportFingerprint(form);
  return db.transaction().execute(async (trx) => {
    // SHARE ROW EXCLUSIVE conflicts with every row write and with itself, not with reads.
    if (dialect === 'postgres') await sql`LOCK TABLE svc_submissions IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
    const kept = await trx.selectFrom('svc_report_forms').select('fields').where('form_id', '=', form.id).executeTakeFirst();
    if (!force && kept?.fields === fingerprint) return null;
    await trx.deleteFrom('svc_report_counts').where('form_id', '=', form.id).execute();
    await trx.deleteFrom('svc_report_answers').where('form_id', '=', form.id).execute();
    await trx.deleteFrom('svc_report_count_days').where('form_id', '=', form.id).execute();
    await trx.deleteFrom('svc_report_answer_days').where('form_id', '=', form.id).execute();
    const fields = reportedFields(form);
    const tally = new ReportTally();
    let read = 0;
    for (let after = 0; ; ) {
      const rows = await trx
        .selectFrom('svc_submissions')
        .select(['id', 'uid', 'created_at', 'status', 'is_spam', 'title', 'values', 'data_key'])
        .where('form_id', '=', form.id)
        .where('id', '>', after)
        .orderBy('id')
        .limit(PAGE)
        .execute();
      for (const row of rows) {
        const isSpam = Number(row.is_spam) === 1;
        tally.add(fields, { formId: form.id, createdAt: row.created_at, status: row.status, isSpam, values: isSpam ? null : counts.readValues(row) }, 1);
      }
      read += rows.length;
      if (rows.length < PAGE) break;
      after = Number((rows[rows.length - 1] as { id: number }).id);
    }
    await writeReportTally(trx, tally);
    const at = now.toISOString();
    await trx
      .insertInto('svc_report_forms')
      .values({ form_id: form.id, fields: fingerprint, counted_at: at })
      .onConflict((oc) => oc.column('form_id').doUpdateSet({ fields: fingerprint, counted_at: at }))
      .execute();
    return read;
  });
}

export interface RecountLog {
  info(details: Record<string, unknown>, message: string): void;
}

/**
 * Recounts every form whose counts are missing or for other fields; logs each one it recounts.
 * The records are read first, without a lock, so a start with nothing to recount takes none.
 */
export async function recountChangedForms(db: Kysely<Database>, dialect: DialectName, counts: ReportCounts, forms: readonly Form[], now: () => Date, log: RecountLog): Promise<void> {
  const kept = new Map((await db.selectFrom('svc_report_forms').select(['form_id', 'fields']).execute()).map((r) => [Number(r.form_id), r.fields]));
  for (const form of forms) {
    if (kept.get(form.id) === reportFingerprint(form)) continue;
    const started = Date.now();
    const read = await recountForm(db, dialect, counts, form, now());
    if (read !== null) log.info({ form: form.handle, rows: read, ms: Date.now() - started }, 'report counts recounted from the stored submissions');
  }
}
