/**
 * The file-store port (DESIGN.md principle 6): where uploaded bytes live. Keys are chosen by the
 * server (see upload-service.ts), so no client string ever becomes a path or an object key.
 * Adapters: disk-file-store.ts (default, under the data directory) and s3-file-store.ts.
 */
import type { Readable } from 'node:stream';

export interface FileStore {
  readonly name: 'disk' | 's3';
  /** Stores `body` under `key`, replacing nothing: keys are fresh random names. */
  put(key: string, body: Readable, info: { readonly size: number; readonly contentType: string }): Promise<void>;
  /**
   * Optional fast path for a complete local file: store it under `key` by moving it (the file is
   * gone afterwards). The disk adapter renames instead of copying; adapters without it get `put`.
   */
  adopt?(key: string, path: string): Promise<void>;
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
