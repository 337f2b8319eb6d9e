/**
 * The file-store port (DESIGN.md principle 6): where uploaded bytes live. Keys are chosen by the
 * server (see upload-service.ts), so no client string ever becomes a path or an object key.
 * Adapters: disk-file-store.ts (default, under the data directory) and s3-file-store.ts.
 */
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';

export interface FileStore {
  readonly name: 'disk' | 's3';
  /** Stores `body` under `key`, replacing nothing: keys are fresh random names. */
  put(key: string, body: Readable, info: { readonly size: number; readonly contentType: string }): Promise<void>;
  /**
   * Optional fast path for a store on the local disk: a new, empty file opened for writing at
   * `key`'s place (its directory made), so an upload is written where it stays instead of being
   * spooled and moved (issue #17). The file is the stored object once the caller has written and
   * closed it; nothing reads `key` before then, because only the upload row written after it
   * names the key. Adapters without it get `put` from a spool file.
   */
  create?(key: string): Promise<FileHandle>;
  /** The stored bytes, or null when nothing is stored under `key`. */
  get(key: string): Promise<Readable | null>;
  /** Removes `key`; a key that is already gone is not an error (deletes are retried by the purge). */
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

/** Keys look like `<form uid>/<random>.<ext>`: lower-case, no dot segments, no leading slash. */
const KEY = /^[a-z0-9][a-z0-9_-]*(?:\/[a-z0-9][a-z0-9_.-]*)*$/;

/** Adapters call this before touching storage: a malformed key is a bug, never a path. */
export function assertStorageKey(key: string): void {
  if (!KEY.test(key) || key.includes('..') || key.length > 300) throw new Error('invalid storage key');
}
