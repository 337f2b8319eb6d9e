/**
 * The privacy room's gaps (issue #37 items 3 and 5): an owner's edit of a personal value moves the
 * blind index with it, and the retention and spam-retention purges erase through the erasure
 * ledger (rows in svc_erasures and lines in the ledger file, by reason) like every other delete.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from './support/test-app.js';
import { createAdminTestApp, seed } from './support/admin-fixture.js';
import { consoleBrowser } from './support/console-browserless.js';
import { purgeExpired } from '../src/storage/purge-job.js';

const FORMS_DIR = resolve(import.meta.dirname, 'fixtures/privacy-forms');
const API_KEY = `svc_${randomBytes(24).toString('base64url')}`;
const WRITER_KEY = `svc_${randomBytes(24).toString('base64url')}`;
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('an owner edits a personal value, and the console bar', () => {
  let svc: TestApp;
  beforeAll(async () => {
    svc = await createTestApp({
      config: {
        forms: { dir: FORMS_DIR, watch: false },
        headless: { forms: { signup: { exposeManifest: true, allowSubmit: true } } },
        admin: {
          keys: [
            { name: 'desk', sha256: sha(API_KEY), scopes: ['read', 'write', 'privacy'], forms: ['*'] },
            { name: 'writer', sha256: sha(WRITER_KEY), scopes: ['read', 'write'], forms: ['*'] },
          ],
        },
        deliveries: { enabled: false },
      },
    });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('finds the privacy page from the console bar, when signed in with the privacy scope only', async () => {
    const desk = await consoleBrowser(svc, API_KEY);
    expect((await desk.get('/svc/console/')).body).toContain('<a href="/svc/console/privacy">Privacy</a>');
    const writer = await consoleBrowser(svc, WRITER_KEY);
    expect((await writer.get('/svc/console/')).body).not.toContain('/svc/console/privacy');
  });

  const admin = (method: 'POST' | 'PATCH', url: string, body: unknown): Promise<LightMyRequestResponse> =>
    svc.app.inject({ method, url, headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  const found = async (email: string) =>
    ((await admin('POST', '/svc/api/admin/privacy/find', { email })).json() as { data: { submissions: { id: number }[] } }).data.submissions.map((s) => s.id);

  it('is found by the new address and identifier, and no longer by the old ones', async () => {
    const res = await svc.submit('signup', { intent: 'submit', values: { name: 'Gil', email: 'gil@old.example', member: 'M-7' } });
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as { submission: { id: number } }).submission.id;
    expect(await found('gil@old.example')).toEqual([id]);
    const edited = await admin('PATCH', `/svc/api/admin/submissions/${id}`, { values: { email: 'gil@new.example', member: 'M-8' } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await found('gil@new.example')).toEqual([id]);
    expect(await found('gil@old.example')).toEqual([]);
    const byIdentifier = async (identifier: string) =>
      ((await admin('POST', '/svc/api/admin/privacy/find', { identifier })).json() as { data: { submissions: { id: number }[] } }).data.submissions.map((s) => s.id);
    expect(await byIdentifier('M-8')).toEqual([id]);
    expect(await byIdentifier('M-7')).toEqual([]);
    // An edit of another field keeps the index as it is.
    expect((await admin('PATCH', `/svc/api/admin/submissions/${id}`, { values: { name: 'Gil B.' } })).statusCode).toBe(200);
    expect(await found('gil@new.example')).toEqual([id]);
  });
});

describe('retention erases through the erasure ledger', () => {
  const NOW = Date.parse('2026-11-22T10:00:00Z');
  const ago = (days: number) => new Date(NOW - days * 86_400_000).toISOString();
  let svc: TestApp;
  beforeAll(async () => {
    svc = await createAdminTestApp({ url: null, now: () => new Date(NOW), config: { retention: { purgeAfterDays: 30, spamPurgeAfterDays: 7 } } });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('records each purged submission by reason, in the database and the ledger file, and keeps the rest', async () => {
    await seed(svc, 'notes', { title: 'kept', createdAt: ago(2) });
    const old = await seed(svc, 'notes', { title: 'old', createdAt: ago(31) });
    const spam = await seed(svc, 'notes', { title: 'spam', isSpam: true, createdAt: ago(8) });
    const uid = async (id: number) => (await svc.context.database.db.selectFrom('svc_submissions').select('uid').where('id', '=', id).executeTakeFirstOrThrow()).uid;
    const uids = { old: await uid(old), spam: await uid(spam) };
    expect(await purgeExpired(svc.context)).toMatchObject({ submissions: 1, spam: 1 });
    const rows = await svc.context.database.db.selectFrom('svc_erasures').select(['submission_uid', 'reason', 'erased_at', 'mirrored']).orderBy('id').execute();
    expect(rows).toEqual([
      { submission_uid: uids.spam, reason: 'spam-retention', erased_at: new Date(NOW).toISOString(), mirrored: 1 },
      { submission_uid: uids.old, reason: 'retention', erased_at: new Date(NOW).toISOString(), mirrored: 1 },
    ]);
    const lines = readFileSync(join(svc.dataDir, 'erasures.log'), 'utf8').trim().split('\n').slice(1).map((l) => JSON.parse(l) as { uid: string; reason: string });
    expect(lines.map((l) => [l.uid, l.reason])).toEqual([
      [uids.spam, 'spam-retention'],
      [uids.old, 'retention'],
    ]);
  });
});
