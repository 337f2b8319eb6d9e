/**
 * Sealing what an installation stored before encryption at rest, besides submissions (issue #37
 * item 1): plain uploads, idempotency answers, outbox jobs and owners' edits in the audit log are
 * sealed in batches, resumably, and read the same afterwards.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createTestApp, type TestApp } from './support/test-app.js';
import { describeEachDialect } from './support/dialects.js';
import { fieldPart, filePart, multipartBody } from './support/multipart-body.js';
import { sha256 } from '../src/security/token-crypto.js';
import { countLegacyRows, encryptLegacyRows, type LegacyRowKind } from '../src/privacy/privacy-legacy-rows.js';

const FORMS_DIR = resolve(import.meta.dirname, 'fixtures/privacy-forms');
const ADMIN_KEY = `svc_${randomBytes(24).toString('base64url')}`;
const ADMIN_KEYS = [{ name: 'admin', sha256: createHash('sha256').update(ADMIN_KEY).digest('hex'), scopes: ['read', 'write'], forms: ['*'] }];

describeEachDialect('sealing rows stored before encryption at rest', (target) => {
  let svc: TestApp;
  const db = () => svc.context.database.db;
  const marker = `legacy-${randomUUID()}`;
  const plainFile = Buffer.from(`a file from before sealing: ${marker}\n`);
  let fileId = '';
  let oldPath = '';
  let jobId = 0;
  const idempotencyKey = `key-${marker}`;

  beforeAll(async () => {
    svc = await createTestApp({
      config: {
        database: { url: target.url() },
        forms: { dir: FORMS_DIR, watch: false },
        headless: { forms: { marker: { exposeManifest: true, allowSubmit: true } } },
        admin: { keys: ADMIN_KEYS },
        deliveries: { enabled: false },
      },
    });
    const form = svc.context.forms.get('marker');
    if (!form) throw new Error('no marker form');
    const at = new Date().toISOString();

    // An upload as an older svc stored it: the plain bytes, no data key.
    const { token, cookie } = await svc.csrf();
    const body = multipartBody([
      fieldPart('_svc', JSON.stringify({ intent: 'submit', values: { name: 'Ann' } })),
      fieldPart('SVC_CSRF_TOKEN', token),
      filePart('files[attachment]', 'notes.txt', 'replaced below\n', 'text/plain'),
    ]);
    const res = await svc.app.inject({ method: 'POST', url: '/svc/api/forms/marker/submit', headers: { ...body.headers, cookie }, payload: body.payload });
    expect(res.statusCode, res.body).toBe(200);
    const file = await db().selectFrom('svc_files').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    fileId = file.public_id;
    oldPath = join(svc.dataDir, 'files', ...file.storage_key.split('/'));
    mkdirSync(join(oldPath, '..'), { recursive: true });
    writeFileSync(oldPath, plainFile);
    await db().updateTable('svc_files').set({ data_key: null, size: plainFile.length }).where('id', '=', file.id).execute();

    await db()
      .insertInto('svc_idempotency_keys')
      .values({ key_hash: sha256(`${form.id}:${idempotencyKey}`), form_id: form.id, request_hash: 'r', response_status: 200, response_body: JSON.stringify({ success: true, marker }), created_at: at, data_key: null })
      .execute();
    const payload = { form: { id: form.id, uid: form.uid, handle: 'marker', name: 'Marker' }, submission: { id: null, uid: randomUUID(), title: marker, createdAt: at, status: 'open' }, values: { name: marker }, files: [] };
    const job = await db()
      .insertInto('svc_deliveries')
      .values({ uid: randomUUID(), submission_id: null, form_id: form.id, kind: 'email', target: JSON.stringify({ kind: 'email', template: 'default', to: [`${marker}@example.test`], reason: 'user' }), payload: JSON.stringify(payload), status: 'pending', attempts: 0, next_attempt_at: at, locked_until: null, last_error: null, created_at: at, updated_at: at, delivered_at: null, data_key: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    jobId = Number(job.id);
    for (let i = 0; i < 3; i++) {
      await db()
        .insertInto('svc_audit_log')
        .values({ at, actor: 'key:admin', action: 'submission.edit', form_handle: 'marker', target: `submission:${i + 1000}`, detail: JSON.stringify({ revision: 1, from: { name: `${marker}-${i}` }, to: { name: 'B' } }), ip: null, data_key: null })
        .execute();
    }
  });
  afterAll(async () => {
    await svc?.close();
  });

  const services = () => ({ db: db(), sealer: svc.context.sealer, store: svc.context.uploads.store });

  it('counts what is left plain, stops between batches when told, and a second pass seals only what is left', async () => {
    const before = await countLegacyRows(db());
    expect(before).toEqual({ uploads: 1, 'idempotency answers': 1, 'outbox jobs': 1, 'audit entries': 3 });
    const seen: [LegacyRowKind, number][] = [];
    // Stopped once three batches are in: the uploads', the answers' and the jobs' (one row each).
    const first = await encryptLegacyRows(services(), { batch: 1, onBatch: (kind, n) => seen.push([kind, n]), stopped: () => seen.length >= 3 });
    expect(first).toEqual({ uploads: 1, 'idempotency answers': 1, 'outbox jobs': 1, 'audit entries': 0 });
    expect(await countLegacyRows(db())).toEqual({ uploads: 0, 'idempotency answers': 0, 'outbox jobs': 0, 'audit entries': 3 });
    const second = await encryptLegacyRows(services(), { batch: 2, onBatch: (kind, n) => seen.push([kind, n]) });
    expect(second).toEqual({ uploads: 0, 'idempotency answers': 0, 'outbox jobs': 0, 'audit entries': 3 });
    expect(seen).toEqual([['uploads', 1], ['idempotency answers', 1], ['outbox jobs', 1], ['audit entries', 2], ['audit entries', 3]]);
    expect(await countLegacyRows(db())).toEqual({ uploads: 0, 'idempotency answers': 0, 'outbox jobs': 0, 'audit entries': 0 });
  });

  it('leaves no plaintext behind: the file moved to sealed bytes under a new key, the old one gone; the rows sealed', async () => {
    const file = await db().selectFrom('svc_files').selectAll().where('public_id', '=', fileId).executeTakeFirstOrThrow();
    expect(file.data_key).not.toBeNull();
    expect(existsSync(oldPath)).toBe(false);
    const stored = readFileSync(join(svc.dataDir, 'files', ...file.storage_key.split('/')));
    expect(stored.includes(Buffer.from(marker))).toBe(false);
    const rows = [
      ...(await db().selectFrom('svc_idempotency_keys').select('response_body as text').execute()),
      ...(await db().selectFrom('svc_deliveries').select('payload as text').execute()),
      ...(await db().selectFrom('svc_deliveries').select('target as text').execute()),
      ...(await db().selectFrom('svc_audit_log').select('detail as text').execute()),
    ];
    expect(rows.filter((row) => (row.text ?? '').includes(marker))).toEqual([]);
  });

  it('reads everything back as before: the file, the idempotent answer, the job, the audit entries', async () => {
    const detail = (await svc.app.inject({ method: 'GET', url: '/svc/api/admin/submissions/1', headers: { authorization: `Bearer ${ADMIN_KEY}` } })).json() as { data: { files: { id: string; downloadUrl: string }[] } };
    const link = new URL(detail.data.files.find((f) => f.id === fileId)?.downloadUrl ?? '', 'http://localhost');
    const download = await svc.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(plainFile)).toBe(true);

    const form = svc.context.forms.get('marker');
    expect(await svc.context.idempotency.begin(form?.id ?? 0, idempotencyKey, 'r', new Date())).toEqual({ kind: 'replay', result: { httpStatus: 200, body: { success: true, marker } } });

    await svc.context.deliveries.worker.drain();
    expect(await db().selectFrom('svc_deliveries').select('status').where('id', '=', jobId).executeTakeFirstOrThrow()).toEqual({ status: 'delivered' });

    const audit = (await svc.app.inject({ method: 'GET', url: '/svc/api/admin/audit', headers: { authorization: `Bearer ${ADMIN_KEY}` } })).json() as { data: { target: string; detail: unknown }[] };
    expect(audit.data.find((e) => e.target === 'submission:1000')?.detail).toEqual({ revision: 1, from: { name: `${marker}-0` }, to: { name: 'B' } });
  });
});
