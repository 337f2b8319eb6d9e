/**
 * FileStore on S3 or any S3-compatible service (MinIO, R2, s3rver in tests). Bodies arrive with a
 * known length (the upload service spools and checks a file before storing it), so a plain
 * PutObject suffices; no multipart upload state can be left behind.
 */
import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { assertStorageKey, type FileStore } from './file-store.js';

export interface S3StoreOptions {
  readonly bucket: string;
  readonly region: string;
  readonly endpoint: string | null;
  readonly forcePathStyle: boolean;
  readonly accessKeyId: string | null;
  readonly secretAccessKey: string | null;
  /** Prepended to every key, e.g. `svc/`. */
  readonly prefix: string;
}

function isMissing(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404);
}

export function createS3FileStore(options: S3StoreOptions): FileStore {
  const client = new S3Client({
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    // The SDK's default CRC32 trailer sends bodies aws-chunked, which many S3-compatible services
    // (s3rver, older MinIO) store verbatim, frames and all; checksums only where S3 requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    // Without keys in config the SDK's own chain (env, profile, instance role) is used.
    ...(options.accessKeyId && options.secretAccessKey
      ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
      : {}),
  });
  const objectKey = (key: string) => {
    assertStorageKey(key);
    return `${options.prefix}${key}`;
  };
  return {
    name: 's3',
    async put(key, body, info) {
      await client.send(
        new PutObjectCommand({ Bucket: options.bucket, Key: objectKey(key), Body: body, ContentLength: info.size, ContentType: info.contentType }),
      );
    },
    async get(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: options.bucket, Key: objectKey(key) }));
        return (object.Body as Readable | undefined) ?? null;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      // S3 answers 204 for a key that does not exist, which is the idempotence the port promises.
      await client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: objectKey(key) }));
    },
    async close() {
      client.destroy();
    },
  };
}
