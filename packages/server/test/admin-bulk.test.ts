/**
 * Bulk actions of the admin API (issue #35 item 1) on both dialects: ids and filter selections,
 * each action (status, spam, not spam releasing the held deliveries, delete with files), one audit
 * entry per submission changed, the cap of 10,000 and bad input refused with stable codes, scopes,
 * and 10,000 rows changed in one call (the time is the bench's business, not this test's).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { insertSubmissions, type NewSubmission } from '../src/submissions/submission-repository.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { describeEachDialect } from './support/dialects.js';
import { PNG, submitWithFiles } from './support/admin-fixture.js';
import { openTarget } from '../src/notifications/outbox-repository.js';

const WRITER = `svc_${randomBytes(24).toString('base64url')}`;
const READER = `svc_${randomBytes(24).toString('base64url')}`;
const OTHER = `svc_${randomBytes(24).toString('base64url')}`;
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

// `leads` notifies sales, so a bulk "not spam" has deliveries to release; `notes` takes files.
const LEADS = `name: Leads
settings:
  spam: { honeypot: false, javascriptTest: false }
  notifications:
    admin: [{ to: sales@example.test }]
fields:
  - { type: text, handle: name, label: Name }
`;
const NOTES = `name: Notes
settings:
  spam: { honeypot: false, javascriptTest: false }
fields:
  - { type: text, handle: name, label: Name }
  - { type: file, handle: attachment, label: Attachment, fileKinds: [image], fileCount: 2 }
`;

describeEachDialect('admin bulk actions', (target) => {
  let svc: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-admin-bulk-'));
    writeFileSync(join(dir, 'leads.yaml'), LEADS);
    writeFileSync(join(dir, 'notes.yaml'), NOTES);
    svc = await createTestApp({
      config: {
        database: { url: target.url() },
        forms: { dir, watch: false },
        headless: { forms: { leads: { exposeManifest: true, allowSubmit: true }, notes: { exposeManifest: true, allowSubmit: true } } },
        // No worker run during the test: the released jobs stay queued where the test counts them.
        deliveries: { enabled: false },
        admin: {
          keys: [
            { name: 'writer', sha256: sha(WRITER), scopes: ['read', 'write'], forms: ['*'] },
            { name: 'reader', sha256: sha(READER), scopes: ['read'], forms: ['*'] },
            { name: 'notes-only', sha256: sha(OTHER), scopes: ['read', 'write'], forms: ['notes'] },
          ],
        },
      },
    });
  });
  afterAll(async () => {
    await svc?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const db = () => svc.context.database.db;
  const bulk = (handle: string, body: unknown, key = WRITER): Promise<LightMyRequestResponse> =>
    svc.app.inject({ method: 'POST', url: `/svc/api/admin/forms/${handle}/submissions/bulk`, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  const changed = async (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { data: { changed: number } }).data.changed;
  };

  /** `n` rows of a form, created a minute apart from `start`; returns their ids. */
  async function seed(handle: string, n: number, row: Partial<NewSubmission> = {}, start = Date.parse('2026-11-01T00:00:00Z')): Promise<number[]> {
    const form = svc.context.forms.get(handle);
    if (!form) throw new Error(`no form ${handle}`);
    const rows: NewSubmission[] = Array.from({ length: n }, (_v, i) => ({
      uid: randomUUID(),
      formId: form.id,
      tokenHash: sha(randomUUID()),
      title: `Row ${i}`,
      status: 'open',
      isSpam: false,
      spamReasons: [],
      ip: null,
      values: { name: `Row ${i}` },
      createdAt: new Date(start + i * 60_000).toISOString(),
      ...row,
    }));
    return insertSubmissions(db(), rows);
  }
  const statusOf = async (ids: readonly number[]) =>
    (await db().selectFrom('svc_submissions').select(['id', 'status', 'is_spam']).where('id', 'in', ids).orderBy('id').execute()).map((r) => [Number(r.id), r.status, Number(r.is_spam)]);
  const auditFor = async (ids: readonly number[]) =>
    db().selectFrom('svc_audit_log').selectAll().where('target', 'in', ids.map((id) => `submission:${id}`)).orderBy('id').execute();

  it('changes the status of listed ids, counting and auditing only the submissions it changed', async () => {
    const ids = await seed('leads', 3);
    await db().updateTable('svc_submissions').set({ status: 'closed' }).where('id', '=', ids[2] as number).execute();
    const n = await changed(await bulk('leads', { ids: [...ids, 999_999_999], action: 'setStatus', status: 'closed' }));
    expect(n).toBe(2);
    expect(await statusOf(ids)).toEqual(ids.map((id) => [id, 'closed', 0]));
    const audit = await auditFor(ids);
    expect(audit.map((a) => [a.target, a.action, a.actor, a.form_handle])).toEqual([
      [`submission:${ids[0]}`, 'submission.update', 'key:writer', 'leads'],
      [`submission:${ids[1]}`, 'submission.update', 'key:writer', 'leads'],
    ]);
    expect(JSON.parse(audit[0]?.detail ?? '{}')).toEqual({ from: { status: 'open' }, to: { status: 'closed' }, bulk: true });
  });

  it('acts on everything a filter matches, as the list route reads its filters', async () => {
    const open = await seed('leads', 4, { status: 'pending' }, Date.parse('2026-09-01T00:00:00Z'));
    const later = await seed('leads', 2, { status: 'pending' }, Date.parse('2026-09-10T00:00:00Z'));
    const spam = await seed('leads', 1, { status: 'pending', isSpam: true, spamReasons: ['honeypot'] }, Date.parse('2026-09-01T00:00:00Z'));
    // spam defaults to false (not spam), as on the list route: the spam row is left alone.
    expect(await changed(await bulk('leads', { filter: { status: 'pending', from: '2026-09-01', to: '2026-09-05' }, action: 'setStatus', status: 'open' }))).toBe(4);
    expect((await statusOf([...open, ...later, ...spam])).map((r) => r[1])).toEqual(['open', 'open', 'open', 'open', 'pending', 'pending', 'pending']);
    expect(await changed(await bulk('leads', { filter: { status: 'pending', spam: 'all' }, action: 'setStatus', status: 'closed' }))).toBe(3);
  });

  it('marks spam, and "not spam" releases the deliveries held back, once', async () => {
    const ids = await seed('leads', 3);
    expect(await changed(await bulk('leads', { ids, action: 'markSpam' }))).toBe(3);
    expect(await changed(await bulk('leads', { ids, action: 'markSpam' }))).toBe(0);
    expect((await statusOf(ids)).map((r) => r[2])).toEqual([1, 1, 1]);
    const jobs = () => db().selectFrom('svc_deliveries').select(['submission_id', 'target', 'data_key']).where('submission_id', 'in', ids).orderBy('submission_id').execute();
    expect(await jobs()).toEqual([]);
    expect(await changed(await bulk('leads', { ids, action: 'markNotSpam' }))).toBe(3);
    const released = await jobs();
    expect(released.map((j) => Number(j.submission_id))).toEqual(ids);
    // The target is sealed at rest (issue #37): opened, it names the form's address.
    const target = released[0] ? openTarget(svc.context.sealer, released[0]) : null;
    expect(JSON.stringify(target)).toContain('sales@example.test');
    // Spam and back again: the jobs exist already and are not written twice.
    await bulk('leads', { ids, action: 'markSpam' });
    expect(await changed(await bulk('leads', { filter: { spam: true }, action: 'markNotSpam' }))).toBeGreaterThanOrEqual(3);
    expect(await jobs()).toHaveLength(3);
    const details = (await auditFor(ids)).filter((a) => a.target === `submission:${ids[0]}`).map((a) => JSON.parse(a.detail) as { to: unknown });
    expect(details.map((d) => d.to)).toEqual([{ isSpam: true }, { isSpam: false }, { isSpam: true }, { isSpam: false }]);
  });

  it('deletes with their files and delivery jobs, one audit entry each with its file count', async () => {
    const withFile = await submitWithFiles(svc, { name: 'Has a file' }, [{ field: 'files[attachment][]', name: 'a.png', data: PNG }]);
    const [plain] = await seed('notes', 1);
    const keys = await db().selectFrom('svc_files').select('storage_key').where('submission_id', '=', withFile).execute();
    expect(keys).toHaveLength(1);
    const storageKey = keys[0]?.storage_key ?? '';
    expect(await svc.context.uploads.store.get(storageKey)).not.toBeNull();
    expect(await changed(await bulk('notes', { ids: [withFile, plain], action: 'delete' }))).toBe(2);
    expect(await statusOf([withFile, plain as number])).toEqual([]);
    expect(await db().selectFrom('svc_files').select('id').where('submission_id', '=', withFile).execute()).toEqual([]);
    expect(await svc.context.uploads.store.get(storageKey)).toBeNull();
    const audit = await auditFor([withFile, plain as number]);
    expect(audit.map((a) => [a.action, JSON.parse(a.detail)])).toEqual([
      ['submission.delete', { files: 1, bulk: true }],
      ['submission.delete', { files: 0, bulk: true }],
    ]);
    expect(await changed(await bulk('notes', { ids: [withFile], action: 'delete' }))).toBe(0);
  });

  it('leaves submissions of other forms alone, and a key limited to one form cannot reach another', async () => {
    const [lead] = await seed('leads', 1);
    expect(await changed(await bulk('notes', { ids: [lead], action: 'setStatus', status: 'closed' }))).toBe(0);
    expect((await statusOf([lead as number]))[0]?.[1]).toBe('open');
    const res = await bulk('leads', { ids: [lead], action: 'delete' }, OTHER);
    expect([res.statusCode, (res.json() as { code: string }).code]).toEqual([404, 'FORM_NOT_FOUND']);
  });

  it('refuses a read-only key with 403 ADMIN_FORBIDDEN, changing nothing', async () => {
    const ids = await seed('leads', 2);
    const res = await bulk('leads', { ids, action: 'delete' }, READER);
    expect([res.statusCode, (res.json() as { code: string }).code]).toEqual([403, 'ADMIN_FORBIDDEN']);
    expect(await statusOf(ids)).toHaveLength(2);
    expect(await auditFor(ids)).toEqual([]);
  });

  it.each([
    ['no selection', { action: 'markSpam' }],
    ['both selections', { ids: [1], filter: {}, action: 'markSpam' }],
    ['an empty id list', { ids: [], action: 'markSpam' }],
    ['a bad id', { ids: [1, -2], action: 'markSpam' }],
    ['a fractional id', { ids: [1.5], action: 'markSpam' }],
    ['an id as a string', { ids: ['1'], action: 'markSpam' }],
    ['an unknown action', { ids: [1], action: 'archive' }],
    ['setStatus without a status', { ids: [1], action: 'setStatus' }],
    ['an unknown status', { ids: [1], action: 'setStatus', status: 'gone' }],
    ['a status with another action', { ids: [1], action: 'delete', status: 'open' }],
    ['an unknown filter', { filter: { stauts: 'open' }, action: 'delete' }],
    ['a bad date in the filter', { filter: { from: 'yesterday' }, action: 'delete' }],
    ['a filter that is not an object', { filter: 'all', action: 'delete' }],
    ['an unknown key', { ids: [1], action: 'delete', force: true }],
    ['not an object', [1, 2]],
  ])('answers %s with 400 PAYLOAD_INVALID', async (_name, body) => {
    const res = await bulk('leads', body);
    expect([res.statusCode, (res.json() as { code: string }).code], res.body).toEqual([400, 'PAYLOAD_INVALID']);
  });

  it('refuses more than 10,000 ids, or a filter matching more, with 422 BULK_TOO_LARGE', async () => {
    const res = await bulk('leads', { ids: Array.from({ length: 10_001 }, (_v, i) => i + 1), action: 'markSpam' });
    expect([res.statusCode, (res.json() as { code: string }).code]).toEqual([422, 'BULK_TOO_LARGE']);
  });

  it('changes 10,000 submissions in one call, on the filter form too, each audited', async () => {
    const ids = await seed('notes', 10_001, { status: 'pending' }, Date.parse('2025-01-01T00:00:00Z'));
    const tooMany = await bulk('notes', { filter: { status: 'pending' }, action: 'setStatus', status: 'closed' });
    expect([tooMany.statusCode, (tooMany.json() as { code: string }).code]).toEqual([422, 'BULK_TOO_LARGE']);
    const first = ids.slice(0, 10_000);
    expect(await changed(await bulk('notes', { ids: first, action: 'setStatus', status: 'closed' }))).toBe(10_000);
    const counts = await db().selectFrom('svc_submissions').select(['status', (eb) => eb.fn.countAll<string | number>().as('n')]).where('id', 'in', ids).groupBy('status').orderBy('status').execute();
    expect(counts.map((c) => [c.status, Number(c.n)])).toEqual([['closed', 10_000], ['pending', 1]]);
    const audited = await db().selectFrom('svc_audit_log').select((eb) => eb.fn.countAll<string | number>().as('n')).where('action', '=', 'submission.update').where('form_handle', '=', 'notes').executeTakeFirstOrThrow();
    expect(Number(audited.n)).toBe(10_000);
    // And back through the filter form: what it matches now is within the cap.
    expect(await changed(await bulk('notes', { filter: { status: 'closed', from: '2025-01-01', to: '2025-12-31' }, action: 'delete' }))).toBe(10_000);
    expect(await statusOf(ids)).toEqual([[ids[10_000], 'pending', 0]]);
  });
});
