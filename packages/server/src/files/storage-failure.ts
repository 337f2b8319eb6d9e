/**
 * A file store that cannot take a write (disk full or read-only, S3 down or refusing) is the
 * server's trouble, not a bug in the request: the client hears 503 STORAGE_UNAVAILABLE with
 * Retry-After and may send the same upload again (issue #32), never 500 INTERNAL.
 */
import { SvcError } from '@svc/core';

/** Seconds a client waits before retrying: long enough for a full disk to be seen to. */
export const STORAGE_RETRY_AFTER_S = 30;

/** Errors of the local file system that mean "this disk cannot be written now". */
const DISK_FAILURES = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO', 'EACCES', 'EPERM', 'ENOTDIR', 'EISDIR', 'EEXIST', 'EMFILE', 'ENFILE', 'ENOENT']);

export function storageUnavailable(cause: unknown): SvcError {
  const error = new SvcError('STORAGE_UNAVAILABLE', undefined, { headers: { 'Retry-After': String(STORAGE_RETRY_AFTER_S) } });
  (error as Error & { cause?: unknown }).cause = cause;
  return error;
}

/** Whether a failed disk write (a spool or in-place file) is the disk's fault. */
export function isDiskFailure(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && DISK_FAILURES.has(code);
}

/** Runs a call into the file store: whatever the store throws becomes STORAGE_UNAVAILABLE. */
export async function intoStore<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof SvcError) throw error;
    throw storageUnavailable(error);
  }
}
