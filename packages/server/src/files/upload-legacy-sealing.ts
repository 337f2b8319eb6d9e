/**
 * Sealing an upload stored before uploads were sealed (issue #37 item 1): its plain bytes are
 * read from the store, sealed under a new data key and written under a new storage key; the row
 * then moves to the new key in one UPDATE that only applies while the row is still plain and still
 * names the old key, and the old bytes are deleted after. A reader meanwhile reads either the old
 * plain file (the row as it was) or the new sealed one; a second instance doing the same loses the
 * UPDATE and removes what it wrote. Nothing is ever overwritten in place.
 */
import { Transform, type Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import type { ValueSealer } from '../privacy/privacy-sealer.js';
import { randomHex } from '../security/token-crypto.js';
import type { FileStore } from './file-store.js';
import { createChunkSealer, sealedSize } from './upload-sealing.js';

export interface LegacyUpload {
  readonly id: number;
  readonly storageKey: string;
  readonly size: number;
  readonly mime: string;
}

/** The same place as `key` (its form's directory and extension), a fresh random name. */
function freshKey(key: string): string {
  const slash = key.lastIndexOf('/');
  const dot = key.lastIndexOf('.');
  const extension = dot > slash ? key.slice(dot) : '';
  return `${key.slice(0, slash + 1)}${randomHex(16)}${extension}`;
}

/** `plain` sealed as it streams, failing if it does not hold exactly `size` bytes (the row's size). */
function sealing(plain: Readable, key: Buffer, binding: string, size: number): Readable {
  const sealer = createChunkSealer(key, binding);
  let seen = 0;
  const sealed = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      for (const piece of sealer.update(chunk)) this.push(piece);
      callback();
    },
    flush(callback) {
      if (seen !== size) callback(new Error(`stored file holds ${seen} bytes, its row says ${size}`));
      else {
        for (const piece of sealer.final()) this.push(piece);
        callback();
      }
    },
  });
  plain.once('error', (error) => sealed.destroy(error));
  return plain.pipe(sealed);
}

/** Seals one plain upload; false when its bytes are gone or another pass sealed it first. */
export async function sealLegacyUpload(db: Kysely<Database>, store: FileStore, sealer: Pick<ValueSealer, 'newKey'>, upload: LegacyUpload): Promise<boolean> {
  const plain = await store.get(upload.storageKey);
  if (!plain) return false;
  const dataKey = sealer.newKey();
  const next = freshKey(upload.storageKey);
  await store.put(next, sealing(plain, dataKey.key, next, upload.size), { size: sealedSize(upload.size), contentType: upload.mime });
  const moved = await db
    .updateTable('svc_files')
    .set({ storage_key: next, data_key: dataKey.wrapped })
    .where('id', '=', upload.id)
    .where('storage_key', '=', upload.storageKey)
    .where('data_key', 'is', null)
    .executeTakeFirst();
  const done = Number(moved.numUpdatedRows) === 1;
  await store.delete(done ? upload.storageKey : next);
  return done;
}
