/** What the service stored, read straight from its database (values opened: sealed at rest, issue #37). */
import type { SvcApp } from '../../../../server/src/app.js';
import { openSubmissionValues } from '../../../../server/src/privacy/privacy-sealer.js';

export interface StoredSubmission {
  readonly id: number;
  readonly values: Record<string, unknown>;
  readonly isSpam: boolean;
  readonly finished: boolean;
}

export async function storedSubmissions(svc: SvcApp, handle: string): Promise<StoredSubmission[]> {
  const rows = await svc.context.database.db
    .selectFrom('svc_submissions')
    .innerJoin('svc_forms', 'svc_forms.id', 'svc_submissions.form_id')
    .where('svc_forms.handle', '=', handle)
    .select(['svc_submissions.id as id', 'svc_submissions.uid as uid', 'svc_submissions.title as title', 'svc_submissions.data_key as dataKey', 'svc_submissions.values as values', 'svc_submissions.is_spam as isSpam', 'svc_submissions.finished as finished'])
    .orderBy('svc_submissions.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    values: openedValues(svc, row),
    isSpam: row.isSpam === 1,
    finished: row.finished === 1,
  }));
}

function openedValues(svc: SvcApp, row: { id: number; uid: string; title: string; dataKey: string | null; values: string }): Record<string, unknown> {
  const values = openSubmissionValues<Record<string, unknown>>(svc.context.sealer, { uid: row.uid, title: row.title, values: row.values, data_key: row.dataKey });
  if (values === null) throw new Error(`submission ${row.id}: its values do not open`);
  return values;
}

/** The submission of `handle` whose `field` holds `value`, if one is stored. */
export async function storedSubmissionWith(svc: SvcApp, handle: string, field: string, value: unknown): Promise<StoredSubmission | undefined> {
  return (await storedSubmissions(svc, handle)).find((row) => row.values[field] === value);
}

export async function storedFiles(svc: SvcApp, submissionId: number) {
  return svc.context.database.db
    .selectFrom('svc_files')
    .select(['field_handle', 'name', 'extension', 'kind', 'mime', 'size', 'submission_id'])
    .where('submission_id', '=', submissionId)
    .orderBy('field_handle')
    .execute();
}

export async function draftCount(svc: SvcApp): Promise<number> {
  const row = await svc.context.database.db.selectFrom('svc_drafts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
