/**
 * The file-store port (src/files/file-store.ts), written once and run on every adapter: the disk
 * store on a temporary directory, and the S3 store against s3rver (in process, on loopback), with
 * and without a key prefix. Then the S3 store through the whole app: a drag-and-drop upload lands
 * in the bucket, and deleting the submission or purging an unattached upload removes the object.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { createDiskFileStore } from '../src/files/disk-file-store.js';
import { createS3FileStore } from '../src/files/s3-file-store.js';
import type { FileStore } from '../src/files/file-store.js';
import { startS3Server, S3RVER_CREDENTIALS, S3_TEST_REGION, type S3TestServer } from './support/s3-server.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { tinyPng } from './support/sample-files.js';
import { buffer } from 'node:stream/consumers';
import { sealedSize } from '../src/files/upload-sealing.js';

const FILE_FORMS_DIR = resolve(import.meta.dirname, 'fixtures/file-forms');
const PNG = tinyPng();
const INFO = { size: 0, contentType: 'application/octet-stream' };

/** Every file under `dir` (recursively), as `/`-separated paths relative to it, sorted. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(relative(dir, path).split(sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

/** Every entry (files and directories) under `dir`: a snapshot that changes if anything is made. */
function entriesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

async function bytesOf(stream: Readable | null): Promise<Buffer | null> {
  if (stream === null) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** `data` as a stream of `chunkSize` pieces, as the upload service would hand it over. */
function streamOf(data: Buffer, chunkSize = 64 * 1024): Readable {
  return Readable.from(
    (function* () {
      for (let at = 0; at < data.length; at += chunkSize) yield data.subarray(at, at + chunkSize);
    })(),
  );
}

/** A body that sends a few chunks and then fails, like a client that went away mid-upload. */
function failingStream(): Readable {
  let sent = 0;
  return new Readable({
    read() {
      sent += 1;
      if (sent <= 3) this.push(Buffer.alloc(64 * 1024, sent));
      else this.destroy(new Error('client went away'));
    },
  });
}

interface Harness {
  readonly store: FileStore;
  /** Where `key` is kept: a path under the store's directory, or an object key in the bucket. */
  stored(key: string): string;
  /** Everything the store holds now, in the form `stored` names it. */
  storedNames(): Promise<string[]>;
  /** Something that changes whenever storage is touched (fs entries, or requests to S3). */
  touchMark(): Promise<string>;
  /** The s3rver behind the store, for looking into the bucket directly (S3 only). */
  readonly bucket?: S3TestServer;
  /** The directory the disk store writes under (disk only). */
  readonly dir?: string;
  close(): Promise<void>;
}

interface AdapterCase {
  readonly name: string;
  readonly kind: 'disk' | 's3';
  readonly prefix: string;
  open(): Promise<Harness>;
}

const ADAPTERS: AdapterCase[] = [
  {
    name: 'disk',
    kind: 'disk',
    prefix: '',
    async open() {
      // The store lives one level down, so a key escaping it (../x) would show up in `root`.
      const root = mkdtempSync(join(tmpdir(), 'svc-files-'));
      const dir = join(root, 'store');
      const store = createDiskFileStore(dir);
      return {
        store,
        dir,
        stored: (key) => key,
        storedNames: async () => filesUnder(root).map((path) => path.replace(/^store\//, '')),
        touchMark: async () => JSON.stringify(entriesUnder(root)),
        async close() {
          await store.close();
          rmSync(root, { recursive: true, force: true });
        },
      };
    },
  },
  ...['', 'svc/'].map(
    (prefix): AdapterCase => ({
      name: prefix ? `s3 (prefix "${prefix}")` : 's3 (no prefix)',
      kind: 's3',
      prefix,
      async open() {
        const bucket = await startS3Server();
        const store = createS3FileStore({
          bucket: bucket.bucket,
          region: S3_TEST_REGION,
          endpoint: bucket.endpoint,
          forcePathStyle: true,
          ...S3RVER_CREDENTIALS,
          prefix,
        });
        return {
          store,
          bucket,
          stored: (key) => `${prefix}${key}`,
          storedNames: async () => (await bucket.listObjects()).map((o) => o.key),
          touchMark: async () => `requests:${bucket.requestCount()}`,
          async close() {
            await store.close();
            await bucket.close();
          },
        };
      },
    }),
  ),
];

describe.each(ADAPTERS)('file store contract: $name', (adapter) => {
  let h: Harness;
  let counter = 0;
  /** A fresh well-formed key per test, shaped like the upload service's `<form uid>/<random>.<ext>`. */
  const freshKey = (ext = 'bin') => `form-${++counter}/${randomBytes(8).toString('hex')}.${ext}`;

  beforeAll(async () => {
    h = await adapter.open();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('reports its adapter name', () => {
    expect(h.store.name).toBe(adapter.kind);
  });

  it('returns the exact bytes that were put (small binary, every byte value)', async () => {
    const key = freshKey();
    const data = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));
    await h.store.put(key, Readable.from([data]), { ...INFO, size: data.length });
    const got = await bytesOf(await h.store.get(key));
    expect(got?.length).toBe(data.length);
    expect(got?.equals(data)).toBe(true);
  });

  it('streams a 3 MB body in and out unchanged', async () => {
    const key = freshKey();
    const data = randomBytes(3 * 1024 * 1024);
    await h.store.put(key, streamOf(data), { ...INFO, size: data.length });
    const got = await bytesOf(await h.store.get(key));
    expect(got?.length).toBe(data.length);
    expect(got?.equals(data)).toBe(true);
  });

  it('answers null for a key that was never stored', async () => {
    expect(await h.store.get(freshKey())).toBeNull();
  });

  it('deletes: the key reads as null afterwards and is gone from storage', async () => {
    const key = freshKey();
    await h.store.put(key, Readable.from([PNG]), { size: PNG.length, contentType: 'image/png' });
    expect(await h.storedNames()).toContain(h.stored(key));
    await h.store.delete(key);
    expect(await h.store.get(key)).toBeNull();
    expect(await h.storedNames()).not.toContain(h.stored(key));
  });

  it('treats deleting a missing key (never stored, or deleted twice) as done', async () => {
    await expect(h.store.delete(freshKey())).resolves.toBeUndefined();
    const key = freshKey();
    await h.store.put(key, Readable.from([PNG]), { size: PNG.length, contentType: 'image/png' });
    await h.store.delete(key);
    await expect(h.store.delete(key)).resolves.toBeUndefined();
    expect(await h.store.get(key)).toBeNull();
  });

  it('stores under a nested key', async () => {
    const key = `form-nested/sub/deeper/${randomBytes(8).toString('hex')}.png`;
    await h.store.put(key, Readable.from([PNG]), { size: PNG.length, contentType: 'image/png' });
    expect((await bytesOf(await h.store.get(key)))?.equals(PNG)).toBe(true);
    expect(await h.storedNames()).toContain(h.stored(key));
    await h.store.delete(key);
    expect(await h.store.get(key)).toBeNull();
  });

  it('keeps two keys independent: each reads its own bytes, deleting one leaves the other', async () => {
    const a = freshKey('txt');
    const b = freshKey('txt');
    const dataA = Buffer.from('first file\n');
    const dataB = Buffer.from('second, longer file\n');
    await h.store.put(a, Readable.from([dataA]), { size: dataA.length, contentType: 'text/plain' });
    await h.store.put(b, Readable.from([dataB]), { size: dataB.length, contentType: 'text/plain' });
    expect((await bytesOf(await h.store.get(a)))?.toString()).toBe('first file\n');
    expect((await bytesOf(await h.store.get(b)))?.toString()).toBe('second, longer file\n');
    await h.store.delete(a);
    expect(await h.store.get(a)).toBeNull();
    expect((await bytesOf(await h.store.get(b)))?.toString()).toBe('second, longer file\n');
  });

  describe.each(['../x', '/abs', 'A/UPPER', 'a/../b', ''])('malformed key %j', (badKey) => {
    it('is refused by put, get and delete before storage is touched', async () => {
      const namesBefore = await h.storedNames();
      const before = await h.touchMark();
      await expect(h.store.put(badKey, Readable.from([PNG]), { size: PNG.length, contentType: 'image/png' })).rejects.toThrow(
        'invalid storage key',
      );
      await expect(h.store.get(badKey)).rejects.toThrow('invalid storage key');
      await expect(h.store.delete(badKey)).rejects.toThrow('invalid storage key');
      expect(await h.touchMark()).toBe(before);
      expect(await h.storedNames()).toEqual(namesBefore);
      // The mark is live: listing the bucket above was a request (on disk a listing changes nothing).
      if (adapter.kind === 's3') expect(await h.touchMark()).not.toBe(before);
    });
  });

  if (adapter.kind === 'disk') {
    it('leaves neither the file nor a .part behind when the body fails midway', async () => {
      const key = freshKey();
      await expect(h.store.put(key, failingStream(), { ...INFO, size: 10 * 64 * 1024 })).rejects.toThrow('client went away');
      expect(await h.store.get(key)).toBeNull();
      const formDir = key.split('/')[0] as string;
      const left = filesUnder(h.dir as string).filter((path) => path.startsWith(`${formDir}/`));
      expect(left).toEqual([]);
      expect(filesUnder(h.dir as string).filter((path) => path.endsWith('.part'))).toEqual([]);
    });

    it('creates a new file in place for a key: written and closed, it is the stored object; a directory removed behind its back is made again', async () => {
      const key = freshKey();
      const bytes = randomBytes(70_000);
      const handle = await h.store.create?.(key);
      if (!handle) throw new Error('the disk store creates files in place');
      await handle.writeFile(bytes);
      await handle.close();
      expect(await bytesOf(await h.store.get(key))).toEqual(bytes);
      // A fresh name only: an existing key is never overwritten.
      await expect(h.store.create?.(key)).rejects.toMatchObject({ code: 'EEXIST' });
      rmSync(join(h.dir as string, key.split('/')[0] as string), { recursive: true });
      const again = await h.store.create?.(key);
      await again?.writeFile(bytes);
      await again?.close();
      expect(await bytesOf(await h.store.get(key))).toEqual(bytes);
    });
  }

  if (adapter.kind === 's3') {
    it(`puts the object in the bucket under prefix + key ("${adapter.prefix}…"), with the body's exact size and bytes`, async () => {
      const key = freshKey('png');
      await h.store.put(key, Readable.from([PNG]), { size: PNG.length, contentType: 'image/png' });
      const bucket = h.bucket as S3TestServer;
      const listed = await bucket.listObjects(`${adapter.prefix}${key.split('/')[0]}/`);
      expect(listed).toEqual([{ key: `${adapter.prefix}${key}`, size: PNG.length }]);
      // Read back with a plain client, not the adapter: what any other consumer of the bucket sees.
      expect((await bucket.readObject(`${adapter.prefix}${key}`))?.toString('hex')).toBe(PNG.toString('hex'));
      if (adapter.prefix) {
        expect((await bucket.listObjects()).filter((o) => !o.key.startsWith(adapter.prefix))).toEqual([]);
      }
    });
  }
});

// --- through the app -----------------------------------------------------------------------

type Part = { name: string; value: string } | { name: string; filename: string; contentType: string; data: Buffer };

/** A multipart/form-data body built by hand. */
function multipartBody(parts: readonly Part[]): { body: Buffer; contentType: string } {
  const boundary = `----svc-test-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('value' in part) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.contentType}\r\n\r\n`,
        ),
        part.data,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('uploads through the app with files.store = s3', () => {
  let bucket: S3TestServer;
  let svc: TestApp;
  let clock = Date.parse('2026-11-22T10:00:00.000Z');

  beforeAll(async () => {
    bucket = await startS3Server();
    svc = await createTestApp({
      now: () => new Date(clock),
      config: {
        forms: { dir: FILE_FORMS_DIR, watch: false },
        headless: { forms: { uploads: { exposeManifest: true, allowSubmit: true } } },
        files: {
          store: 's3',
          s3: {
            bucket: bucket.bucket,
            endpoint: bucket.endpoint,
            forcePathStyle: true,
            ...S3RVER_CREDENTIALS,
          },
        },
      },
    });
  });
  afterAll(async () => {
    await svc?.close();
    await bucket?.close();
  });
  afterEach(() => {
    clock = Date.parse('2026-11-22T10:00:00.000Z');
  });

  async function upload(token: string, data = PNG) {
    const { token: csrf, cookie } = await svc.csrf();
    const { body, contentType } = multipartBody([{ name: 'photos', filename: 'pixel.png', contentType: 'image/png', data }]);
    return svc.app.inject({
      method: 'POST',
      url: '/svc/api/forms/uploads/files/photos',
      headers: { 'content-type': contentType, 'x-svc-upload-token': token, 'x-csrf-token': csrf, cookie },
      payload: body,
    });
  }

  /** The storage key the app chose for upload `id` (read through its own service). */
  async function storageKeyOf(id: string): Promise<string> {
    const form = svc.context.forms.get('uploads');
    if (!form) throw new Error('fixture form "uploads" is not loaded');
    const row = (await svc.context.uploads.unattached(form, [id])).get(id);
    if (!row) throw new Error(`upload ${id} has no unattached row`);
    return row.storageKey;
  }

  it('uses the S3 adapter', () => {
    expect(svc.context.uploads.store.name).toBe('s3');
  });

  it('stores a drag-and-drop upload in the bucket sealed, and reads back the exact bytes', async () => {
    const res = await upload(randomUUID());
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json() as { data: { id: string; name: string; extension: string; size: number } };
    expect(data).toMatchObject({ name: 'pixel.png', extension: 'png', size: PNG.length });
    const key = await storageKeyOf(data.id);
    expect(key).toMatch(/^[0-9a-f-]+\/[0-9a-f]{32}\.png$/);
    // issue #37: the bucket holds the bytes sealed under the upload's data key, never the file.
    expect(await bucket.listObjects(key)).toEqual([{ key, size: sealedSize(PNG.length) }]);
    expect((await bucket.readObject(key))?.includes(PNG.subarray(0, 16))).toBe(false);
    const row = await svc.context.database.db.selectFrom('svc_files').select('data_key').where('public_id', '=', data.id).executeTakeFirstOrThrow();
    const opened = await svc.context.uploads.read({ storageKey: key, dataKey: row.data_key });
    expect(opened && (await buffer(opened)).equals(PNG)).toBe(true);
  });

  it('removes the object when the submission that holds the upload is deleted', async () => {
    const token = randomUUID();
    const res = await upload(token);
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as { data: { id: string } }).data.id;
    const key = await storageKeyOf(id);
    expect((await bucket.listObjects(key)).map((o) => o.key)).toEqual([key]);

    const submitted = await svc.submit('uploads', { intent: 'submit', values: { name: 'Ada', photos: [id] }, context: { uploadToken: token } });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const submission = (submitted.json() as { status: string; submission: { id: number } | null });
    expect(submission.status).toBe('submitted');
    const submissionId = submission.submission?.id as number;
    expect((await svc.context.uploads.listForSubmissions([submissionId])).map((r) => r.storageKey)).toEqual([key]);

    expect(await svc.context.uploads.deleteForSubmissions([submissionId])).toBe(1);
    expect(await bucket.listObjects(key)).toEqual([]);
    expect(await bucket.readObject(key)).toBeNull();
    expect(await svc.context.uploads.listForSubmissions([submissionId])).toEqual([]);
  });

  it('purges an unattached upload: its object leaves the bucket, an attached one stays', async () => {
    // One upload that a submission claims, one that nobody does.
    const keptToken = randomUUID();
    const kept = await upload(keptToken);
    expect(kept.statusCode, kept.body).toBe(200);
    const keptId = (kept.json() as { data: { id: string } }).data.id;
    const keptKey = await storageKeyOf(keptId);
    const submitted = await svc.submit('uploads', { intent: 'submit', values: { name: 'Grace', photos: [keptId] }, context: { uploadToken: keptToken } });
    expect((submitted.json() as { status: string }).status).toBe('submitted');

    const orphan = await upload(randomUUID());
    expect(orphan.statusCode, orphan.body).toBe(200);
    const orphanKey = await storageKeyOf((orphan.json() as { data: { id: string } }).data.id);
    expect((await bucket.listObjects(orphanKey)).map((o) => o.key)).toEqual([orphanKey]);

    // Not yet expired: nothing goes.
    const notYet = await svc.context.uploads.purgeUnattached(new Date(clock + 60_000));
    expect(notYet).toBe(0);
    expect((await bucket.listObjects(orphanKey)).map((o) => o.key)).toEqual([orphanKey]);

    // Every object but keptKey is an unattached upload now (this orphan, and any earlier test's).
    const unattachedBefore = (await bucket.listObjects()).filter((o) => o.key !== keptKey).length;
    expect(unattachedBefore).toBeGreaterThanOrEqual(1);
    const future = new Date(clock + (svc.config.files.unattachedHours + 1) * 3_600_000);
    expect(await svc.context.uploads.purgeUnattached(future)).toBe(unattachedBefore);
    expect(await bucket.listObjects(orphanKey)).toEqual([]);
    expect(await bucket.readObject(orphanKey)).toBeNull();
    // The attached upload is not the purge's to take.
    expect((await bucket.listObjects()).map((o) => o.key)).toEqual([keptKey]);
  });
});
