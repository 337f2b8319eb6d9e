/** The admin API's view of deliveries (issue #5): the log, resend, not-spam delivers, delete removes jobs. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, type TestApp } from './support/test-app.js';
import { describeEachDialect } from './support/dialects.js';
import { fieldPart, filePart, multipartBody } from './support/multipart-body.js';
import { tinyPng } from './support/sample-files.js';

const WRITER = `svc_${randomBytes(24).toString('base64url')}`;
const READER = `svc_${randomBytes(24).toString('base64url')}`;
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

const FORM = `name: Leads
settings:
  spam: { honeypot: true, javascriptTest: false }
  notifications:
    admin: [{ to: sales@example.test }]
fields:
  - { type: text, handle: name, label: Name }
`;

interface Delivery {
  id: number;
  kind: string;
  status: string;
  destination: string;
  log: { ok: boolean }[];
}

describeEachDialect('admin API and deliveries', (target) => {
  let svc: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-admin-deliveries-'));
    writeFileSync(join(dir, 'leads.yaml'), FORM);
    svc = await createTestApp({
      config: {
        database: { url: target.url() },
        forms: { dir, watch: false },
        headless: { forms: { leads: { exposeManifest: true, allowSubmit: true } } },
        deliveries: { pollMs: 100 },
        admin: {
          keys: [
            { name: 'writer', sha256: sha(WRITER), scopes: ['read', 'write'], forms: ['*'] },
            { name: 'reader', sha256: sha(READER), scopes: ['read'], forms: ['*'] },
          ],
        },
      },
    });
  });
  afterAll(async () => {
    await svc?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const admin = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, key = WRITER, body?: unknown) =>
    svc.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });

  async function deliveriesOf(id: number, until: (d: Delivery[]) => boolean): Promise<Delivery[]> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const res = await admin('GET', `/svc/api/admin/submissions/${id}`);
      expect(res.statusCode).toBe(200);
      const list = (res.json() as { data: { deliveries: Delivery[] } }).data.deliveries;
      if (until(list) || Date.now() > deadline) return list;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('shows each delivery with its log, and resends one on request', async () => {
    const res = await svc.submit('leads', { intent: 'submit', values: { name: 'Ann' } });
    const id = (res.json() as { submission: { id: number } }).submission.id;
    const [first] = await deliveriesOf(id, (d) => d[0]?.status === 'delivered');
    expect(first).toMatchObject({ kind: 'email', status: 'delivered', destination: expect.stringContaining('sales@example.test') });
    expect(first?.log).toHaveLength(1);

    expect((await admin('POST', `/svc/api/admin/deliveries/${first?.id}/resend`, READER)).json()).toMatchObject({ code: 'ADMIN_FORBIDDEN' });
    const resent = await admin('POST', `/svc/api/admin/deliveries/${first?.id}/resend`);
    expect(resent.json()).toMatchObject({ success: true, data: { id: first?.id, queued: true } });
    const [again] = await deliveriesOf(id, (d) => d[0]?.log.length === 2 && d[0].status === 'delivered');
    expect(again?.log.map((entry) => entry.ok)).toEqual([true, true]);

    const missing = await admin('POST', '/svc/api/admin/deliveries/999999/resend');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'DELIVERY_NOT_FOUND' });
  });

  it('delivers a spam submission once it is marked not spam, and only then', async () => {
    // No honeypot meta: stored flagged, and spam notifies nobody.
    const csrf = await svc.csrf();
    const res = await svc.app.inject({
      method: 'POST',
      url: '/svc/api/forms/leads/submit',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf.token, cookie: csrf.cookie },
      payload: JSON.stringify({ intent: 'submit', values: { name: 'Bot?' } }),
    });
    const id = (res.json() as { submission: { id: number } }).submission.id;
    expect(await deliveriesOf(id, () => true)).toEqual([]);
    expect((await admin('PATCH', `/svc/api/admin/submissions/${id}`, WRITER, { isSpam: false })).statusCode).toBe(200);
    const list = await deliveriesOf(id, (d) => d[0]?.status === 'delivered');
    expect(list.map((d) => [d.kind, d.status])).toEqual([['email', 'delivered']]);
    // Marking it again changes nothing: the jobs exist already.
    await admin('PATCH', `/svc/api/admin/submissions/${id}`, WRITER, { isSpam: true });
    await admin('PATCH', `/svc/api/admin/submissions/${id}`, WRITER, { isSpam: false });
    expect(await deliveriesOf(id, () => true)).toHaveLength(1);
  });

  it('deletes the delivery jobs and their log with the submission', async () => {
    const res = await svc.submit('leads', { intent: 'submit', values: { name: 'Cy' } });
    const id = (res.json() as { submission: { id: number } }).submission.id;
    const [delivery] = await deliveriesOf(id, (d) => d[0]?.status === 'delivered');
    expect((await admin('DELETE', `/svc/api/admin/submissions/${id}`)).statusCode).toBe(200);
    const db = svc.context.database.db;
    expect(await db.selectFrom('svc_deliveries').select('id').where('submission_id', '=', id).execute()).toEqual([]);
    expect(await db.selectFrom('svc_delivery_attempts').select('id').where('delivery_id', '=', delivery?.id ?? -1).execute()).toEqual([]);
  });
});

describe('file links in notification emails', () => {
  const PNG = tinyPng();
  let svc: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-email-links-'));
    writeFileSync(
      join(dir, 'photos.yaml'),
      `name: Photos
settings:
  spam: { honeypot: false, javascriptTest: false }
  notifications:
    admin: [{ to: owner@example.test }]
fields:
  - { type: email, handle: email, label: Email, notificationId: default }
  - { type: file, handle: photo, label: Photo, fileKinds: [image] }
`,
    );
    svc = await createTestApp({
      config: {
        forms: { dir, watch: false },
        server: { publicUrl: 'https://forms.example.test' },
        headless: { forms: { photos: { exposeManifest: true, allowSubmit: true } } },
        deliveries: { pollMs: 100 },
      },
    });
  });
  afterAll(async () => {
    await svc?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives the admin a signed link that downloads the file, and the user none', async () => {
    const csrf = await svc.csrf();
    const body = multipartBody([
      fieldPart('_svc', JSON.stringify({ intent: 'submit', values: { email: 'ann@example.test' } })),
      fieldPart('SVC_CSRF_TOKEN', csrf.token),
      filePart('files[photo][]', 'me.png', PNG, 'image/png'),
    ]);
    const res = await svc.app.inject({ method: 'POST', url: '/svc/api/forms/photos/submit', payload: body.payload, headers: { ...body.headers, cookie: csrf.cookie } });
    expect(res.json()).toMatchObject({ status: 'submitted' });
    const mailDir = join(svc.dataDir, 'mail');
    const deadline = Date.now() + 5000;
    let mails: string[] = [];
    while (Date.now() < deadline) {
      mails = existsSync(mailDir) ? readdirSync(mailDir).map((f) => readFileSync(join(mailDir, f), 'utf8')) : [];
      if (mails.length === 2) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    // Quoted-printable soft breaks undone, so a long link reads as one line.
    const decoded = mails.map((m) => m.replace(/=\r?\n/g, '').replace(/=3D/g, '='));
    const toOwner = decoded.find((m) => /^To: owner@example\.test$/m.test(m)) ?? '';
    const toUser = decoded.find((m) => /^To: ann@example\.test$/m.test(m)) ?? '';
    const link = /https:\/\/forms\.example\.test(\/svc\/api\/admin\/files\/[^\s"<]+)/.exec(toOwner)?.[1];
    expect(link).toMatch(/\/download\?expires=\d+&signature=/);
    expect(toUser).toContain('me.png');
    expect(toUser).not.toContain('/svc/api/admin/files/');
    const download = await svc.app.inject({ method: 'GET', url: (link as string).replace(/&amp;/g, '&') });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload).toEqual(PNG);
  });
});
