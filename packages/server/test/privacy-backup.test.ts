/**
 * Erasure that reaches backups (issue #37 item 2, "Done means"): submit A and B (B with a file),
 * take a backup, erase B through the admin API, restore the backup — and B stays erased: not
 * readable through any API, its row (and with it its wrapped data key) gone, its stored file gone.
 * The erasure ledger file outside the database is what does it: restored with the ledger
 * pointing elsewhere, B is back, and the next start with the real ledger erases it again. On
 * SQLite and PostgreSQL (pg_dump / pg_restore).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startS3Server, S3RVER_CREDENTIALS, S3_TEST_REGION, type S3TestServer } from './support/s3-server.js';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDialect } from './support/dialects.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { fieldPart, filePart, multipartBody } from './support/multipart-body.js';
import { tinyPng } from './support/sample-files.js';
import { buildApp, type SvcApp } from '../src/app.js';
import type { Config } from '../src/config/config-schema.js';
import { createBackup } from '../src/cli/backup-command.js';
import { restoreBackup } from '../src/cli/restore-command.js';
import { readArchive } from '../src/cli/backup-archive.js';
import { keyringFromConfig } from '../src/privacy/privacy-config.js';
import { openSealedStream } from '../src/files/upload-sealing.js';

const FORMS_DIR = resolve(import.meta.dirname, 'fixtures/privacy-forms');
const PNG = tinyPng();
const API_KEY = `svc_${randomBytes(24).toString('base64url')}`;
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describeEachDialect('erasure reaches backups', (target) => {
  let svc: TestApp;
  let work: string;
  let ledger: string;
  let a: number;
  let b: { id: number; uid: string; file: string; key: string; dataKey: string; submissionKey: string; copy: Buffer };
  let apps: SvcApp[] = [];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'svc-backup-'));
    ledger = join(work, 'ledger', 'erasures.log');
    svc = await createTestApp({
      config: {
        database: { url: target.url() },
        forms: { dir: FORMS_DIR, watch: false },
        headless: { forms: { claims: { exposeManifest: true, allowSubmit: true } } },
        admin: { keys: [{ name: 'desk', sha256: sha(API_KEY), scopes: ['read', 'write', 'privacy'], forms: ['*'] }] },
        deliveries: { enabled: false },
        privacy: { erasureLedger: ledger },
      },
    });
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await svc?.close();
    rmSync(work, { recursive: true, force: true });
  });

  async function claim(app: SvcApp, contact: string, photo: Buffer | null): Promise<number> {
    const tokens = await app.app.inject({ method: 'GET', url: '/svc/tokens' });
    const { csrf } = tokens.json() as { csrf: { value: string } };
    const cookie = [tokens.headers['set-cookie']].flat().map((c) => String(c).split(';')[0]).join('; ');
    const body = multipartBody([
      fieldPart('_svc', JSON.stringify({ intent: 'submit', values: { contact, story: 'A tree fell on it' } })),
      fieldPart('SVC_CSRF_TOKEN', csrf.value),
      ...(photo ? [filePart('files[photo][]', 'dent.png', photo, 'image/png')] : []),
    ]);
    const res = await app.app.inject({ method: 'POST', url: '/svc/api/forms/claims/submit', headers: { ...body.headers, cookie }, payload: body.payload });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { submission: { id: number } }).submission.id;
  }

  const admin = (app: SvcApp, method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, body?: unknown): Promise<LightMyRequestResponse> =>
    app.app.inject({ method, url, headers: { authorization: `Bearer ${API_KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { payload: JSON.stringify(body) } : {}) });

  /** A new app on the same database, data directory and ledger (as a restart). */
  async function restart(config: Config = svc.config): Promise<SvcApp> {
    const app = await buildApp(config, { logger: false });
    apps.push(app);
    return app;
  }

  async function closeAll(): Promise<void> {
    for (const app of apps) await app.close();
    apps = [];
  }

  const fileDir = () => svc.config.files.dir as string;

  /** On SQLite, the database files whose bytes still hold B's wrapped data keys (none on PostgreSQL: its files are not ours to read). */
  function sqliteFilesHoldingKeys(): string[] {
    if (target.url()) return [];
    return ['svc.db', 'svc.db-wal'].filter((f) => {
      const path = join(svc.dataDir, f);
      if (!existsSync(path)) return false;
      const bytes = readFileSync(path);
      return bytes.includes(b.dataKey) || bytes.includes(b.submissionKey);
    });
  }

  /** The plain bytes of a sealed stored file, given its row's wrapped data key (upload-service.ts's way). */
  async function openCopy(sealed: Buffer, wrapped: string, storageKey: string): Promise<Buffer> {
    const key = keyringFromConfig(svc.config).unwrap(wrapped);
    if (!key) throw new Error('the data key does not unwrap');
    const chunks: Buffer[] = [];
    for await (const chunk of openSealedStream(Readable.from([sealed]), key, storageKey)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  it('submits A, and B with a file, and takes a backup holding both', async () => {
    a = await claim(svc, 'ann@example.test', null);
    const bId = await claim(svc, 'bob@example.test', PNG);
    // An owner's edit of B: its audit entry holds the old and new story, sealed.
    const edited = await admin(svc, 'PATCH', `/svc/api/admin/submissions/${bId}`, { values: { story: 'A branch fell on it' } });
    expect(edited.statusCode, edited.body).toBe(200);
    const db = svc.context.database.db;
    const row = await db.selectFrom('svc_submissions').select(['uid', 'data_key']).where('id', '=', bId).executeTakeFirstOrThrow();
    const file = await db.selectFrom('svc_files').select(['public_id', 'storage_key', 'data_key']).where('submission_id', '=', bId).executeTakeFirstOrThrow();
    // A copy of the stored file taken now, as a file-store backup would hold it: sealed, and
    // opened only with the data key its row holds (wrapped) today.
    const copy = readFileSync(join(fileDir(), file.storage_key));
    b = { id: bId, uid: row.uid, file: file.public_id, key: file.storage_key, dataKey: file.data_key as string, submissionKey: row.data_key as string, copy };
    expect(copy.includes(PNG)).toBe(false);
    expect(await openCopy(b.copy, b.dataKey, b.key)).toEqual(PNG);
    const report = await createBackup(svc.config, join(work, 'before.tar'));
    expect(report).toEqual({ dialect: target.url() ? 'postgres' : 'sqlite', files: 1 });
    const names = (await readArchive(join(work, 'before.tar'))).map((e) => e.name);
    expect(names).toEqual(['svc-backup.json', target.url() ? 'database/svc.pgdump' : 'database/svc.db', `files/${b.key}`]);
  });

  it('erases B through the admin API and writes the ledger (in the database and the file), without values', async () => {
    const res = await admin(svc, 'POST', '/svc/api/admin/privacy/erase', { email: 'bob@example.test', confirm: true });
    expect(res.statusCode, res.body).toBe(200);
    const receipt = (res.json() as { data: { receipt: { id: string } } }).data.receipt.id;
    const rows = await svc.context.database.db.selectFrom('svc_erasures').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ submission_uid: b.uid, reason: 'erase', receipt, mirrored: 1 });
    expect(JSON.parse(rows[0]!.uploads)).toEqual([{ id: b.file, key: b.key }]);
    const lines = readFileSync(ledger, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ ledger: 'svc-erasures', v: 1 });
    expect(lines.slice(1)).toEqual([{ uid: b.uid, form: expect.any(Number), uploads: [{ id: b.file, key: b.key }], at: expect.any(String), reason: 'erase', receipt }]);
    expect(readFileSync(ledger, 'utf8')).not.toMatch(/bob|tree/i);
    expect(existsSync(join(fileDir(), b.key))).toBe(false);
    // Not even in the bytes of the live SQLite database or its write-ahead log (secure_delete, and
    // the log emptied after an erasure).
    expect(sqliteFilesHoldingKeys()).toEqual([]);
  });

  it('restores the backup and erases B again from the ledger: A readable, B gone from every API, its row and file', async () => {
    await svc.close();
    const restored = await restoreBackup(svc.config, join(work, 'before.tar'));
    expect(restored.files).toBe(1);
    expect(restored.erasures).toEqual({ reapplied: 1 });
    const app = await restart();
    const db = app.context.database.db;
    expect((await admin(app, 'GET', `/svc/api/admin/submissions/${a}`)).statusCode).toBe(200);
    const gone = await admin(app, 'GET', `/svc/api/admin/submissions/${b.id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ code: 'SUBMISSION_NOT_FOUND' });
    const list = await admin(app, 'GET', '/svc/api/admin/forms/claims/submissions');
    expect((list.json() as { data: { id: number }[] }).data.map((s) => s.id)).toEqual([a]);
    const found = await admin(app, 'POST', '/svc/api/admin/privacy/find', { email: 'bob@example.test' });
    expect((found.json() as { data: { submissions: unknown[] } }).data.submissions).toEqual([]);
    // The row, and so the wrapped data key its values are sealed under; the file's row and bytes.
    expect(await db.selectFrom('svc_submissions').select('id').where('uid', '=', b.uid).execute()).toEqual([]);
    expect(await db.selectFrom('svc_files').select('id').where('public_id', '=', b.file).execute()).toEqual([]);
    expect(existsSync(join(fileDir(), b.key))).toBe(false);
    // Neither wrapped data key (the values', the file's) is held by any row: the copy of the file
    // taken before the erasure cannot be opened any more, whoever holds the key-encryption key.
    expect(await db.selectFrom('svc_files').select('id').where('data_key', '=', b.dataKey).execute()).toEqual([]);
    expect(await db.selectFrom('svc_submissions').select('id').where('data_key', '=', b.submissionKey).execute()).toEqual([]);
    expect(sqliteFilesHoldingKeys()).toEqual([]);
    // The entry of the owner's edit stays (who, when) without B's values or their key.
    const edits = await db.selectFrom('svc_audit_log').select(['detail', 'data_key']).where('target', '=', `submission:${b.id}`).where('action', '=', 'submission.edit').execute();
    expect(edits).toHaveLength(1);
    expect(edits[0]).toMatchObject({ data_key: null });
    expect(JSON.parse(edits[0]!.detail)).toMatchObject({ erased: true });
    expect(edits[0]!.detail).not.toMatch(/sealed|branch|tree/);
    // The report's counts lose B again with it: one submission counted, A.
    const counted = await db.selectFrom('svc_report_counts').select((eb) => eb.fn.sum<number | string>('n').as('n')).executeTakeFirstOrThrow();
    expect(Number(counted.n)).toBe(1);
    // Recorded again, so the next start has nothing left to do.
    expect(await db.selectFrom('svc_erasures').select('submission_uid').execute()).toEqual([{ submission_uid: b.uid }]);
    await closeAll();
    const again = await restoreBackup(svc.config, join(work, 'before.tar'));
    expect(again.erasures).toMatchObject({ reapplied: 1 });
  });

  it('without the ledger file a restore brings B back; the next start with the file erases it again, once', async () => {
    await closeAll();
    const elsewhere = { ...svc.config, privacy: { ...svc.config.privacy, erasureLedger: join(work, 'no-ledger-here.log') } } as Config;
    const restored = await restoreBackup(elsewhere, join(work, 'before.tar'));
    expect(restored.erasures.reapplied).toBe(0);
    const check = await restart(elsewhere);
    expect((await admin(check, 'GET', `/svc/api/admin/submissions/${b.id}`)).statusCode).toBe(200);
    await closeAll();
    const app = await restart();
    expect((await admin(app, 'GET', `/svc/api/admin/submissions/${b.id}`)).statusCode).toBe(404);
    expect((await admin(app, 'GET', `/svc/api/admin/submissions/${a}`)).statusCode).toBe(200);
    expect(existsSync(join(fileDir(), b.key))).toBe(false);
    // The high-water mark: a start reads only what was appended since it last applied the file.
    const mark = await app.context.database.db.selectFrom('svc_erasure_marks').selectAll().executeTakeFirstOrThrow();
    expect(Number(mark.applied_bytes)).toBe(readFileSync(ledger).length);
  });

  it('records deletes made by the admin API and the bulk action in the ledger too', async () => {
    await closeAll();
    const app = await restart();
    const c = await claim(app, 'cat@example.test', null);
    const d = await claim(app, 'dan@example.test', null);
    const e = await claim(app, 'eve@example.test', null);
    expect((await admin(app, 'DELETE', `/svc/api/admin/submissions/${c}`)).statusCode).toBe(200);
    const bulk = await admin(app, 'POST', '/svc/api/admin/forms/claims/submissions/bulk', { ids: [d, e], action: 'delete' });
    expect(bulk.statusCode, bulk.body).toBe(200);
    const rows = await app.context.database.db.selectFrom('svc_erasures').select(['reason', 'mirrored']).where('reason', '=', 'delete').execute();
    expect(rows).toEqual([
      { reason: 'delete', mirrored: 1 },
      { reason: 'delete', mirrored: 1 },
      { reason: 'delete', mirrored: 1 },
    ]);
    expect(readFileSync(ledger, 'utf8').trim().split('\n')).toHaveLength(1 + 1 + 3);
  });
});

describe('erasure reaches backups, files in S3', () => {
  let bucket: S3TestServer;
  let svc: TestApp;
  let work: string;
  beforeAll(async () => {
    bucket = await startS3Server();
    work = mkdtempSync(join(tmpdir(), 'svc-backup-s3-'));
    svc = await createTestApp({
      config: {
        forms: { dir: FORMS_DIR, watch: false },
        headless: { forms: { claims: { exposeManifest: true, allowSubmit: true } } },
        admin: { keys: [{ name: 'desk', sha256: sha(API_KEY), scopes: ['read', 'write', 'privacy'], forms: ['*'] }] },
        deliveries: { enabled: false },
        files: { store: 's3', s3: { bucket: bucket.bucket, endpoint: bucket.endpoint, forcePathStyle: true, ...S3RVER_CREDENTIALS } },
        privacy: { erasureLedger: join(work, 'erasures.log') },
      },
    });
  });
  afterAll(async () => {
    await svc?.close();
    await bucket?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('deletes the object of an erased submission again when a restored bucket brought it back', async () => {
    const tokens = await svc.app.inject({ method: 'GET', url: '/svc/tokens' });
    const { csrf } = tokens.json() as { csrf: { value: string } };
    const cookie = [tokens.headers['set-cookie']].flat().map((c) => String(c).split(';')[0]).join('; ');
    const body = multipartBody([
      fieldPart('_svc', JSON.stringify({ intent: 'submit', values: { contact: 'bob@example.test', story: 'A tree fell on it' } })),
      fieldPart('SVC_CSRF_TOKEN', csrf.value),
      filePart('files[photo][]', 'dent.png', PNG, 'image/png'),
    ]);
    const submitted = await svc.app.inject({ method: 'POST', url: '/svc/api/forms/claims/submit', headers: { ...body.headers, cookie }, payload: body.payload });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const id = (submitted.json() as { submission: { id: number } }).submission.id;
    const { storage_key: key } = await svc.context.database.db.selectFrom('svc_files').select('storage_key').where('submission_id', '=', id).executeTakeFirstOrThrow();
    const copy = await bucket.readObject(key);
    expect(copy).not.toBeNull();
    expect((await createBackup(svc.config, join(work, 'before.tar'))).files).toBe(0);
    const erased = await svc.app.inject({ method: 'POST', url: '/svc/api/admin/privacy/erase', headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' }, payload: JSON.stringify({ email: 'bob@example.test', confirm: true }) });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(await bucket.readObject(key)).toBeNull();
    await svc.close();
    // The bucket as its own backup (versioning, a replica) would bring it back.
    const client = new S3Client({ region: S3_TEST_REGION, endpoint: bucket.endpoint, forcePathStyle: true, credentials: { ...S3RVER_CREDENTIALS } });
    await client.send(new PutObjectCommand({ Bucket: bucket.bucket, Key: key, Body: copy as Buffer }));
    client.destroy();
    expect(await bucket.readObject(key)).not.toBeNull();
    const restored = await restoreBackup(svc.config, join(work, 'before.tar'));
    expect(restored).toMatchObject({ files: 0, erasures: { reapplied: 1 } });
    expect(await bucket.readObject(key)).toBeNull();
    const app = await buildApp(svc.config, { logger: false });
    try {
      const gone = await app.app.inject({ method: 'GET', url: `/svc/api/admin/submissions/${id}`, headers: { authorization: `Bearer ${API_KEY}` } });
      expect(gone.statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});
