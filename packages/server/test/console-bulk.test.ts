/**
 * The console's bulk actions and spam folder (issue #35 items 1 and 4), through HTTP as a browser
 * posts them: labelled row checkboxes and the bulk bar on the list, Apply drawing a confirmation
 * page that changes nothing, Confirm changing exactly the rows ticked (or all the filter matches)
 * with a flash, the selection exported as CSV, writes refused without the session's CSRF token or
 * write scope; the spam folder per form and across forms with reasons, counts by reason, the
 * retention rule from the config and a one-click "Not spam".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { hashPassword } from '../src/console/console-passwords.js';
import { insertSubmissions, type NewSubmission } from '../src/submissions/submission-repository.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const PASSWORD = 'correct horse battery staple';
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

function cookiesOf(res: LightMyRequestResponse): Record<string, string> {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return Object.fromEntries(list.map((c) => [c.split('=')[0] as string, c.split(';')[0] as string]));
}

describe('console bulk actions and the spam folder', () => {
  let svc: TestApp;
  let lee: string;
  let kim: string;
  const now = Date.parse('2026-11-20T12:00:00Z');

  beforeAll(async () => {
    const passwordHash = await hashPassword(PASSWORD);
    svc = await createTestApp({
      now: () => new Date(now),
      config: {
        retention: { spamPurgeAfterDays: 14 },
        admin: {
          users: [
            { username: 'kim', passwordHash, scopes: ['read'], forms: ['*'] },
            { username: 'lee', passwordHash, scopes: ['read', 'write'], forms: ['*'] },
          ],
        },
      },
    });
    const signIn = async (username: string) => {
      const page = await svc.app.inject({ method: 'GET', url: '/svc/console/sign-in' });
      const pre = cookiesOf(page)['svc_console_pre'] ?? '';
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
      const res = await svc.app.inject({ method: 'POST', url: '/svc/console/sign-in', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: pre }, payload: new URLSearchParams({ csrf, username, password: PASSWORD }).toString() });
      return cookiesOf(res)['svc_console'] ?? '';
    };
    lee = await signIn('lee');
    kim = await signIn('kim');
  });
  afterAll(async () => {
    await svc?.close();
  });

  const db = () => svc.context.database.db;
  async function seed(n: number, row: Partial<NewSubmission> = {}): Promise<number[]> {
    const form = svc.context.forms.get('contact');
    if (!form) throw new Error('no contact form');
    return insertSubmissions(
      db(),
      Array.from({ length: n }, (_v, i) => ({
        uid: randomUUID(),
        formId: form.id,
        tokenHash: sha(randomUUID()),
        title: `Person ${i}`,
        status: 'open',
        isSpam: false,
        spamReasons: [],
        ip: null,
        values: { firstName: `Person ${i}`, email: `p${i}@example.test` },
        createdAt: new Date(now - (i + 1) * 3_600_000).toISOString(),
        ...row,
      })),
    );
  }
  const get = (url: string, cookie = lee) => svc.app.inject({ method: 'GET', url, headers: { cookie } });
  const csrfOf = async (cookie = lee) => /name="csrf" value="([^"]+)"/.exec((await get('/svc/console/', cookie)).body)?.[1] ?? '';
  const post = async (url: string, fields: Record<string, string>, cookie = lee) =>
    svc.app.inject({ method: 'POST', url, headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ csrf: await csrfOf(cookie), ...fields }).toString() });
  const states = async (ids: readonly number[]) => (await db().selectFrom('svc_submissions').select(['id', 'status', 'is_spam']).where('id', 'in', ids).orderBy('id').execute()).map((r) => `${r.status}/${Number(r.is_spam)}`);

  it('draws a labelled checkbox per row and the bulk bar, with the script as a file', async () => {
    const [id] = await seed(1, { title: 'Ann <b>Lee</b>' });
    const page = await get('/svc/console/forms/contact');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<input type="checkbox" form="bulk-form" name="id.${id}" value="${id}" id="pick-${id}" aria-label="Select Ann &lt;b&gt;Lee&lt;/b&gt;">`);
    expect(page.body).toMatch(/<form id="bulk-form" class="bulk" method="post" action="\/svc\/console\/forms\/contact\/bulk"/);
    expect(page.body).toMatch(/all \d+ matching this filter/);
    expect(page.body).toContain('<script src="/svc/console/console-bulk.js" defer></script>');
    expect(page.body).not.toMatch(/<script>|style=|onclick/);
    const script = await get('/svc/console/console-bulk.js');
    expect([script.statusCode, script.headers['content-type']]).toEqual([200, 'text/javascript; charset=utf-8']);
  });

  it('confirms before it changes anything, then changes exactly the ticked rows with a flash', async () => {
    const ids = await seed(3);
    const [a, b, c] = ids as [number, number, number];
    const apply = await post('/svc/console/forms/contact/bulk', { action: 'setStatus', status: 'closed', scope: 'selected', [`id.${a}`]: String(a), [`id.${c}`]: String(c), back: '/svc/console/forms/contact?status=open' });
    expect(apply.statusCode).toBe(200);
    expect(apply.body).toContain('Change the status of 2 selected submission(s) of Contact to “closed”?');
    expect(apply.body).toContain('action="/svc/console/forms/contact/bulk/apply"');
    expect(await states(ids)).toEqual(['open/0', 'open/0', 'open/0']);
    const confirm = /<form method="post" action="\/svc\/console\/forms\/contact\/bulk\/apply">(.*?)<\/form>/s.exec(apply.body)?.[1] ?? '';
    const fields = Object.fromEntries([...confirm.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], (m[2] ?? '').replace(/&amp;/g, '&')]));
    const done = await svc.app.inject({ method: 'POST', url: '/svc/console/forms/contact/bulk/apply', headers: { cookie: lee, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });
    expect([done.statusCode, done.headers.location]).toEqual([303, '/svc/console/forms/contact?status=open']);
    expect(await states(ids)).toEqual(['closed/0', 'open/0', 'closed/0']);
    const next = await svc.app.inject({ method: 'GET', url: '/svc/console/forms/contact', headers: { cookie: `${lee}; ${cookiesOf(done)['svc_console_flash']}` } });
    expect(next.body).toContain('<p class="flash" role="status">2 submission(s) changed to closed.</p>');
    const audit = await db().selectFrom('svc_audit_log').select(['actor', 'target']).where('target', 'in', [`submission:${a}`, `submission:${b}`, `submission:${c}`]).execute();
    expect(audit.map((r) => [r.actor, r.target]).sort()).toEqual([['user:lee', `submission:${a}`], ['user:lee', `submission:${c}`]]);
  });

  it('acts on everything the filter matches, showing the count first', async () => {
    const ids = await seed(4, { status: 'pending', title: 'Filter me' });
    const apply = await post('/svc/console/forms/contact/bulk', { action: 'markSpam', scope: 'all', 'filter.q': 'Filter me', 'filter.status': 'pending' });
    expect(apply.body).toContain('Mark all 4 submission(s) of Contact matching this filter as spam?');
    expect(await states(ids)).toEqual(['pending/0', 'pending/0', 'pending/0', 'pending/0']);
    const done = await post('/svc/console/forms/contact/bulk/apply', { action: 'markSpam', scope: 'all', 'filter.q': 'Filter me', 'filter.status': 'pending' });
    expect(done.statusCode).toBe(303);
    expect(await states(ids)).toEqual(['pending/1', 'pending/1', 'pending/1', 'pending/1']);
  });

  it('deletes the ticked rows after the confirmation, and sends nowhere but a console page', async () => {
    const ids = await seed(2);
    const done = await post('/svc/console/forms/contact/bulk/apply', { action: 'delete', scope: 'selected', [`id.${ids[0]}`]: String(ids[0]), back: 'https://evil.example/' });
    expect([done.statusCode, done.headers.location]).toEqual([303, '/svc/console/forms/contact']);
    expect(await states(ids)).toEqual(['open/0']);
  });

  it('exports the ticked rows as CSV for a read-only user, without a confirmation', async () => {
    const ids = await seed(3, { title: 'Export me' });
    const res = await post('/svc/console/forms/contact/bulk', { action: 'export', scope: 'selected', [`id.${ids[0]}`]: String(ids[0]), [`id.${ids[2]}`]: String(ids[2]) }, kim);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="contact-/);
    const lines = res.body.replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    expect(lines).toHaveLength(3);
    // Oldest first, as every export: the third was made two hours before the first.
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual([String(ids[2]), String(ids[0])]);
  });

  it('refuses a bulk change without the CSRF token, or from a read-only user', async () => {
    const ids = await seed(1);
    const forged = await svc.app.inject({ method: 'POST', url: '/svc/console/forms/contact/bulk/apply', headers: { cookie: lee, 'content-type': 'application/x-www-form-urlencoded' }, payload: `csrf=nope&action=delete&scope=selected&id.${ids[0]}=${ids[0]}` });
    expect(forged.statusCode).toBe(400);
    const reader = await post('/svc/console/forms/contact/bulk/apply', { action: 'delete', scope: 'selected', [`id.${ids[0]}`]: String(ids[0]) }, kim);
    expect(reader.statusCode).toBe(403);
    expect((await get('/svc/console/forms/contact', kim)).body).not.toContain('Delete with files');
    expect(await states(ids)).toEqual(['open/0']);
  });

  it('shows a form’s spam with its reasons, counts by reason, the retention rule, and takes one out with a click', async () => {
    const spam = await seed(2, { isSpam: true, spamReasons: ['honeypot', 'fill_time'], title: 'Cheap pills' });
    await seed(1, { isSpam: true, spamReasons: ['blocked_keyword'], title: 'Casino' });
    const page = await get('/svc/console/forms/contact/spam');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('honeypot filled in, filled in too fast');
    expect(page.body).toContain('retention.spamPurgeAfterDays: 14');
    expect(page.body).toMatch(/<svg class="spam-chart"[^>]*role="img"/);
    // The table under the chart: per day, a column per reason, the day's total last.
    expect(page.body).toMatch(/<th scope="row">2026-11-20<\/th>(<td>\d+<\/td>)+/);
    expect(page.body).toContain('<th scope="col">blocked keyword</th>');
    expect(page.body).toContain(`action="/svc/console/spam/${spam[0]}/not-spam"`);
    const res = await post(`/svc/console/spam/${spam[0]}/not-spam`, { back: '/svc/console/forms/contact/spam' });
    expect([res.statusCode, res.headers.location]).toEqual([303, '/svc/console/forms/contact/spam']);
    expect(await states([spam[0] as number])).toEqual(['open/0']);
    const across = await get('/svc/console/spam');
    expect(across.statusCode).toBe(200);
    expect(across.body).toContain('Spam · all forms');
    expect(across.body).toContain('href="/svc/console/forms/contact/spam"');
    expect(across.body).toContain('Casino');
  });

  it('bulk-deletes all of a form’s spam from its folder', async () => {
    const apply = await post('/svc/console/forms/contact/bulk', { action: 'delete', scope: 'all', 'filter.spam': 'true' });
    expect(apply.body).toMatch(/Delete all \d+ submission\(s\) of Contact matching this filter, with their files, for good\?/);
    const done = await post('/svc/console/forms/contact/bulk/apply', { action: 'delete', scope: 'all', 'filter.spam': 'true', back: '/svc/console/forms/contact/spam' });
    expect([done.statusCode, done.headers.location]).toEqual([303, '/svc/console/forms/contact/spam']);
    const left = await db().selectFrom('svc_submissions').select('id').where('is_spam', '=', 1).execute();
    expect(left).toEqual([]);
  });
});
