/**
 * An S3 double for tests: s3rver (a devDependency, so always present) in this process, bound to
 * loopback on a free port, keeping its objects in a fresh temporary directory. Also a plain SDK
 * client for looking into the bucket independently of the adapter under test, and a count of
 * the HTTP requests the server has seen (to prove a call never reached storage).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';

/** s3rver's built-in credentials. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;
export const S3_TEST_REGION = 'us-east-1';

export interface S3TestServer {
  readonly endpoint: string;
  readonly port: number;
  readonly bucket: string;
  /** Requests the server has received so far. */
  requestCount(): number;
  /** Every object in the bucket (optionally under `prefix`): key and size, sorted by key. */
  listObjects(prefix?: string): Promise<{ key: string; size: number }[]>;
  /** The bytes stored under the full object key, or null when there is no such object. */
  readObject(key: string): Promise<Buffer | null>;
  close(): Promise<void>;
}

export async function startS3Server(bucket = 'svc-test'): Promise<S3TestServer> {
  const directory = mkdtempSync(join(tmpdir(), 'svc-s3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] });
  const address = await server.run();
  let requests = 0;
  server.httpServer?.on('request', () => {
    requests += 1;
  });
  const endpoint = `http://127.0.0.1:${address.port}`;
  const client = new S3Client({ region: S3_TEST_REGION, endpoint, forcePathStyle: true, credentials: { ...S3RVER_CREDENTIALS } });

  return {
    endpoint,
    port: address.port,
    bucket,
    requestCount: () => requests,
    async listObjects(prefix) {
      const out: { key: string; size: number }[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, ...(prefix ? { Prefix: prefix } : {}), ...(token ? { ContinuationToken: token } : {}) }),
        );
        for (const object of page.Contents ?? []) out.push({ key: object.Key ?? '', size: object.Size ?? -1 });
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return out.sort((a, b) => a.key.localeCompare(b.key));
    },
    async readObject(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : null;
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return null;
        throw error;
      }
    },
    async close() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
