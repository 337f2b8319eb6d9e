/** Picks the FileStore adapter the config names (composition root only). */
import type { Config } from '../config/config-schema.js';
import { createDiskFileStore } from './disk-file-store.js';
import type { FileStore } from './file-store.js';
import { createS3FileStore } from './s3-file-store.js';

export function createFileStore(files: Config['files']): FileStore {
  if (files.store === 's3') return createS3FileStore({ ...files.s3, bucket: files.s3.bucket as string });
  // The loader resolved a null dir to <dataDir>/files.
  return createDiskFileStore(files.dir as string);
}
