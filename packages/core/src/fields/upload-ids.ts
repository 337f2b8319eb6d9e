/** Upload ids as the upload endpoint issues them (contract §7); kinds and sizes were checked there. */
export const UPLOAD_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Files a file field (or `file` table column) accepts when `fileCount` is not written. */
export const DEFAULT_FILE_COUNT = 1;
