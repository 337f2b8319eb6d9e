/**
 * The one way submissions are deleted (admin API, retention purge): rows (with their delivery
 * jobs) first, then their files.
 * If the file store fails, the released files are past their hold and the purge removes them
 * later; deleting files first could lose them for a submission whose row then failed to go.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import type { UploadService } from '../files/upload-service.js';
import { deleteForSubmissions as deleteDeliveries } from '../notifications/outbox-repository.js';
import { forgetSubmissions, type ReportCounts } from './report-counts.js';
import { shredAuditValues } from '../admin/audit-log.js';

const DELETE_CHUNK = 1000;

export interface DeletionServices {
  readonly db: Kysely<Database>;
  readonly uploads: UploadService;
  /** Takes deleted submissions out of their forms' report counts (issue #35 item 6). */
  readonly reportCounts: ReportCounts;
}

/**
 * Deletes the submissions `ids` and their files; returns how many rows went. `within` runs in the
 * rows' transaction after they went (an owner's delete writes its audit row there, issue #15).
 */
export async function deleteSubmissions(
  services: DeletionServices,
  ids: readonly number[],
  within?: (trx: Transaction<Database>) => Promise<void>,
): Promise<number> {
  if (ids.length === 0) return 0;
  // The delivery jobs go with the row, in one transaction: a pending job must never send the
  // data of a submission that was deleted.
  // In chunks (a bulk delete is up to 10,000 ids, issue #35): statements stay far below either
  // dialect's limit on bound parameters, and all of them still commit or roll back together.
  const parts = Array.from({ length: Math.ceil(ids.length / DELETE_CHUNK) }, (_v, i) => ids.slice(i * DELETE_CHUNK, (i + 1) * DELETE_CHUNK));
  const deleted = await services.db.transaction().execute(async (trx) => {
    let rows = 0;
    for (const part of parts) {
      await deleteDeliveries(trx, part);
      // An edit's old and new values in the audit log go with the row (issue #37).
      await shredAuditValues(trx, part);
      // Read before they go: the report's counts lose what these rows added (issue #35 item 6).
      await forgetSubmissions(trx, services.reportCounts, part);
      const result = await trx.deleteFrom('svc_submissions').where('id', 'in', part).executeTakeFirst();
      rows += Number(result.numDeletedRows);
    }
    await within?.(trx);
    return rows;
  });
  for (const part of parts) await services.uploads.deleteForSubmissions(part);
  return deleted;
}

/**
 * Files still pointing at a submission that is gone (a crash between the two steps above) are
 * released like any other, so they are never kept forever.
 */
export async function releaseOrphanedFiles(services: DeletionServices, batch = 500): Promise<number> {
  const rows = await services.db
    .selectFrom('svc_files as f')
    .select('f.submission_id')
    .distinct()
    .where('f.submission_id', 'is not', null)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('svc_submissions as s').select('s.id').whereRef('s.id', '=', 'f.submission_id'))),
    )
    .limit(batch)
    .execute();
  const ids = rows.map((r) => Number(r.submission_id));
  return ids.length === 0 ? 0 : services.uploads.deleteForSubmissions(ids);
}
