/** Reads of submission notes (issue #35), below the services that check keys (admin-notes-service.ts). */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../storage/database-schema.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface SubmissionNote {
  readonly id: number;
  /** `user:<name>` or `key:<name>`, as the audit log names who acted. */
  readonly author: string;
  readonly createdAt: string;
  readonly text: string;
}

/** The notes of each of `submissionIds`, oldest first (exports read them a batch at a time). */
export async function notesFor(db: Db, submissionIds: readonly number[]): Promise<Map<number, SubmissionNote[]>> {
  const out = new Map<number, SubmissionNote[]>();
  if (submissionIds.length === 0) return out;
  const rows = await db
    .selectFrom('svc_submission_notes')
    .select(['id', 'submission_id', 'author', 'created_at', 'text'])
    .where('submission_id', 'in', submissionIds)
    .orderBy('submission_id')
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const list = out.get(Number(row.submission_id)) ?? [];
    list.push({ id: Number(row.id), author: row.author, createdAt: row.created_at, text: row.text });
    out.set(Number(row.submission_id), list);
  }
  return out;
}

/** Whether any submission of a form has a note: its CSV then has a `notes` column. */
export async function formHasNotes(db: Db, formId: number): Promise<boolean> {
  const row = await db
    .selectFrom('svc_submission_notes as n')
    .innerJoin('svc_submissions as s', 's.id', 'n.submission_id')
    .select('n.id')
    .where('s.form_id', '=', formId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
