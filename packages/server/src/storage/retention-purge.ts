/**
 * Retention (issue #5): submissions older than their form's `settings.purgeAfterDays` (else the
 * global `retention.purgeAfterDays`; null keeps them) are deleted with their files, and spam
 * older than `retention.spamPurgeAfterDays` whatever the form says. Batches keep each delete
 * short, so a first purge of a large backlog never holds a long lock or loads every id at once.
 * Each batch is an erasure (issue #37 item 5: privacy-erasure.ts), recorded in the erasure
 * ledger, so a submission past its retention does not come back with a restored backup either.
 */
import type { Kysely } from 'kysely';
import type { Config } from '../config/config-schema.js';
import type { FormRegistry } from '../forms/form-registry.js';
import type { UploadService } from '../files/upload-service.js';
import type { Database } from './database-schema.js';
import { releaseOrphanedFiles } from '../submissions/submission-deletion.js';
import { eraseSubmissions } from '../privacy/privacy-erasure.js';
import type { ErasureLedger, ErasureReason } from '../privacy/privacy-ledger.js';
import type { ReportCounts } from '../submissions/report-counts.js';

export interface RetentionServices {
  readonly db: Kysely<Database>;
  readonly forms: Pick<FormRegistry, 'get'>;
  readonly uploads: UploadService;
  readonly retention: Config['retention'];
  /** Each purge is an erasure, written in the erasure ledger (issue #37 item 5). */
  readonly ledger: ErasureLedger;
  readonly reportCounts: ReportCounts;
}

export interface RetentionReport {
  /** Submissions past their form's (or the global) retention. */
  readonly submissions: number;
  /** Spam past `retention.spamPurgeAfterDays`. */
  readonly spam: number;
}

const BATCH = 500;
const DAY_MS = 86_400_000;

function cutoff(now: Date, days: number): string {
  return new Date(now.getTime() - days * DAY_MS).toISOString();
}

async function deleteInBatches(services: RetentionServices, reason: ErasureReason, at: Date, select: () => Promise<{ id: number }[]>): Promise<number> {
  let deleted = 0;
  for (;;) {
    const ids = (await select()).map((r) => Number(r.id));
    if (ids.length === 0) return deleted;
    deleted += await eraseSubmissions(services, ids, { reason, at });
    if (ids.length < BATCH) return deleted;
  }
}

/** The retention days of a stored form: its own setting while it is live, else the global one. */
function retentionDays(services: RetentionServices, handle: string): number | null {
  return services.forms.get(handle)?.settings.purgeAfterDays ?? services.retention.purgeAfterDays;
}

export async function purgeRetention(services: RetentionServices, now: Date): Promise<RetentionReport> {
  const { db } = services;
  let spam = 0;
  const spamDays = services.retention.spamPurgeAfterDays;
  if (spamDays !== null) {
    const before = cutoff(now, spamDays);
    spam = await deleteInBatches(services, 'spam-retention', now, () =>
      db.selectFrom('svc_submissions').select('id').where('is_spam', '=', 1).where('created_at', '<', before).orderBy('id').limit(BATCH).execute(),
    );
  }
  let submissions = 0;
  // Every stored form, live or not: a form whose file was removed keeps the global retention.
  for (const form of await db.selectFrom('svc_forms').select(['id', 'handle']).execute()) {
    const days = retentionDays(services, form.handle);
    if (days === null) continue;
    const before = cutoff(now, days);
    submissions += await deleteInBatches(services, 'retention', now, () =>
      db
        .selectFrom('svc_submissions')
        .select('id')
        .where('form_id', '=', form.id)
        .where('created_at', '<', before)
        .orderBy('id')
        .limit(BATCH)
        .execute(),
    );
  }
  await releaseOrphanedFiles(services);
  return { submissions, spam };
}
