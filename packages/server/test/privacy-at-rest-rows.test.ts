/**
 * Rows besides submissions sealed at rest (issue #37 item 1), one kind at a time: what is stored
 * holds no plaintext and names its data key; a row from before sealing (data_key null) still reads
 * as it was written; a row whose data key is gone (an erasure) reads as nothing, never as a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createTestApp, TEST_SECRET, type TestApp } from './support/test-app.js';
import { fieldPart, filePart, multipartBody } from './support/multipart-body.js';
import { deriveKey, sealJson, sha256 } from '../src/security/token-crypto.js';
import { PAYLOAD_AAD } from '../src/notifications/outbox-repository.js';
import type { DeliveryPayload } from '../src/notifications/delivery-model.js';
import type { SubmitResult } from '../src/submissions/submit-response.js';

const FORMS_DIR = resolve(import.meta.dirname, 'fixtures/privacy-forms');
const ADMIN_KEY = `svc_${randomBytes(24).toString('base64url')}`;
const ADMIN_KEYS = [{ name: 'admin', sha256: createHash('sha256').update(ADMIN_KEY).digest('hex'), scopes: ['read', 'write'], forms: ['*'] }];
/** A wrapped data key under a KEK this server does not have: what an erased or foreign key looks like to it. */
const LOST_KEY = `gone.${randomBytes(60).toString('base64url')}`;

describe('rows besides submissions sealed at rest', () => {
  let svc: TestApp;
  const db = () => svc.context.database.db;
  const form = () => {
    const found = svc.context.forms.get('marker');
    if (!found) throw new Error('no marker form');
    return found;
  };
  const admin = (url: string) => svc.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${ADMIN_KEY}` } });

  beforeAll(async () => {
    svc = await createTestApp({
      config: {
        forms: { dir: FORMS_DIR, watch: false },
        headless: { forms: { marker: { exposeManifest: true, allowSubmit: true } } },
        admin: { keys: ADMIN_KEYS },
        deliveries: { enabled: false },
      },
    });
  });
  afterAll(async () => {
    await svc?.close();
  });

  describe('idempotency answers', () => {
    const answer = (marker: string): SubmitResult => ({ httpStatus: 200, body: { success: true, marker } as unknown as SubmitResult['body'] });

    it('stores the answer sealed under a key of its own and replays it opened', async () => {
      const marker = `idem-${randomUUID()}`;
      const store = svc.context.idempotency;
      expect(await store.begin(form().id, marker, 'request-1', new Date())).toEqual({ kind: 'fresh' });
      await store.complete(form().id, marker, answer(marker));
      const row = await db().selectFrom('svc_idempotency_keys').selectAll().where('key_hash', '=', sha256(`${form().id}:${marker}`)).executeTakeFirstOrThrow();
      expect(row.data_key).toMatch(/^secret\./);
      expect(row.response_body).toMatch(/^sv1\./);
      expect(row.response_body).not.toContain(marker);
      expect(await store.begin(form().id, marker, 'request-1', new Date())).toEqual({ kind: 'replay', result: answer(marker) });
    });

    it('replays an answer stored before sealing as it was written', async () => {
      const key = `legacy-${randomUUID()}`;
      await db()
        .insertInto('svc_idempotency_keys')
        .values({ key_hash: sha256(`${form().id}:${key}`), form_id: form().id, request_hash: 'r', response_status: 200, response_body: JSON.stringify(answer(key).body), created_at: new Date().toISOString(), data_key: null })
        .execute();
      expect(await svc.context.idempotency.begin(form().id, key, 'r', new Date())).toEqual({ kind: 'replay', result: answer(key) });
    });

    it('answers a conflict, never a second run, when the answer no longer opens', async () => {
      const key = `lost-${randomUUID()}`;
      await svc.context.idempotency.begin(form().id, key, 'r', new Date());
      await svc.context.idempotency.complete(form().id, key, answer(key));
      await db().updateTable('svc_idempotency_keys').set({ data_key: LOST_KEY }).where('key_hash', '=', sha256(`${form().id}:${key}`)).execute();
      expect(await svc.context.idempotency.begin(form().id, key, 'r', new Date())).toMatchObject({ kind: 'conflict' });
    });
  });

  describe('drafts', () => {
    it('seals a saved draft under a data key of its own, and opens it only with its draft key', async () => {
      const marker = `draft-${randomUUID()}`;
      const saved = await svc.context.drafts.save(form(), { values: { name: marker }, pageIndex: 0, pageHistory: [] }, null, new Date());
      const row = await db().selectFrom('svc_drafts').selectAll().where('token_hash', '=', sha256(saved.token)).executeTakeFirstOrThrow();
      expect(row.data_key).toMatch(/^secret\./);
      expect(row.payload).not.toContain(marker);
      expect((await svc.context.drafts.load(form(), saved.token, saved.key, new Date()))?.values).toEqual({ name: marker });
      expect(await svc.context.drafts.load(form(), saved.token, 'A'.repeat(25), new Date())).toBeNull();
      // Its data key gone (an erasure), the draft key alone opens nothing.
      await db().updateTable('svc_drafts').set({ data_key: LOST_KEY }).where('token_hash', '=', sha256(saved.token)).execute();
      expect(await svc.context.drafts.load(form(), saved.token, saved.key, new Date())).toBeNull();
    });

    it('opens a draft saved before sealing with the key derived from the secret, and seals it at its next save', async () => {
      const token = 'T'.repeat(40);
      const key = 'K'.repeat(25);
      const now = new Date();
      const content = { values: { name: 'before sealing' }, pageIndex: 0, pageHistory: [] };
      await db()
        .insertInto('svc_drafts')
        .values({ form_id: form().id, token_hash: sha256(token), payload: sealJson(deriveKey(TEST_SECRET, 'draft', key), content, sha256(token)), created_at: now.toISOString(), updated_at: now.toISOString(), expires_at: new Date(now.getTime() + 86_400_000).toISOString(), data_key: null })
        .execute();
      const loaded = await svc.context.drafts.load(form(), token, key, now);
      expect(loaded?.values).toEqual(content.values);
      await svc.context.drafts.save(form(), { ...content, values: { name: 'after' } }, loaded, now);
      const row = await db().selectFrom('svc_drafts').select('data_key').where('token_hash', '=', sha256(token)).executeTakeFirstOrThrow();
      expect(row.data_key).toMatch(/^secret\./);
      expect((await svc.context.drafts.load(form(), token, key, now))?.values).toEqual({ name: 'after' });
    });
  });

  describe('outbox jobs', () => {
    const payload = (name: string): DeliveryPayload => ({
      form: { id: form().id, uid: form().uid, handle: 'marker', name: 'Marker' },
      submission: { id: null, uid: randomUUID(), title: name, createdAt: new Date().toISOString(), status: 'open' },
      values: { name },
      files: [],
    });
    async function job(stored: string, dataKey: string | null): Promise<number> {
      const at = new Date(Date.now() - 1000).toISOString();
      const row = await db()
        .insertInto('svc_deliveries')
        .values({ uid: randomUUID(), submission_id: null, form_id: form().id, kind: 'email', target: JSON.stringify({ kind: 'email', template: 'default', to: ['owner@example.test'], reason: 'admin' }), payload: stored, status: 'pending', attempts: 0, next_attempt_at: at, locked_until: null, last_error: null, created_at: at, updated_at: at, delivered_at: null, data_key: dataKey })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    }
    const status = async (id: number) => db().selectFrom('svc_deliveries').select(['status', 'last_error']).where('id', '=', id).executeTakeFirstOrThrow();

    it('stores a submission\'s job payload sealed, and the worker delivers it opened', async () => {
      const marker = `job-${randomUUID()}`;
      const res = await svc.submit('marker', { intent: 'submit', values: { name: marker } });
      expect(res.statusCode, res.body).toBe(200);
      const row = await db().selectFrom('svc_deliveries').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(row.data_key).toMatch(/^secret\./);
      expect(row.payload).not.toContain(marker);
      // Under the submission's own data key: destroying it (an erasure) shreds the job too.
      const submission = await db().selectFrom('svc_submissions').select('data_key').where('id', '=', Number(row.submission_id)).executeTakeFirstOrThrow();
      expect(row.data_key).toBe(submission.data_key);
      // Where it goes is sealed as well: a confirmation's target is the submitter's address.
      expect(row.target).not.toContain('owner@example.test');
      expect(svc.context.sealer.openJson<DeliveryPayload>(row.data_key, row.payload, PAYLOAD_AAD)?.values).toMatchObject({ name: marker });
      await svc.context.deliveries.worker.drain();
      expect(await status(Number(row.id))).toEqual({ status: 'delivered', last_error: null });
      const listed = await svc.context.deliveries.list(Number(row.submission_id));
      expect(listed.map((d) => d.destination)).toEqual(['email admin (default) → owner@example.test']);
    });

    it('delivers a job written before sealing (plain payload, no data key)', async () => {
      const id = await job(JSON.stringify(payload('plain job')), null);
      await svc.context.deliveries.worker.drain();
      expect(await status(id)).toEqual({ status: 'delivered', last_error: null });
    });

    it('dead-letters at once a job whose payload no longer opens, and goes on with the others', async () => {
      const lost = await job(svc.context.sealer.forNew().sealJson(payload('lost'), PAYLOAD_AAD), LOST_KEY);
      const fine = await job(JSON.stringify(payload('fine')), null);
      await svc.context.deliveries.worker.drain();
      expect(await status(lost)).toEqual({ status: 'dead', last_error: expect.stringContaining('cannot be opened') });
      expect(await status(fine)).toEqual({ status: 'delivered', last_error: null });
      const dead = (await admin('/svc/api/admin/deliveries/dead')).json() as { data: { id: number; destination: string }[] };
      expect(dead.data.find((d) => d.id === lost)?.destination).toBe('email (its address can no longer be read)');
    });
  });

  describe('audit entries with values', () => {
    it('keeps an edit\'s old and new values sealed, shows them opened, and shows an entry whose key is gone as erased', async () => {
      const before = `audit-before-${randomUUID()}`;
      const after = `audit-after-${randomUUID()}`;
      const res = await svc.submit('marker', { intent: 'submit', values: { name: 'Ann', message: before } });
      const id = (res.json() as { submission: { id: number } }).submission.id;
      const edit = await svc.app.inject({ method: 'PATCH', url: `/svc/api/admin/submissions/${id}`, headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' }, payload: JSON.stringify({ values: { message: after } }) });
      expect(edit.statusCode, edit.body).toBe(200);
      const row = await db().selectFrom('svc_audit_log').selectAll().where('target', '=', `submission:${id}`).executeTakeFirstOrThrow();
      expect(row.data_key).toMatch(/^secret\./);
      expect(row.detail).not.toContain(before);
      expect(row.detail).not.toContain(after);
      const entries = () => admin('/svc/api/admin/audit').then((r) => (r.json() as { data: { target: string; detail: Record<string, unknown> }[] }).data);
      expect((await entries()).find((e) => e.target === `submission:${id}`)?.detail).toEqual({ revision: 1, from: { message: before }, to: { message: after } });
      await db().updateTable('svc_audit_log').set({ data_key: LOST_KEY }).where('id', '=', row.id).execute();
      expect((await entries()).find((e) => e.target === `submission:${id}`)?.detail).toEqual({ revision: 1, erased: true });
    });

    it('takes an edit\'s values out of the audit log when its submission is deleted; the entry stays', async () => {
      const before = `deleted-before-${randomUUID()}`;
      const res = await svc.submit('marker', { intent: 'submit', values: { name: 'Ann', message: before } });
      const id = (res.json() as { submission: { id: number } }).submission.id;
      const headers = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };
      expect((await svc.app.inject({ method: 'PATCH', url: `/svc/api/admin/submissions/${id}`, headers, payload: JSON.stringify({ values: { message: 'after' } }) })).statusCode).toBe(200);
      const deleted = await svc.app.inject({ method: 'DELETE', url: `/svc/api/admin/submissions/${id}`, headers: { authorization: `Bearer ${ADMIN_KEY}` } });
      expect(deleted.statusCode, deleted.body).toBeLessThan(300);
      const row = await db().selectFrom('svc_audit_log').selectAll().where('target', '=', `submission:${id}`).where('action', '=', 'submission.edit').executeTakeFirstOrThrow();
      expect([row.data_key, JSON.parse(row.detail)]).toEqual([null, { revision: 1, erased: true }]);
    });
  });

  describe('uploads', () => {
    async function submitFile(content: Buffer): Promise<{ id: number; downloadUrl: string; publicId: string }> {
      const { token, cookie } = await svc.csrf();
      const body = multipartBody([
        fieldPart('_svc', JSON.stringify({ intent: 'submit', values: { name: 'With a file' } })),
        fieldPart('SVC_CSRF_TOKEN', token),
        filePart('files[attachment]', 'notes.txt', content, 'text/plain'),
      ]);
      const res = await svc.app.inject({ method: 'POST', url: '/svc/api/forms/marker/submit', headers: { ...body.headers, cookie }, payload: body.payload });
      expect(res.statusCode, res.body).toBe(200);
      const id = (res.json() as { submission: { id: number } }).submission.id;
      const detail = (await admin(`/svc/api/admin/submissions/${id}`)).json() as { data: { files: { id: string; downloadUrl: string }[] } };
      const file = detail.data.files[0];
      if (!file) throw new Error('no file');
      return { id, downloadUrl: file.downloadUrl, publicId: file.id };
    }
    const download = (url: string) => {
      const parsed = new URL(url, 'http://localhost');
      return svc.app.inject({ method: 'GET', url: `${parsed.pathname}${parsed.search}` });
    };

    it('serves a file stored before sealing (no data key) as it is', async () => {
      const sealed = await submitFile(Buffer.from('will be replaced by plain bytes\n'));
      const row = await db().selectFrom('svc_files').selectAll().where('public_id', '=', sealed.publicId).executeTakeFirstOrThrow();
      const plain = Buffer.from('plain bytes from before sealing\n');
      const path = join(svc.dataDir, 'files', ...row.storage_key.split('/'));
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, plain);
      await db().updateTable('svc_files').set({ data_key: null, size: plain.length }).where('id', '=', row.id).execute();
      const res = await download(sealed.downloadUrl);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(plain)).toBe(true);
    });

    it('answers 404 FILE_NOT_FOUND, not a 500, for a file whose data key is gone', async () => {
      const sealed = await submitFile(Buffer.from('shredded\n'));
      await db().updateTable('svc_files').set({ data_key: LOST_KEY }).where('public_id', '=', sealed.publicId).execute();
      const res = await download(sealed.downloadUrl);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'FILE_NOT_FOUND' });
    });
  });
});
