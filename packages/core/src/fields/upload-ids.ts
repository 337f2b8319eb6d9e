/** Upload ids as the upload endpoint issues them (contract §7); kinds and sizes were checked there. */
export const UPLOAD_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Files a file field (or `file` table column) accepts when `fileCount` is not written. */
export const DEFAULT_FILE_COUNT = 1;

/**
 * Upload tokens a client may make (contract §7): a UUID, or the official client's
 * `ff-<ms>-<random>` where crypto.randomUUID is missing; 8-128 URL-safe characters.
 */
export const UPLOAD_TOKEN = /^[A-Za-z0-9_-]{8,128}$/;
