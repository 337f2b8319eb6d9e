/**
 * The site owners' console, first part (issue #15): sign-in with a console user or an admin API
 * key, an HttpOnly SameSite=Strict session cookie (the session is kept on the server:
 * console-sessions.test.ts), sign-out with CSRF, repeated wrong passwords slowed then refused,
 * and the forms overview with counts and a 30-day chart, drawn under a CSP that allows nothing
 * inline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { hashPassword } from '../src/console/console-passwords.js';
import { sql } from 'kysely';
import { encodeCursor } from '../src/submissions/submission-search.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const PASSWORD = 'correct horse battery staple';
const API_KEY = 'console-test-api-key-0123456789';
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

function cookiesOf(res: LightMyRequestResponse): Record<string, string> {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return Object.fromEntries(list.map((c) => [c.split('=')[0] as string, c]));
}
const valueOf = (setCookie: string | undefined) => (setCookie ?? '').split(';')[0]?.split('=').slice(1).join('=') ?? '';

async function configFor(passwordHash: string) {
  return {
    admin: {
      users: [
        { username: 'kim', passwordHash, scopes: ['read'], forms: ['contact'] },
        { username: 'lee', passwordHash, scopes: ['read', 'write'], forms: ['*'] },
      ],
      keys: [{ name: 'ops', sha256: sha(API_KEY), scopes: ['read', 'write'], forms: ['*'] }],
    },
  };
}

describe('console sign-in and the forms overview', () => {
  let svc: TestApp;
  let hash: string;
  beforeAll(async () => {
    hash = await hashPassword(PASSWORD);
    svc = await createTestApp({ config: await configFor(hash) });
  });
  afterAll(async () => {
    await svc?.close();
  });

  async function signIn(fields: Record<string, string>, origin?: string) {
    const page = await svc.app.inject({ method: 'GET', url: '/svc/console/sign-in' });
    const pre = valueOf(cookiesOf(page)['svc_console_pre']);
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    return svc.app.inject({
      method: 'POST',
      url: '/svc/console/sign-in',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `svc_console_pre=${pre}`, ...(origin ? { origin } : {}) },
      payload: new URLSearchParams({ csrf, ...fields }).toString(),
    });
  }

  it('sends a visitor without a session to the sign-in page, drawn under a strict CSP', async () => {
    const home = await svc.app.inject({ method: 'GET', url: '/svc/console/' });
    expect([home.statusCode, home.headers.location]).toEqual([303, '/svc/console/sign-in']);
    const page = await svc.app.inject({ method: 'GET', url: '/svc/console/sign-in' });
    expect(page.statusCode).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.body).not.toMatch(/<script|style=/);
    expect(cookiesOf(page)['svc_console_pre']).toMatch(/HttpOnly; SameSite=Strict/);
  });

  it('signs a user in with an HttpOnly SameSite=Strict session cookie and shows only the forms it may see', async () => {
    const res = await signIn({ username: 'kim', password: PASSWORD });
    expect([res.statusCode, res.headers.location]).toEqual([303, '/svc/console/']);
    const session = cookiesOf(res)['svc_console'];
    expect(session).toMatch(/^svc_console=[^;]+; Path=\/svc\/console; HttpOnly; SameSite=Strict/);
    const { token, cookie } = await svc.csrf();
    await svc.app.inject({ method: 'POST', url: '/svc/api/forms/contact/submit', headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie }, payload: JSON.stringify({ intent: 'submit', values: { firstName: 'Ann', email: 'ann@example.test' }, meta: await svc.meta('contact') }) });
    const home = await svc.app.inject({ method: 'GET', url: '/svc/console/', headers: { cookie: `svc_console=${valueOf(session)}` } });
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('Contact');
    expect(home.body).not.toContain('Kitchen sink');
    expect(home.body).toMatch(/aria-label="1 submissions and 0 spam in the last 30 days"/);
    expect(home.body).toMatch(/<td>1<\/td><td>0<\/td>/);
    // The idle clock moves on in the session's row; the cookie, a random id, stays as it is.
    expect(cookiesOf(home)['svc_console']).toBeUndefined();
  });

  it('signs an API key in too, and refuses a wrong password with the same words whether the user exists or not', async () => {
    const key = await signIn({ apiKey: API_KEY });
    expect(key.statusCode).toBe(303);
    const home = await svc.app.inject({ method: 'GET', url: '/svc/console/', headers: { cookie: `svc_console=${valueOf(cookiesOf(key)['svc_console'])}` } });
    expect(home.body).toContain('Kitchen sink');
    const wrong = await signIn({ username: 'kim', password: 'not it' });
    const nobody = await signIn({ username: 'nobody', password: 'not it' });
    expect([wrong.statusCode, nobody.statusCode]).toEqual([401, 401]);
    expect(wrong.body).toContain('did not match');
    expect(nobody.body).toContain('did not match');
    expect(cookiesOf(wrong)['svc_console']).toBeUndefined();
  });

  it('refuses a sign-in posted from another origin or without the form token', async () => {
    expect((await signIn({ username: 'kim', password: PASSWORD }, 'https://evil.example')).statusCode).toBe(403);
    const bare = await svc.app.inject({ method: 'POST', url: '/svc/console/sign-in', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `username=kim&password=${encodeURIComponent(PASSWORD)}` });
    expect(bare.statusCode).toBe(400);
    expect(cookiesOf(bare)['svc_console']).toBeUndefined();
  });

  it('signs out only with the session CSRF token, clearing the cookie', async () => {
    const res = await signIn({ username: 'kim', password: PASSWORD });
    const cookie = `svc_console=${valueOf(cookiesOf(res)['svc_console'])}`;
    const home = await svc.app.inject({ method: 'GET', url: '/svc/console/', headers: { cookie } });
    const csrf = /name="csrf" value="([^"]+)"/.exec(home.body)?.[1] ?? '';
    const forged = await svc.app.inject({ method: 'POST', url: '/svc/console/sign-out', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie }, payload: 'csrf=nope' });
    expect(forged.statusCode).toBe(400);
    const out = await svc.app.inject({ method: 'POST', url: '/svc/console/sign-out', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie }, payload: `csrf=${encodeURIComponent(csrf)}` });
    expect([out.statusCode, out.headers.location]).toEqual([303, '/svc/console/sign-in']);
    expect(cookiesOf(out)['svc_console']).toMatch(/Max-Age=0/);
  });
});

describe('console submissions', () => {
  let svc: TestApp;
  let kim: string;
  let lee: string;
  let id: number;
  beforeAll(async () => {
    svc = await createTestApp({ config: await configFor(await hashPassword(PASSWORD)) });
    const signIn = async (username: string) => {
      const page = await svc.app.inject({ method: 'GET', url: '/svc/console/sign-in' });
      const pre = valueOf(cookiesOf(page)['svc_console_pre']);
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
      const res = await svc.app.inject({ method: 'POST', url: '/svc/console/sign-in', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `svc_console_pre=${pre}` }, payload: new URLSearchParams({ csrf, username, password: PASSWORD }).toString() });
      return `svc_console=${valueOf(cookiesOf(res)['svc_console'])}`;
    };
    kim = await signIn('kim');
    lee = await signIn('lee');
    const { token, cookie } = await svc.csrf();
    const values = { firstName: '<script>alert(1)</script>', lastName: '\u202Eevil', email: 'ann@example.test', message: '=HYPERLINK("x")' };
    const res = await svc.app.inject({ method: 'POST', url: '/svc/api/forms/contact/submit', headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie }, payload: JSON.stringify({ intent: 'submit', values, meta: await svc.meta('contact') }) });
    id = res.json<{ submission: { id: number } }>().submission.id;
  });
  afterAll(async () => {
    await svc?.close();
  });
  const get = (url: string, cookie: string) => svc.app.inject({ method: 'GET', url, headers: { cookie } });
  const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

  it("lists a form's submissions with the chosen columns, a count and search, drawing values as text", async () => {
    const list = await get('/svc/console/forms/contact?columns=firstName&columns=message', kim);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.body).toContain('1 matching submission(s)');
    expect(list.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(list.body).not.toContain('<script>alert(1)');
    expect(list.body).toContain('=HYPERLINK(&quot;x&quot;)');
    expect((await get('/svc/console/forms/contact?q=nobody-has-this', kim)).body).toContain('0 matching submission(s)');
    expect((await get('/svc/console/forms/kitchen-sink', kim)).statusCode).toBe(404);
  });

  it('offers export progress from a script file only: no inline script, the count on the links, plain downloads without it', async () => {
    const list = await get('/svc/console/forms/contact', kim);
    const csp = String(list.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const scripts = [...list.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    // Every script is a file of the console's own, with nothing inline (the export's, the shortcuts', issue #35's bulk selection).
    expect(scripts.filter((m) => !/^ src="\/svc\/console\/[\w-]+\.js" defer$/.test(m[1] ?? '') || m[2] !== '')).toEqual([]);
    expect(scripts.map((m) => m[1])).toEqual(expect.arrayContaining([' src="/svc/console/console-export.js" defer', ' src="/svc/console/console-shortcuts.js" defer']));
    expect(list.body).toMatch(/<a href="[^"]*\/export\?[^"]*format=csv[^"]*" download data-export data-count="1">/);
    expect(list.body).toMatch(/<progress id="export-bar"/);
    const script = await svc.app.inject({ method: 'GET', url: '/svc/console/console-export.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toContain('getReader()');
    // It parses as a script (the browser suite runs it on 100,000 rows).
    expect(() => new Function(script.body)).not.toThrow();
  });

  it('shows one submission by field; a reader gets no write controls and the server refuses its writes anyway', async () => {
    const page = await get(`/svc/console/submissions/${id}`, kim);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('ann@example.test');
    expect(page.body).not.toContain('name="status"');
    const refused = await svc.app.inject({ method: 'POST', url: `/svc/console/submissions/${id}`, headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: kim }, payload: new URLSearchParams({ csrf: csrfOf(page.body), status: 'closed' }).toString() });
    expect(refused.statusCode).toBe(403);
  });

  it('exports the current filter as CSV or JSON Lines (audited), lists dead letters with resend, and shows the audit log', async () => {
    const list = await get('/svc/console/forms/contact', lee);
    const exportLink = /href="([^"]*\/export\?[^"]*format=csv[^"]*)"/.exec(list.body)?.[1]?.replaceAll('&amp;', '&') ?? '';
    expect(exportLink).toContain('bom=true');
    const csv = await get(exportLink, lee);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="contact-\d{4}-\d\d-\d\d\.csv"/);
    expect(csv.body).toContain("'=HYPERLINK");
    expect((await get('/svc/console/forms/contact/export?format=jsonl', lee)).body).toContain('"firstName":"<script>alert(1)</script>"');

    const db = svc.context.database.db;
    const [job] = await db.selectFrom('svc_deliveries').select('id').where('submission_id', '=', id).execute();
    await db.updateTable('svc_deliveries').set({ status: 'dead', last_error: 'SMTP said <no>' }).where('id', '=', job!.id).execute();
    const dead = await get('/svc/console/deliveries', lee);
    expect(dead.body).toContain('SMTP said &lt;no&gt;');
    expect((await get('/svc/console/deliveries', kim)).body).not.toContain('name="csrf" value="" ');
    const api = await svc.app.inject({ method: 'GET', url: '/svc/api/admin/deliveries/dead', headers: { authorization: `Bearer ${API_KEY}` } });
    expect(api.json().data).toEqual([expect.objectContaining({ id: job!.id, form: 'contact', submissionId: id, lastError: 'SMTP said <no>' })]);
    const resend = await svc.app.inject({ method: 'POST', url: `/svc/console/deliveries/${job!.id}/resend`, headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: lee }, payload: new URLSearchParams({ csrf: csrfOf(dead.body) }).toString() });
    expect([resend.statusCode, resend.headers.location]).toEqual([303, '/svc/console/deliveries']);
    expect((await db.selectFrom('svc_deliveries').select('status').where('id', '=', job!.id).executeTakeFirstOrThrow()).status).toBe('pending');

    const audit = await get('/svc/console/audit', lee);
    expect(audit.body).toContain('user:lee');
    expect(audit.body).toContain('sign-in');
    expect(audit.body).toContain('delivery.resend');
    expect(audit.body).toContain('export');
  });

  it('lets a writer change the status (audited as the user) and delete with confirmation; a stale link then says so', async () => {
    const page = await get(`/svc/console/submissions/${id}`, lee);
    const csrf = csrfOf(page.body);
    const post = (url: string, fields: Record<string, string>) =>
      svc.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: lee }, payload: new URLSearchParams({ csrf, ...fields }).toString() });
    expect((await post(`/svc/console/submissions/${id}`, { status: 'closed' })).statusCode).toBe(303);
    const audit = await svc.context.database.db.selectFrom('svc_audit_log').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ actor: 'user:lee', action: 'submission.update', target: `submission:${id}` });
    expect((await post(`/svc/console/submissions/${id}/delete`, {})).statusCode).toBe(400);
    expect((await post(`/svc/console/submissions/${id}`, { status: 'closed', csrf: 'forged' })).statusCode).toBe(400);
    const deleted = await post(`/svc/console/submissions/${id}/delete`, { confirm: 'yes' });
    expect([deleted.statusCode, deleted.headers.location]).toEqual([303, '/svc/console/forms/contact']);
    const stale = await get(`/svc/console/submissions/${id}`, lee);
    expect(stale.statusCode).toBe(404);
    expect(stale.body).toContain('does not exist any more');
  });
});

describe('console at 100,000 submissions (SQLite)', () => {
  it('draws the first page and a page near the end of the table quickly (times printed, not asserted)', async () => {
    const svc = await createTestApp({ config: await configFor(await hashPassword(PASSWORD)) });
    try {
      const form = svc.context.forms.get('contact')!;
      // 100,000 rows in one statement: a recursive count, one row each, a minute apart.
      await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
        INSERT INTO svc_submissions (uid, form_id, token_hash, title, status, is_spam, spam_reasons, ip, "values", finished, created_at, updated_at)
        SELECT 'u' || i, ${form.id}, 'h' || i, 'Person ' || i, 'open', 0, '[]', NULL, '{"firstName":"Person ' || i || '","email":"p' || i || '@example.test"}', 1,
          strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || i || ' minutes'), strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || i || ' minutes')
        FROM n`.execute(svc.context.database.db);
      const page = await svc.app.inject({ method: 'GET', url: '/svc/console/sign-in' });
      const pre = valueOf(cookiesOf(page)['svc_console_pre']);
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
      const signed = await svc.app.inject({ method: 'POST', url: '/svc/console/sign-in', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `svc_console_pre=${pre}` }, payload: new URLSearchParams({ csrf, username: 'lee', password: PASSWORD }).toString() });
      const cookie = `svc_console=${valueOf(cookiesOf(signed)['svc_console'])}`;
      const timed = async (url: string) => {
        const started = performance.now();
        const res = await svc.app.inject({ method: 'GET', url, headers: { cookie } });
        expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
        return { ms: performance.now() - started, body: res.body };
      };
      await timed('/svc/console/forms/contact');
      const first = await timed('/svc/console/forms/contact');
      expect(first.body).toContain('100000 matching submission(s)');
      const near = await svc.context.database.db.selectFrom('svc_submissions').select(['id', 'created_at']).where('form_id', '=', form.id).orderBy('created_at', 'asc').orderBy('id', 'asc').offset(49).limit(1).executeTakeFirstOrThrow();
      const cursor = encodeCursor({ key: 'createdAt', direction: 'desc' }, { createdAt: near.created_at, id: near.id });
      const last = await timed(`/svc/console/forms/contact?cursor=${cursor}`);
      expect(last.body).toContain('Person 1<');
      const oldest = await timed('/svc/console/forms/contact?order=asc');
      expect(oldest.body.indexOf('>Person 1<')).toBeGreaterThan(0);
      expect(oldest.body.indexOf('>Person 1<')).toBeLessThan(oldest.body.indexOf('>Person 2<'));
      const search = await timed('/svc/console/forms/contact?q=Person%2099999');
      console.info(`[console 100k] first page ${first.ms.toFixed(1)} ms, a page at the end ${last.ms.toFixed(1)} ms, a search ${search.ms.toFixed(1)} ms`);
    } finally {
      await svc.close();
    }
  }, 120_000);
});

describe('console users in config', () => {
  it('refuses a password given in clear instead of its hash, at boot', async () => {
    await expect(createTestApp({ config: { admin: { users: [{ username: 'kim', passwordHash: 'hunter2', scopes: ['read'], forms: ['*'] }] } } })).rejects.toThrow(/passwordHash/);
  });
});
