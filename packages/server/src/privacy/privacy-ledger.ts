/**
 * The erasure ledger (issue #37 item 2). Shredding a submission destroys its wrapped data key with
 * its row, but a backup taken before still holds both; so every erasure is also written down —
 * which submission (uid), which uploads (public ids, storage keys), when, why and the receipt,
 * never a value — twice: in `svc_erasures`, in the erasure's own transaction, and in an
 * append-only file outside the database (`privacy.erasureLedger`). The file is what a restore of
 * an older database cannot roll back; privacy-ledger-apply.ts erases its entries again.
 *
 * The file is JSON lines: a header `{"ledger":"svc-erasures","v":1,"id":…}` naming the file (a
 * database's high-water mark is kept per file id), then one entry per erased submission.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { DialectName } from '../storage/database-factory.js';
import type { Database, ErasuresTable } from '../storage/database-schema.js';

/** Why a submission went: a data request, an owner's delete, or a retention purge. */
export type ErasureReason = 'erase' | 'delete' | 'retention' | 'spam-retention';

export interface LedgerUpload {
  /** The upload id clients saw. */
  readonly id: string;
  /** Its key in the file store. */
  readonly key: string;
}

export interface LedgerEntry {
  readonly uid: string;
  readonly form: number;
  readonly uploads: readonly LedgerUpload[];
  readonly at: string;
  readonly reason: ErasureReason;
  readonly receipt: string | null;
}

export interface LedgerHeader {
  readonly ledger: 'svc-erasures';
  readonly v: 1;
  readonly id: string;
}

type Db = Kysely<Database> | Transaction<Database>;

/** Whatever hears that the file could not be written (the next start mirrors the entries then). */
export interface LedgerLog {
  warn(details: object, message: string): void;
}

export interface ErasureLedger {
  readonly path: string;
  /** What `ids` are (uid, form, uploads), read before they go. */
  describe(db: Db, ids: readonly number[], reason: ErasureReason, at: Date, receipt?: string | null): Promise<LedgerEntry[]>;
  /** The entries' rows, in the erasure's transaction. */
  record(trx: Transaction<Database>, entries: readonly LedgerEntry[]): Promise<void>;
  /**
   * Appends the entries to the file (flushed to disk) and marks their rows mirrored. A failure is
   * logged, not thrown: the erasure itself has committed, and the next start mirrors the rows.
   */
  mirror(entries: readonly LedgerEntry[]): Promise<void>;
}

export interface ErasureLedgerOptions {
  readonly db: Kysely<Database>;
  readonly path: string;
  readonly log: LedgerLog;
  /** On SQLite the write-ahead log is emptied after an erasure (scrubWal). */
  readonly dialect: DialectName;
}

/** Chunks below both dialects' bound-parameter limits (7 columns a row). */
const CHUNK = 500;

export function chunked<T>(items: readonly T[], size = CHUNK): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_v, i) => items.slice(i * size, (i + 1) * size));
}

export function createErasureLedger(options: ErasureLedgerOptions): ErasureLedger {
  const { db, path, log, dialect } = options;
  return {
    path,
    async describe(from, ids, reason, at, receipt = null) {
      const entries: LedgerEntry[] = [];
      for (const part of chunked(ids)) {
        const rows = await from.selectFrom('svc_submissions').select(['id', 'uid', 'form_id']).where('id', 'in', part).orderBy('id').execute();
        const files = await from.selectFrom('svc_files').select(['submission_id', 'public_id', 'storage_key']).where('submission_id', 'in', part).orderBy('id').execute();
        for (const row of rows) {
          const uploads = files.filter((f) => Number(f.submission_id) === Number(row.id)).map((f) => ({ id: f.public_id, key: f.storage_key }));
          entries.push({ uid: row.uid, form: Number(row.form_id), uploads, at: at.toISOString(), reason, receipt });
        }
      }
      return entries;
    },
    async record(trx, entries) {
      for (const part of chunked(entries)) {
        if (part.length > 0) await trx.insertInto('svc_erasures').values(part.map((e) => entryRow(e, 0))).execute();
      }
    },
    async mirror(entries) {
      if (entries.length === 0) return;
      try {
        await appendEntries(path, entries);
        for (const part of chunked(entries)) {
          await db.updateTable('svc_erasures').set({ mirrored: 1 }).where('submission_uid', 'in', part.map((e) => e.uid)).execute();
        }
      } catch (error) {
        log.warn({ err: error, ledger: path, entries: entries.length }, 'could not write the erasure ledger file; the next start writes these entries');
      }
      if (!(await scrubWal(db, dialect))) log.warn({ entries: entries.length }, 'the write-ahead log could not be emptied after an erasure; the next checkpoints overwrite it');
    },
  };
}

/**
 * SQLite keeps the pages a transaction replaced in its write-ahead log until later frames happen
 * to overwrite them: the rows an erasure deleted, wrapped data keys included, would stay readable
 * there. A TRUNCATE checkpoint copies the log into the database (where secure_delete zeroed
 * them) and empties it. False when readers kept it from finishing (busy); PostgreSQL: nothing to do
 * here (its dead tuples go at VACUUM, docs/privacy.md).
 */
export async function scrubWal(db: Kysely<Database>, dialect: DialectName): Promise<boolean> {
  if (dialect !== 'sqlite') return true;
  // Busy is usually brief: the checkpointer's own passive checkpoint (storage/sqlite-checkpointer.ts,
  // another connection) or an export's read. An erasure is rare, so it waits a little and tries
  // again rather than leave the keys in the log until later writes overwrite them.
  for (let attempt = 1; ; attempt += 1) {
    const { rows } = await sql<{ busy: number }>`pragma wal_checkpoint(TRUNCATE)`.execute(db);
    if (Number(rows[0]?.busy ?? 0) === 0) return true;
    if (attempt >= SCRUB_ATTEMPTS) return false;
    await new Promise((resolve) => setTimeout(resolve, SCRUB_PAUSE_MS));
  }
}

/** At most about a second of trying (the checkpointer's tick is far shorter). */
const SCRUB_ATTEMPTS = 40;
const SCRUB_PAUSE_MS = 25;

/** The `svc_erasures` row of an entry. */
export function entryRow(entry: LedgerEntry, mirrored: 0 | 1): Insertable<ErasuresTable> {
  return {
    submission_uid: entry.uid,
    form_id: entry.form,
    uploads: JSON.stringify(entry.uploads),
    reason: entry.reason,
    receipt: entry.receipt,
    erased_at: entry.at,
    mirrored,
  };
}

/**
 * Appends whole lines with one write under O_APPEND (instances sharing the file never interleave
 * inside a line) and syncs before answering: an entry the caller was told about is on disk. A new
 * file gets its header first; two writers creating it at once both see one header (`wx`).
 */
export async function appendEntries(path: string, entries: readonly LedgerEntry[]): Promise<void> {
  await ensureLedger(path);
  const file = await open(path, 'a');
  try {
    await file.write(entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
    await file.datasync();
  } finally {
    await file.close();
  }
}

/** Creates the file with its header when there is none. */
export async function ensureLedger(path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const header: LedgerHeader = { ledger: 'svc-erasures', v: 1, id: randomUUID() };
  try {
    const file = await open(path, 'wx', 0o600);
    try {
      await file.write(`${JSON.stringify(header)}\n`);
      await file.datasync();
    } finally {
      await file.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** A parsed ledger line, or null for anything else (a torn or foreign line is skipped, not fatal). */
export function parseEntry(line: string): LedgerEntry | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const e = value as Record<string, unknown>;
  if (typeof e.uid !== 'string' || typeof e.form !== 'number' || typeof e.at !== 'string' || !Array.isArray(e.uploads)) return null;
  const uploads = e.uploads.filter((u): u is LedgerUpload => !!u && typeof u === 'object' && typeof (u as LedgerUpload).id === 'string' && typeof (u as LedgerUpload).key === 'string');
  const reason = ['erase', 'delete', 'retention', 'spam-retention'].includes(e.reason as string) ? (e.reason as ErasureReason) : 'erase';
  return { uid: e.uid, form: e.form, uploads, at: e.at, reason, receipt: typeof e.receipt === 'string' ? e.receipt : null };
}

/** The header of a ledger line, or null. */
export function parseHeader(line: string): LedgerHeader | null {
  try {
    const value = JSON.parse(line) as Partial<LedgerHeader>;
    return value && value.ledger === 'svc-erasures' && typeof value.id === 'string' ? (value as LedgerHeader) : null;
  } catch {
    return null;
  }
}
