/**
 * `svc privacy reindex` (issue #37 item 3): builds the blind index of submissions stored before
 * their fields were marked `personal` (or before the index existed), in batches in id order. Each
 * batch replaces its submissions' index rows in one transaction, so running it again, or from any
 * id (`--after`), is safe: a run cut short resumes from the last id it printed.
 */
import type { Values } from '@svc/core';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import type { FormRegistry } from '../forms/form-registry.js';
import type { BlindIndex } from './privacy-blind-index.js';
import { openSubmissionValues, type ValueSealer } from './privacy-sealer.js';

export interface ReindexOptions {
  /** Start after this submission id (0: from the first). */
  readonly after: number;
  readonly batch: number;
  /** Called after each committed batch with the last id done and the rows written so far. */
  readonly onBatch?: (lastId: number, submissions: number, entries: number) => void;
}

export interface ReindexResult {
  readonly lastId: number;
  readonly submissions: number;
  readonly entries: number;
}

export async function reindexSubmissions(db: Kysely<Database>, sealer: ValueSealer, forms: Pick<FormRegistry, 'list'>, index: BlindIndex, options: ReindexOptions): Promise<ReindexResult> {
  const byId = new Map(forms.list().map((f) => [f.id, f]));
  let lastId = options.after;
  let submissions = 0;
  let entries = 0;
  for (;;) {
    const rows = await db.selectFrom('svc_submissions').select(['id', 'uid', 'form_id', 'title', 'values', 'data_key']).where('id', '>', lastId).orderBy('id').limit(options.batch).execute();
    if (rows.length === 0) break;
    const ids = rows.map((r) => Number(r.id));
    const written = await db.transaction().execute(async (trx) => {
      let count = 0;
      // Replaced, not added to: a field no longer personal, or a value an owner edited, leaves no stale hash.
      await trx.deleteFrom('svc_privacy_index').where('submission_id', 'in', ids).execute();
      for (const row of rows) {
        const form = byId.get(row.form_id);
        if (!form) continue;
        // Values are sealed at rest (issue #37 item 1); a row whose key is gone indexes nothing.
        const found = index.entries(form, openSubmissionValues<Values>(sealer, row) ?? {});
        await index.write(trx, Number(row.id), row.form_id, found);
        count += found.length;
      }
      return count;
    });
    lastId = ids[ids.length - 1] as number;
    submissions += rows.length;
    entries += written;
    options.onBatch?.(lastId, submissions, entries);
    if (rows.length < options.batch) break;
  }
  return { lastId, submissions, entries };
}
