/**
 * Uploads (contract §7) as one service for every transport: the drag-and-drop routes and the
 * multipart submit receive through it, the submit pipeline checks ownership and attaches through
 * it, and the purge and submission deletion remove through it. Bytes go to the FileStore under a
 * server-chosen key; the client's name is kept only as metadata.
 */
import { mkdir, open as openFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { DEFAULT_FILE_COUNT, FIELD_MESSAGES, type Form } from '@svc/core';
import type { Kysely, Transaction } from 'kysely';
import type { WriteBatcher } from '../storage/write-batcher.js';
import type { Database } from '../storage/database-schema.js';
import type { DialectName } from '../storage/database-factory.js';
import { randomHex, timeOrderedToken } from '../security/token-crypto.js';
import type { FileStore } from './file-store.js';
import { FILE_KINDS, type FileKind, type Sniffed } from './file-kinds.js';
import { spoolUpload, type Refusal, type SpoolTarget, type UploadRules } from './upload-receiver.js';
import { intoStore, isDiskFailure, storageUnavailable } from './storage-failure.js';
import { createChunkSealer, openSealedStream, sealedSize } from './upload-sealing.js';
import type { ValueSealer } from '../privacy/privacy-sealer.js';
import * as repo from './upload-repository.js';
import type { UploadOwner, UploadRow } from './upload-repository.js';

export interface UploadTarget {
  readonly handle: string;
  /** Column of a table field's `file` cells; null for a file field. */
  readonly column: number | null;
  readonly rules: UploadRules;
  readonly maxCount: number;
}

export interface UploadInfo {
  readonly id: string;
  readonly name: string;
  readonly extension: string;
  readonly size: number;
  readonly kind: FileKind;
  /** SHA-256 of the content (hex), when asked for: what an idempotent retry of a multipart submit compares. */
  readonly sha256: string | null;
}

/** Why an upload was not stored: a rule of the file itself, or (`too_many`) its owner's count. */
export type UploadRefusal = Refusal | 'too_many';

export type Received = { readonly ok: true; readonly upload: UploadInfo } | { readonly ok: false; readonly refusal: UploadRefusal; readonly message: string };

export interface ReceiveOptions {
  /** Also return the file's SHA-256 (what an idempotent retry of a multipart submit compares). */
  readonly digest?: boolean;
  /**
   * Store it only while its owner holds fewer than the target's `maxCount` unattached uploads of
   * the field (drag and drop, where one upload token collects files request by request).
   */
  readonly countOwned?: boolean;
}

export interface UploadService {
  readonly store: FileStore;
  /** The rules for files of `handle` (and `column` of a table), or null when it takes no files. */
  target(form: Form, handle: string, column: number | null): UploadTarget | null;
  /** Reads the stream to its end and stores the file, or says why it was refused. */
  receive(form: Form, target: UploadTarget, file: { stream: Readable; filename: string }, owner: UploadOwner, options?: ReceiveOptions): Promise<Received>;
  /** Deletes an unattached upload of this owner; false when there is none. */
  delete(form: Form, handle: string, id: string, ownerHash: string): Promise<boolean>;
  /** Unattached uploads of this form among `ids`, optionally of one upload token or browser only. */
  unattached(form: Form, ids: readonly string[], owner?: Partial<UploadOwner>): Promise<Map<string, UploadRow>>;
  attach(db: Kysely<Database> | Transaction<Database>, submissionId: number, form: Form, ids: readonly string[]): Promise<number>;
  /** Keeps uploads a draft refers to until the draft expires. */
  hold(form: Form, ids: readonly string[], until: Date): Promise<void>;
  listForSubmissions(submissionIds: readonly number[]): Promise<UploadRow[]>;
  /**
   * A stored file's plain bytes (every read goes through here: downloads, the privacy export),
   * opened under the upload's data key; a file stored before sealing (no key) is read as it is.
   * Null when the bytes are gone or the key is (an erased submission's file).
   */
  read(file: { readonly storageKey: string; readonly dataKey: string | null }): Promise<Readable | null>;
  /** Deletes unattached uploads older than `files.unattachedHours` (and past any hold). */
  purgeUnattached(now: Date): Promise<number>;
  /** Removes the files of submissions being deleted (rows first, then blobs; the purge retries). */
  deleteForSubmissions(submissionIds: readonly number[]): Promise<number>;
}

export interface UploadServiceOptions {
  readonly db: Kysely<Database>;
  readonly dialect: DialectName;
  /** The upload's row is written in a shared (group-commit) transaction with concurrent writes. */
  readonly writes: WriteBatcher;
  readonly store: FileStore;
  readonly tmpDir: string;
  readonly ceilingKB: number;
  readonly unattachedHours: number;
  readonly now: () => Date;
  /** Hears the size of every file stored (metrics, issue #16). */
  readonly onStored?: (bytes: number) => void;
  /** Each upload's bytes are sealed under a data key of its own (issue #37 item 1). */
  readonly sealer: Pick<ValueSealer, 'newKey' | 'unwrap'>;
}

const KIND_LABEL: Readonly<Record<FileKind, string>> = {
  image: 'image',
  pdf: 'PDF',
  document: 'document',
  spreadsheet: 'spreadsheet',
  audio: 'audio',
  video: 'video',
  archive: 'archive',
  text: 'text',
};

function sizeLabel(kb: number): string {
  return kb >= 1024 ? `${Math.round((kb / 1024) * 10) / 10} MB` : `${kb} KB`;
}

/** The client's name as metadata only: no directories, no control characters, bounded. */
export function cleanFileName(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? '';
  const clean = base.normalize('NFC').replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
  return clean === '' || clean === '.' || clean === '..' ? 'file' : clean;
}

export function refusalMessage(refusal: UploadRefusal, name: string, target: UploadTarget): string {
  switch (refusal) {
    case 'too_many':
      return FIELD_MESSAGES.tooManyFiles(target.maxCount);
    case 'too_large':
      return `"${name}" is larger than ${sizeLabel(Math.floor(target.rules.maxBytes / 1024))}`;
    case 'empty':
      return `"${name}" is empty`;
    case 'kind': {
      const kinds = target.rules.kinds ? [...target.rules.kinds].map((k) => KIND_LABEL[k]).join(', ') : null;
      return kinds ? `"${name}" is not an allowed type of file (allowed: ${kinds})` : `"${name}" is not a type of file this form accepts`;
    }
  }
}

function rulesFor(kinds: readonly string[] | undefined, maxFileSizeKB: number | undefined, ceilingKB: number): UploadRules {
  const allowed = kinds && kinds.length > 0 ? new Set(kinds.filter((k): k is FileKind => (FILE_KINDS as readonly string[]).includes(k))) : null;
  return { maxBytes: Math.min(maxFileSizeKB ?? ceilingKB, ceilingKB) * 1024, kinds: allowed };
}

export function createUploadService(options: UploadServiceOptions): UploadService {
  const { db, store } = options;
  let tmpReady: Promise<unknown> | null = null;

  /** Deletes blobs; returns the keys that went. One that fails stays for the next purge. */
  const removeBlobs = async (keys: readonly string[]): Promise<Set<string>> => {
    const results = await Promise.allSettled(keys.map((key) => store.delete(key).then(() => key)));
    return new Set(results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : [])));
  };

  return {
    store,

    target(form, handle, column) {
      const field = form.fields.find((f) => f.handle === handle);
      if (!field) return null;
      if (field.type === 'file' && column === null) {
        return { handle, column, rules: rulesFor(field.fileKinds, field.maxFileSizeKB, options.ceilingKB), maxCount: field.fileCount ?? DEFAULT_FILE_COUNT };
      }
      if (field.type === 'table' && column !== null) {
        const spec = field.columns[column];
        if (spec?.type !== 'file') return null;
        return { handle, column, rules: rulesFor(spec.fileKinds, spec.maxFileSizeKB, options.ceilingKB), maxCount: spec.fileCount ?? DEFAULT_FILE_COUNT };
      }
      return null;
    },

    async receive(form, target, file, owner, wanted = {}) {
      const name = cleanFileName(file.filename);
      let storageKey = '';
      // Set by open() while the stream is read; declared wide so the check below is not narrowed to null.
      let spoolPath = null as string | null;
      // Sealed before any byte reaches the store, the disk's spool file included (issue #37).
      const dataKey = options.sealer.newKey();
      // The key carries the sniffed extension, so the file is opened once the sniff has decided:
      // in place on the disk store, else in a private spool file that is then put in the store.
      const open = async (sniffed: Sniffed): Promise<SpoolTarget> => {
        storageKey = `${form.uid.toLowerCase()}/${randomHex(16)}.${sniffed.extension.toLowerCase()}`;
        // Bound to its storage key: a sealed file copied under another key does not open.
        const seal = createChunkSealer(dataKey.key, storageKey);
        if (store.create) {
          const key = storageKey;
          const create = store.create.bind(store);
          return { handle: await intoStore(() => create(key)), seal, discard: () => store.delete(key) };
        }
        tmpReady ??= mkdir(options.tmpDir, { recursive: true, mode: 0o700 });
        // A failed attempt is not kept: the next upload tries to make the spool directory again.
        await intoStore(() => tmpReady as Promise<unknown>).catch((error: unknown) => {
          tmpReady = null;
          throw error;
        });
        const path = join(options.tmpDir, `${randomHex(16)}.upload`);
        spoolPath = path;
        return { handle: await intoStore(() => openFile(path, 'wx', 0o600)), seal, discard: () => rm(path, { force: true }) };
      };
      const spooled = await spoolUpload(file.stream, name, target.rules, open, { digest: wanted.digest === true }).catch((error: unknown) => {
        // A write that fails half-way (the disk filled up) is the store's trouble, not the request's.
        throw isDiskFailure(error) ? storageUnavailable(error) : error;
      });
      if (!spooled.ok) return { ok: false, refusal: spooled.refusal, message: refusalMessage(spooled.refusal, name, target) };
      const { sniffed, size } = spooled;
      const at = options.now();
      const id = timeOrderedToken(at.getTime());
      if (spoolPath !== null) {
        try {
          await intoStore(() => store.put(storageKey, createReadStream(spoolPath as string), { size: sealedSize(size), contentType: sniffed.mime }));
        } finally {
          await rm(spoolPath, { force: true });
        }
      }
      const row = {
        publicId: id,
        formId: form.id,
        fieldHandle: target.handle,
        columnIndex: target.column,
        ...owner,
        storageKey,
        name,
        extension: sniffed.extension,
        mime: sniffed.mime,
        kind: sniffed.kind,
        size,
        dataKey: dataKey.wrapped,
        createdAt: at.toISOString(),
      };
      let stored: boolean;
      try {
        // The owner's count is checked in the same write as the insert, not in queries of its
        // own before and after it (two statements and two waits for the connection fewer, issue #17).
        stored = await options.writes.run((trx) =>
          wanted.countOwned ? repo.insertUploadWithin(trx, options.dialect, row, target.maxCount) : repo.insertUpload(trx, row).then(() => true),
        );
      } catch (error) {
        await removeBlobs([storageKey]);
        throw error;
      }
      if (!stored) {
        await removeBlobs([storageKey]);
        return { ok: false, refusal: 'too_many', message: refusalMessage('too_many', name, target) };
      }
      options.onStored?.(size);
      return { ok: true, upload: { id, name, extension: sniffed.extension, size, kind: sniffed.kind, sha256: spooled.sha256 } };
    },

    async delete(form, handle, id, ownerHash) {
      const row = await repo.takeOwned(db, form.id, handle, id, ownerHash);
      if (!row) return false;
      await removeBlobs([row.storageKey]);
      return true;
    },

    async unattached(form, ids, owner) {
      const rows = await repo.findUnattached(db, form.id, ids, owner);
      return new Map(rows.map((row) => [row.publicId, row]));
    },

    attach: (trx, submissionId, form, ids) => repo.attachUploads(trx, submissionId, form.id, ids),

    hold: (form, ids, until) => repo.holdUploads(db, form.id, ids, until.toISOString()),

    listForSubmissions: (ids) => repo.listForSubmissions(db, ids),

    async read(file) {
      if (file.dataKey === null) return store.get(file.storageKey);
      const key = options.sealer.unwrap(file.dataKey);
      if (!key) return null;
      const body = await store.get(file.storageKey);
      return body ? openSealedStream(body, key, file.storageKey) : null;
    },

    async purgeUnattached(now) {
      const before = new Date(now.getTime() - options.unattachedHours * 3_600_000).toISOString();
      let purged = 0;
      // In batches, so a backlog never loads all rows at once.
      for (;;) {
        const batch = await repo.findExpired(db, before, now.toISOString(), 500);
        if (batch.length === 0) return purged;
        // Blobs first: a row without a blob is harmless, a blob without a row would never go.
        await Promise.all(batch.map((f) => store.delete(f.storageKey)));
        await repo.deleteRows(db, batch.map((f) => f.publicId));
        purged += batch.length;
        if (batch.length < 500) return purged;
      }
    },

    async deleteForSubmissions(submissionIds) {
      const rows = await repo.listForSubmissions(db, submissionIds);
      // Released first: if anything below fails, the purge finds them as expired uploads.
      await repo.releaseForSubmissions(db, submissionIds);
      const gone = await removeBlobs(rows.map((r) => r.storageKey));
      await repo.deleteRows(db, rows.filter((r) => gone.has(r.storageKey)).map((r) => r.publicId));
      return rows.length;
    },
  };
}
