/**
 * The marker test of issue #37 ("Done means"): unique markers go in through the real HTTP API (a
 * submitted value, the content of an uploaded file, a saved draft, an owner's edit, with an
 * Idempotency-Key and the deliveries run), and then no byte sequence of any marker is found in any
 * file under the data directory (the database, its -wal and -shm, stored files), in a pg_dump of
 * the PostgreSQL database, or in the objects of the S3 bucket. Outgoing mail carries values by
 * design: the demo's mail/ folder stands for SMTP and is the one place left out. Everything still
 * reads back through the admin API: values, the file's bytes, the audit entry's old value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { createTestApp, type TestApp } from './support/test-app.js';
import { describeEachDialect } from './support/dialects.js';
import { fieldPart, filePart, multipartBody } from './support/multipart-body.js';
import { startS3Server, S3RVER_CREDENTIALS, type S3TestServer } from './support/s3-server.js';
import { CHUNK_BYTES } from '../src/files/upload-sealing.js';

const FORMS_DIR = resolve(import.meta.dirname, 'fixtures/privacy-forms');
const ADMIN_KEY = `svc_${randomBytes(24).toString('base64url')}`;
const ADMIN_KEYS = [{ name: 'admin', sha256: createHash('sha256').update(ADMIN_KEY).digest('hex'), scopes: ['read', 'write'], forms: ['*'] }];

/** Every regular file under `dir`, but for the directories named in `skip` (relative paths). */
function filesUnder(dir: string, skip: readonly string[]): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => !skip.some((s) => relative(dir, path).split('/')[0] === s));
}

/** `where` for every marker found in `bytes`. */
function found(bytes: Buffer, markers: readonly string[], where: string): string[] {
  return markers.filter((m) => bytes.includes(Buffer.from(m, 'utf8'))).map((m) => `${m} in ${where}`);
}

for (const store of ['disk', 's3'] as const) {
  describeEachDialect(`values, files, drafts, idempotency answers, outbox jobs and audit values sealed at rest (${store} store)`, (target) => {
    let svc: TestApp;
    let s3: S3TestServer | null = null;
    const run = randomUUID().slice(0, 8);
    const MARKERS = {
      value: `value-marker-${run}-${randomUUID()}`,
      file: `file-marker-${run}-${randomUUID()}`,
      draft: `draft-marker-${run}-${randomUUID()}`,
      edited: `edited-marker-${run}-${randomUUID()}`,
    };
    const all = Object.values(MARKERS);
    // Three chunks and a bit, the marker at the start, across the first chunk boundary and at the end.
    const fileBody = Buffer.from(
      `${MARKERS.file}\n${'a'.repeat(CHUNK_BYTES - MARKERS.file.length - 5)}${MARKERS.file}\n${'b'.repeat(2 * CHUNK_BYTES)}${MARKERS.file}\n`,
      'utf8',
    );
    let submissionId = 0;
    let draft = { token: '', key: '' };

    beforeAll(async () => {
      if (store === 's3') s3 = await startS3Server(`svc-markers-${run}`);
      svc = await createTestApp({
        config: {
          database: { url: target.url() },
          forms: { dir: FORMS_DIR, watch: false },
          headless: { forms: { marker: { exposeManifest: true, allowSubmit: true } } },
          admin: { keys: ADMIN_KEYS },
          ...(s3 ? { files: { store: 's3', s3: { bucket: s3.bucket, endpoint: s3.endpoint, forcePathStyle: true, prefix: 'svc/', ...S3RVER_CREDENTIALS } } } : {}),
        },
      });

      const saved = await svc.submit('marker', { intent: 'saveDraft', values: { name: MARKERS.draft } });
      expect(saved.statusCode, saved.body).toBe(200);
      draft = (saved.json() as { draft: { token: string; key: string } }).draft;

      const { token, cookie } = await svc.csrf();
      const body = multipartBody([
        fieldPart('_svc', JSON.stringify({ intent: 'submit', values: { name: MARKERS.value, message: `Hello from ${MARKERS.value}` } })),
        fieldPart('SVC_CSRF_TOKEN', token),
        filePart('files[attachment]', 'notes.txt', fileBody, 'text/plain'),
      ]);
      const headers = { ...body.headers, cookie, 'idempotency-key': `marker-${run}` };
      const first = await svc.app.inject({ method: 'POST', url: '/svc/api/forms/marker/submit', headers, payload: body.payload });
      expect(first.statusCode, first.body).toBe(200);
      submissionId = (first.json() as { submission: { id: number } }).submission.id;
      // The same request again is answered from the stored (sealed) answer: one submission.
      const again = await svc.app.inject({ method: 'POST', url: '/svc/api/forms/marker/submit', headers, payload: body.payload });
      expect(again.statusCode, again.body).toBe(200);
      expect((again.json() as { submission: { id: number } }).submission.id).toBe(submissionId);

      // An owner's edit: the audit entry keeps the old value (the marker) and the new one.
      const edit = await svc.app.inject({
        method: 'PATCH',
        url: `/svc/api/admin/submissions/${submissionId}`,
        headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ values: { message: MARKERS.edited } }),
      });
      expect(edit.statusCode, edit.body).toBe(200);

      // The worker may already be on it (poked after commit): passes until nothing is pending.
      const pending = () => svc.context.database.db.selectFrom('svc_deliveries').select('id').where('status', '=', 'pending').execute();
      for (let pass = 0; pass < 5 && (await pending()).length > 0; pass++) await svc.context.deliveries.worker.drain();
      const jobs = await svc.context.database.db.selectFrom('svc_deliveries').select('status').where('submission_id', '=', submissionId).execute();
      expect(jobs.map((j) => j.status)).toEqual(['delivered']);
    });
    afterAll(async () => {
      await svc?.close();
      await s3?.close();
    });

    const admin = (url: string) => svc.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${ADMIN_KEY}` } });

    it('delivered the notification, whose mail (standing for SMTP) carries the value by design', () => {
      const mails = filesUnder(join(svc.dataDir, 'mail'), []);
      expect(mails.length).toBeGreaterThan(0);
      expect(mails.some((path) => readFileSync(path).includes(Buffer.from(MARKERS.value)))).toBe(true);
    });

    it('finds no marker in any file under the data directory: the database, its -wal and -shm, stored files', () => {
      const files = filesUnder(svc.dataDir, ['mail']);
      if (target.url() === null) expect(files.some((path) => path.endsWith('.db') || path.endsWith('.sqlite'))).toBe(true);
      if (store === 'disk') expect(files.some((path) => path.startsWith(join(svc.dataDir, 'files')))).toBe(true);
      expect(files.flatMap((path) => found(readFileSync(path), all, relative(svc.dataDir, path)))).toEqual([]);
    });

    it('finds no marker in the stored objects of the S3 bucket', async () => {
      if (!s3) return;
      const objects = await s3.listObjects();
      expect(objects.length).toBeGreaterThan(0);
      const hits: string[] = [];
      for (const object of objects) hits.push(...found((await s3.readObject(object.key)) ?? Buffer.alloc(0), all, object.key));
      expect(hits).toEqual([]);
    });

    it('finds no marker in a pg_dump of the PostgreSQL database', () => {
      const url = target.url();
      if (url === null) return;
      const dump = execFileSync('pg_dump', ['--no-owner', url], { maxBuffer: 512 * 1024 * 1024 });
      expect(dump.includes(Buffer.from('svc_submissions'))).toBe(true);
      expect(found(dump, all, 'pg_dump')).toEqual([]);
    });

    it('reads everything back through the admin API: the values, the file bytes, the audit entry', async () => {
      const detail = (await admin(`/svc/api/admin/submissions/${submissionId}`)).json() as {
        data: { values: Record<string, unknown>; files: { size: number; downloadUrl: string }[] };
      };
      expect(detail.data.values).toMatchObject({ name: MARKERS.value, message: MARKERS.edited });
      const file = detail.data.files[0];
      expect(file?.size).toBe(fileBody.length);
      const download = await svc.app.inject({ method: 'GET', url: new URL(file?.downloadUrl ?? '', 'http://localhost').pathname + new URL(file?.downloadUrl ?? '', 'http://localhost').search });
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-length']).toBe(String(fileBody.length));
      expect(download.rawPayload.equals(fileBody)).toBe(true);

      const audit = (await admin('/svc/api/admin/audit')).json() as { data: { action: string; detail: Record<string, unknown> }[] };
      const entry = audit.data.find((e) => e.action === 'submission.edit');
      expect(entry?.detail).toMatchObject({ from: { message: `Hello from ${MARKERS.value}` }, to: { message: MARKERS.edited } });
      expect(entry?.detail).not.toHaveProperty('sealed');
    });

    it('opens the saved draft with its token and key', async () => {
      const form = svc.context.forms.get('marker');
      if (!form) throw new Error('no marker form');
      const loaded = await svc.context.drafts.load(form, draft.token, draft.key, new Date());
      expect(loaded?.values).toMatchObject({ name: MARKERS.draft });
    });
  });
}

describe('the marker search itself', () => {
  it('finds a marker that is there, in the middle of other bytes', () => {
    expect(found(Buffer.concat([randomBytes(100), Buffer.from('m-123'), randomBytes(100)]), ['m-123', 'm-456'], 'x')).toEqual(['m-123 in x']);
  });
});
