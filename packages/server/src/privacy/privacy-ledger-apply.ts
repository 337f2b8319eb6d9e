/**
 * Applying the erasure ledger (issue #37 item 2): at every start, and so right after `svc restore`
 * (which starts the service once, reading the whole file). An entry of the ledger file whose submission uid is not in this database's
 * `svc_erasures` is an erasure this database has not seen — it was restored from a backup taken
 * before — so the submission's rows, its delivery jobs and its files (rows and stored bytes, by
 * the keys the entry names) are destroyed again, and the entry is recorded.
 *
 * Cheap at a start: `svc_erasure_marks` keeps, per ledger file, how many bytes this database has
 * applied, and only the lines after that are read. The mark lives in the database on purpose: a
 * restore rolls it back with everything else, so exactly the entries written after the backup
 * are read again. `svc restore` clears the marks first, so its start reads the whole file, in case
 * the file was replaced. Rows that a crash left unmirrored (committed, not yet in the file) are written to the
 * file first.
 */
import { open } from 'node:fs/promises';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import type { FileStore } from '../files/file-store.js';
import type { DialectName } from '../storage/database-factory.js';
import { deleteForSubmissions as deleteDeliveries } from '../notifications/outbox-repository.js';
import { shredAuditValues } from '../admin/audit-log.js';
import { appendEntries, chunked, scrubWal, entryRow, parseEntry, parseHeader, type ErasureReason, type LedgerEntry } from './privacy-ledger.js';

export interface LedgerApplyServices {
  readonly db: Kysely<Database>;
  /** The file store the entries' stored bytes are deleted from. */
  readonly store: Pick<FileStore, 'delete'>;
  readonly path: string;
  readonly now: () => Date;
  readonly dialect: DialectName;
  /**
   * What else a deleted submission takes with it, run in the deletion's transaction before the
   * rows go (the report's counts, submissions/report-counts.ts): the composition root's own.
   */
  readonly forget: (trx: Transaction<Database>, ids: readonly number[]) => Promise<void>;
}

export interface LedgerApplyReport {
  /** Rows of `svc_erasures` written to the file now (left by a crash, or before a restore). */
  readonly mirrored: number;
  /** Entries read from the file. */
  readonly read: number;
  /** Entries this database had not seen, erased again. */
  readonly reapplied: number;
  /** Submission rows those entries still found. */
  readonly submissions: number;
}

const BATCH = 500;

/** Writes the rows a crash left out of the file (committed erasures whose append never happened). */
export async function mirrorPending(db: Kysely<Database>, path: string): Promise<number> {
  let mirrored = 0;
  for (;;) {
    const rows = await db.selectFrom('svc_erasures').selectAll().where('mirrored', '=', 0).orderBy('id').limit(BATCH).execute();
    if (rows.length === 0) return mirrored;
    const entries: LedgerEntry[] = rows.map((r) => ({
      uid: r.submission_uid,
      form: Number(r.form_id),
      uploads: JSON.parse(r.uploads) as LedgerEntry['uploads'],
      at: r.erased_at,
      reason: r.reason as ErasureReason,
      receipt: r.receipt,
    }));
    await appendEntries(path, entries);
    await db.updateTable('svc_erasures').set({ mirrored: 1 }).where('id', 'in', rows.map((r) => Number(r.id))).execute();
    mirrored += rows.length;
    if (rows.length < BATCH) return mirrored;
  }
}

/** Applies the ledger file to the database (and the file store); `full` reads it from its start. */
export async function applyErasureLedger(services: LedgerApplyServices, options: { readonly full?: boolean } = {}): Promise<LedgerApplyReport> {
  const { db, path } = services;
  const mirrored = await mirrorPending(db, path);
  let file;
  try {
    file = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { mirrored, read: 0, reapplied: 0, submissions: 0 };
    throw error;
  }
  let read = 0;
  let reapplied = 0;
  let submissions = 0;
  try {
    const lines = readLines(file, 0);
    const first = await lines.next();
    const header = first.done ? null : parseHeader(first.value.line);
    await lines.return(undefined);
    // Refused, not skipped: erasures that cannot be read could bring erased data back.
    if (!header || first.done) throw new Error(`the erasure ledger ${path} does not start with its header line; restore the file or move it away (docs/privacy.md)`);
    const size = (await file.stat()).size;
    const mark = options.full ? 0 : await appliedBytes(db, header.id);
    const start = mark > first.value.end && mark <= size ? mark : first.value.end;
    let end = start;
    let batch: LedgerEntry[] = [];
    const flush = async () => {
      const done = await reapply(services, batch);
      reapplied += done.reapplied;
      submissions += done.submissions;
      batch = [];
    };
    for await (const { line, end: lineEnd } of readLines(file, start)) {
      end = lineEnd;
      const entry = parseEntry(line);
      if (!entry) continue;
      read += 1;
      batch.push(entry);
      if (batch.length >= BATCH) await flush();
    }
    await flush();
    await saveMark(db, header.id, end, services.now());
    if (reapplied > 0) await scrubWal(db, services.dialect);
  } finally {
    await file.close();
  }
  return { mirrored, read, reapplied, submissions };
}

async function appliedBytes(db: Kysely<Database>, ledger: string): Promise<number> {
  const row = await db.selectFrom('svc_erasure_marks').select('applied_bytes').where('ledger', '=', ledger).executeTakeFirst();
  return row ? Number(row.applied_bytes) : 0;
}

async function saveMark(db: Kysely<Database>, ledger: string, bytes: number, now: Date): Promise<void> {
  await db
    .insertInto('svc_erasure_marks')
    .values({ ledger, applied_bytes: bytes, applied_at: now.toISOString() })
    .onConflict((oc) => oc.column('ledger').doUpdateSet({ applied_bytes: bytes, applied_at: now.toISOString() }))
    .execute();
}

/** Erases again the entries of `batch` this database has no record of. */
async function reapply(services: LedgerApplyServices, batch: readonly LedgerEntry[]): Promise<{ reapplied: number; submissions: number }> {
  if (batch.length === 0) return { reapplied: 0, submissions: 0 };
  const { db } = services;
  const seen = new Set((await db.selectFrom('svc_erasures').select('submission_uid').where('submission_uid', 'in', batch.map((e) => e.uid)).execute()).map((r) => r.submission_uid));
  const unseen = [...new Map(batch.filter((e) => !seen.has(e.uid)).map((e) => [e.uid, e])).values()];
  if (unseen.length === 0) return { reapplied: 0, submissions: 0 };
  const rows = await db.selectFrom('svc_submissions').select('id').where('uid', 'in', unseen.map((e) => e.uid)).execute();
  const ids = rows.map((r) => Number(r.id));
  const publicIds = unseen.flatMap((e) => e.uploads.map((u) => u.id));
  const keys = new Set(unseen.flatMap((e) => e.uploads.map((u) => u.key)));
  for (const part of chunked(ids)) {
    for (const f of await db.selectFrom('svc_files').select('storage_key').where('submission_id', 'in', part).execute()) keys.add(f.storage_key);
  }
  // Stored bytes first, as the upload purge does: a row without its bytes is harmless, bytes
  // without a row would never be found again. A failure here leaves the mark where it was, so
  // the next start tries these entries again.
  for (const part of chunked([...keys], 16)) await Promise.all(part.map((key) => services.store.delete(key)));
  // What deleteSubmissions (submissions/submission-deletion.ts) deletes with a submission, in one
  // transaction: its delivery jobs, its edits' values, its report counts, its file rows, the row itself (index rows
  // and notes cascade).
  await db.transaction().execute(async (trx) => {
    for (const part of chunked(ids)) {
      await deleteDeliveries(trx, part);
      // An owner's edit of it keeps its old and new values in the audit log: they go too.
      await shredAuditValues(trx, part);
      await services.forget(trx, part);
      await trx.deleteFrom('svc_files').where('submission_id', 'in', part).execute();
      await trx.deleteFrom('svc_submissions').where('id', 'in', part).execute();
    }
    for (const part of chunked(publicIds)) await trx.deleteFrom('svc_files').where('public_id', 'in', part).execute();
    for (const part of chunked(unseen)) await trx.insertInto('svc_erasures').values(part.map((e) => entryRow(e, 1))).execute();
  });
  return { reapplied: unseen.length, submissions: ids.length };
}

/** Complete lines from byte `start`, each with the offset just past its newline; a torn last line is left. */
async function* readLines(file: Awaited<ReturnType<typeof open>>, start: number): AsyncGenerator<{ line: string; end: number }> {
  const chunk = Buffer.alloc(1 << 20);
  let position = start;
  let pending = Buffer.alloc(0);
  let pendingStart = start;
  for (;;) {
    const { bytesRead } = await file.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    let data = Buffer.concat([pending, chunk.subarray(0, bytesRead)]);
    let offset = pendingStart;
    for (let nl = data.indexOf(10); nl >= 0; nl = data.indexOf(10)) {
      const line = data.subarray(0, nl).toString('utf8');
      offset += nl + 1;
      data = data.subarray(nl + 1);
      if (line.trim().length > 0) yield { line, end: offset };
    }
    pending = Buffer.from(data);
    pendingStart = offset;
  }
}
