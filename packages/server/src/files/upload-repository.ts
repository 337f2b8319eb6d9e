/** Rows of `svc_files` (contract §7): one per stored upload, attached or not. */
import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { Database, FilesTable } from '../storage/database-schema.js';
import type { DialectName } from '../storage/database-factory.js';
import { runCompiled } from '../storage/compiled-queries.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface UploadRow {
  readonly publicId: string;
  readonly formId: number;
  readonly fieldHandle: string;
  readonly columnIndex: number | null;
  readonly storageKey: string;
  readonly name: string;
  readonly extension: string;
  readonly mime: string;
  readonly kind: string;
  readonly size: number;
  readonly submissionId: number | null;
  /** The wrapped data key the stored bytes are sealed under (issue #37); null = stored plain. */
  readonly dataKey: string | null;
}

function toRow(row: Pick<FilesTable, (typeof COLUMNS)[number]>): UploadRow {
  return {
    publicId: row.public_id,
    formId: row.form_id,
    fieldHandle: row.field_handle,
    columnIndex: row.column_index,
    storageKey: row.storage_key,
    name: row.name,
    extension: row.extension,
    mime: row.mime,
    kind: row.kind,
    size: Number(row.size),
    submissionId: row.submission_id,
    dataKey: row.data_key,
  };
}

const COLUMNS = ['public_id', 'form_id', 'field_handle', 'column_index', 'storage_key', 'name', 'extension', 'mime', 'kind', 'size', 'submission_id', 'data_key'] as const;

/** Who may claim an upload: its upload token's holder, and (drag and drop) the browser that sent it. */
export interface UploadOwner {
  /** SHA-256 of the upload token (or of a per-request secret for a multipart submit). */
  readonly ownerHash: string;
  /** SHA-256 of the browser's binding cookie, when it had one. */
  readonly bindingHash: string | null;
}

export async function insertUpload(db: Db, row: Omit<UploadRow, 'submissionId'> & UploadOwner & { createdAt: string }): Promise<void> {
  const values: Insertable<FilesTable> = {
    public_id: row.publicId,
    form_id: row.formId,
    field_handle: row.fieldHandle,
    column_index: row.columnIndex,
    owner_hash: row.ownerHash,
    binding_hash: row.bindingHash,
    storage_key: row.storageKey,
    name: row.name,
    extension: row.extension,
    mime: row.mime,
    kind: row.kind,
    size: row.size,
    submission_id: null,
    hold_until: null,
    created_at: row.createdAt,
    data_key: row.dataKey,
  };
  await runCompiled(db, 'insert-upload', () => db.insertInto('svc_files').values(values), Object.values(values));
}

/**
 * Inserts the upload unless its owner already holds `maxCount` unattached uploads of the field,
 * and says whether it did. Count and insert are one step: on SQLite the one writer runs the
 * transaction alone; on PostgreSQL a transaction lock on the owner makes a second upload of the
 * same token wait for the first one's commit, so two racing uploads never both pass the count.
 */
export async function insertUploadWithin(
  trx: Transaction<Database>,
  dialect: DialectName,
  row: Parameters<typeof insertUpload>[1],
  maxCount: number,
): Promise<boolean> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtextextended(${row.ownerHash}, 0))`.execute(trx);
  if ((await countOwned(trx, row.formId, row.fieldHandle, row.ownerHash)) >= maxCount) return false;
  await insertUpload(trx, row);
  return true;
}

/** Unattached uploads of one form among `ids` (chunked: ids come from one submission, so few). */
export async function findUnattached(db: Db, formId: number, ids: readonly string[], owner?: Partial<UploadOwner>): Promise<UploadRow[]> {
  if (ids.length === 0) return [];
  let query = db
    .selectFrom('svc_files')
    .select(COLUMNS)
    .where('form_id', '=', formId)
    .where('public_id', 'in', ids)
    .where('submission_id', 'is', null);
  if (owner?.ownerHash) query = query.where('owner_hash', '=', owner.ownerHash);
  if (owner?.bindingHash) query = query.where('binding_hash', '=', owner.bindingHash);
  return (await query.execute()).map(toRow);
}

export async function countOwned(db: Db, formId: number, fieldHandle: string, ownerHash: string): Promise<number> {
  const build = () =>
    db
      .selectFrom('svc_files')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('owner_hash', '=', ownerHash)
      .where('form_id', '=', formId)
      .where('field_handle', '=', fieldHandle)
      .where('submission_id', 'is', null);
  // Runs with every drag-and-drop upload: compiled once, parameters in where order.
  const { rows } = await runCompiled(db, 'count-owned-uploads', build, [ownerHash, formId, fieldHandle]);
  return Number(rows[0]?.n ?? 0);
}

/** The one unattached upload `id` of this form, field and owner, removed; null when there is none. */
export async function takeOwned(db: Db, formId: number, fieldHandle: string, id: string, ownerHash: string): Promise<UploadRow | null> {
  const row = await db
    .deleteFrom('svc_files')
    .where('public_id', '=', id)
    .where('owner_hash', '=', ownerHash)
    .where('form_id', '=', formId)
    .where('field_handle', '=', fieldHandle)
    .where('submission_id', 'is', null)
    .returning(COLUMNS)
    .executeTakeFirst();
  return row ? toRow(row) : null;
}

/** Claims unattached uploads for a submission; returns how many were claimed. */
export async function attachUploads(db: Db, submissionId: number, formId: number, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .updateTable('svc_files')
    .set({ submission_id: submissionId, hold_until: null })
    .where('form_id', '=', formId)
    .where('public_id', 'in', ids)
    .where('submission_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Keeps unattached uploads at least until `until` (a draft refers to them). */
export async function holdUploads(db: Db, formId: number, ids: readonly string[], until: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('svc_files')
    .set({ hold_until: until })
    .where('form_id', '=', formId)
    .where('public_id', 'in', ids)
    .where('submission_id', 'is', null)
    .where((eb) => eb.or([eb('hold_until', 'is', null), eb('hold_until', '<', until)]))
    .execute();
}

export async function listForSubmissions(db: Db, submissionIds: readonly number[]): Promise<UploadRow[]> {
  if (submissionIds.length === 0) return [];
  const rows = await db.selectFrom('svc_files').select(COLUMNS).where('submission_id', 'in', submissionIds).orderBy('id').execute();
  return rows.map(toRow);
}

/** Unattached uploads created before `before` whose hold (if any) has passed. */
export async function findExpired(db: Db, before: string, now: string, limit: number): Promise<{ publicId: string; storageKey: string }[]> {
  const rows = await db
    .selectFrom('svc_files')
    .select(['public_id', 'storage_key'])
    .where('submission_id', 'is', null)
    .where('created_at', '<', before)
    .where((eb) => eb.or([eb('hold_until', 'is', null), eb('hold_until', '<', now)]))
    // Oldest first in the order of the index (submission_id, created_at), so a batch stops after
    // `limit` rows instead of sorting every expired upload first.
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ publicId: r.public_id, storageKey: r.storage_key }));
}

export async function deleteRows(db: Db, publicIds: readonly string[]): Promise<void> {
  if (publicIds.length === 0) return;
  await db.deleteFrom('svc_files').where('public_id', 'in', publicIds).execute();
}

/** Detaches a deleted submission's files: they become unattached and past their hold, so purged. */
export async function releaseForSubmissions(db: Db, submissionIds: readonly number[]): Promise<void> {
  if (submissionIds.length === 0) return;
  await db
    .updateTable('svc_files')
    // No owner either: a released file can never be claimed again, only purged.
    .set({ submission_id: null, hold_until: null, owner_hash: 'released', created_at: '1970-01-01T00:00:00.000Z' })
    .where('submission_id', 'in', submissionIds)
    .execute();
}
