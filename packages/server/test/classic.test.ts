/**
 * Classic rendering (issue #14, contract §10, interface.md §2.10 and §4.7): the form-properties
 * JSON, and plain HTML forms posted form-encoded or multipart to /svc/submit, answered with JSON
 * for scripts and 303 redirects for browsers, on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEachDialect } from './support/dialects.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { createPaymentFixture } from './support/payment-fixture.js';
import { multipartBody } from './support/multipart-body.js';
import { paddedPdf } from './support/sample-files.js';
import { findSubmission } from '../src/submissions/submission-repository.js';

const SITE = 'http://localhost:5173';
const PAGE = `${SITE}/contact`;
const PERSON = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.test', message: 'Hello from a plain form' };

type Properties = Record<string, any>;

describeEachDialect('classic rendering', (target) => {
  let svc: TestApp;
  beforeAll(async () => {
    svc = await createTestApp({
      config: {
        database: { url: target.url() },
        headless: { forms: { 'job-application': { exposeManifest: true, allowSubmit: true } } },
        sites: [{ handle: 'default', language: 'en-US', default: true }, { handle: 'de', language: 'de-DE' }],
      },
    });
  });
  afterAll(async () => {
    await svc?.close();
  });

  async function properties(handle: string, query = ''): Promise<Properties> {
    const res = await svc.app.inject({ method: 'GET', url: `/svc/api/forms/${handle}/properties${query}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return res.json<Properties>();
  }

  /** The entries a rendered page posts: action, formHash, payload, CSRF, honeypot, then the fields. */
  function entriesOf(props: Properties, fields: Record<string, string | readonly string[]>, extra: [string, string][] = []): [string, string][] {
    const out: [string, string][] = [['action', props.action], ['formHash', props.hash]];
    if (props.svc_payload !== undefined) out.push(['svc_payload', props.svc_payload]);
    if (props.csrf) out.push([props.csrf.name, props.csrf.token]);
    if (props.honeypot) out.push([props.honeypot.name, props.honeypot.value]);
    for (const [name, value] of Object.entries(fields)) {
      if (typeof value === 'string') out.push([name, value]);
      else for (const item of value) out.push([`${name}[]`, item]);
    }
    return [...out, ...extra];
  }

  function post(entries: [string, string][], headers: Record<string, string> = {}, url = '/svc/submit') {
    return svc.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: SITE, referer: PAGE, ...headers },
      payload: new URLSearchParams(entries).toString(),
    });
  }

  async function count(handle: string): Promise<number> {
    const form = svc.context.forms.get(handle)!;
    const row = await svc.context.database.db.selectFrom('svc_submissions').select((eb) => eb.fn.countAll<number>().as('n')).where('form_id', '=', form.id).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  describe('the properties JSON', () => {
    it('carries every key of interface.md §2.10 under its own name, and the page to draw', async () => {
      const props = await properties('contact');
      for (const key of ['hash', 'handle', 'ajax', 'ajaxEnabled', 'disableSubmit', 'disableReset', 'showSpinner', 'showLoadingText', 'loadingText', 'class', 'method', 'enctype', 'successMessage', 'errorMessage', 'honeypot', 'svc_payload', 'anchor', 'csrf', 'action']) {
        expect(props, key).toHaveProperty(key);
      }
      expect(props).toMatchObject({
        handle: 'contact',
        method: 'post',
        enctype: 'application/x-www-form-urlencoded',
        action: 'svc/submit',
        actionUrl: '/svc/submit',
        honeypot: { name: expect.any(String), value: '' },
        csrf: { name: 'SVC_CSRF_TOKEN', token: expect.any(String) },
        successMessage: 'Thanks, we got your message.',
        pageCount: 1,
        values: {},
        errors: {},
      });
      expect(props.captcha).toBeUndefined();
      expect(Object.keys(props.page.fields)).toEqual(['firstName', 'lastName', 'email', 'message']);
      expect(props.page.fields.email).toMatchObject({ handle: 'email', required: true, label: 'Email' });
    });

    it('says multipart for a page with a file field, and gives a fresh payload to every visitor', async () => {
      const first = await properties('job-application');
      expect(first.enctype).toBe('multipart/form-data');
      expect(first.pageCount).toBe(2);
      const second = await properties('job-application');
      expect(second.svc_payload).not.toBe(first.svc_payload);
      const session = await svc.app.inject({ method: 'GET', url: '/svc/api/forms/job-application/properties/session' });
      expect(session.headers['cache-control']).toBe('no-store');
      expect(Object.keys(session.json()).sort()).toEqual(['csrf', 'hash', 'honeypot', 'svc_payload']);
    });
  });

  describe('a plain form post', () => {
    it('stores a valid post and sends the browser back to its page with the success shown once', async () => {
      const before = await count('contact');
      const res = await post(entriesOf(await properties('contact'), PERSON));
      expect(res.statusCode, res.body).toBe(303);
      const location = new URL(res.headers.location as string);
      expect(location.origin + location.pathname).toBe(PAGE);
      expect(location.hash).toBe('#contact-form');
      expect(await count('contact')).toBe(before + 1);
      const flash = location.searchParams.get('svc_flash')!;
      const shown = await properties('contact', `?flash=${flash}`);
      expect(shown).toMatchObject({ finished: true, message: 'Thanks, we got your message.', submissionId: expect.any(Number) });
      // Exactly once: the key is spent.
      const again = await properties('contact', `?flash=${flash}`);
      expect(again).toMatchObject({ finished: false, warnings: ['flash_not_found'] });
    });

    // issue #34: a page drawn from a site's properties posts to /svc/submit?site=<handle>.
    it('draws and answers a post on a site in its language, and records the site', async () => {
      const props = await properties('contact', '?site=de');
      expect(JSON.stringify(props)).toContain('Vorname');
      const invalid = await post(entriesOf(props, { ...PERSON, email: 'keine Adresse' }), { accept: 'application/json' }, '/svc/submit?site=de');
      expect(invalid.json()).toMatchObject({ success: false, errors: { email: ['Geben Sie eine gültige E-Mail-Adresse ein'] } });
      const valid = await post(entriesOf(await properties('contact', '?site=de'), PERSON), { accept: 'application/json' }, '/svc/submit?site=de');
      expect(valid.json()).toMatchObject({ success: true, message: 'Danke, wir haben Ihre Nachricht erhalten.' });
      const row = await svc.context.database.db.selectFrom('svc_submissions').select('site').where('id', '=', valid.json().submissionId).executeTakeFirstOrThrow();
      expect(row.site).toBe('de');
    });

    it('answers a script with JSON (Accept or X-Requested-With) in the keys a Freeform ajax client reads', async () => {
      const res = await post(entriesOf(await properties('contact'), PERSON), { 'x-requested-with': 'XMLHttpRequest' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ success: true, finished: true, submissionId: expect.any(Number), submissionToken: expect.any(String), errors: {}, formErrors: [], svc_payload: null });
      const invalid = await post(entriesOf(await properties('contact'), { ...PERSON, email: 'not an email' }), { accept: 'application/json' });
      expect(invalid.statusCode).toBe(200);
      expect(invalid.json()).toMatchObject({ success: false, finished: false, errors: { email: [expect.any(String)] }, svc_payload: expect.any(String) });
    });

    it('sends a refused post back with the posted values and the errors, shown exactly once', async () => {
      const before = await count('contact');
      const res = await post(entriesOf(await properties('contact'), { ...PERSON, email: '<b>nope</b>' }));
      expect(res.statusCode).toBe(303);
      expect(await count('contact')).toBe(before);
      const flash = new URL(res.headers.location as string).searchParams.get('svc_flash')!;
      const shown = await properties('contact', `?flash=${flash}`);
      expect(shown.values).toMatchObject({ email: '<b>nope</b>', firstName: 'Ann' });
      expect(shown.errors.email).toHaveLength(1);
      expect(shown.formErrors).toEqual(['Please correct the errors below.']);
      // The page posts again with the payload it was handed, and succeeds.
      const fixed = await post(entriesOf(shown, PERSON));
      expect(fixed.statusCode).toBe(303);
      expect(await count('contact')).toBe(before + 1);
    });

    it('honours a formReturnUrl only as svc signed it, and signs only URLs on origins the form allows', async () => {
      const asked = await svc.app.inject({ method: 'GET', url: `/svc/api/forms/contact/properties?returnUrl=${encodeURIComponent(`${SITE}/thanks?id={id}`)}` });
      const props = asked.json<Properties>();
      expect(props.formReturnUrl).toEqual(expect.any(String));
      const res = await post(entriesOf(props, PERSON, [['formReturnUrl', props.formReturnUrl]]));
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toMatch(new RegExp(`^${SITE}/thanks\\?id=\\d+$`));
      const forged = Buffer.from('https://evil.example/x').toString('base64url') + '.' + String(props.formReturnUrl).split('.')[1];
      const before = await count('contact');
      const refused = await post(entriesOf(await properties('contact'), PERSON, [['formReturnUrl', forged]]), { accept: 'application/json' });
      expect(refused.json()).toMatchObject({ code: 'PAYLOAD_TAMPERED' });
      expect(await count('contact')).toBe(before);
      const elsewhere = await svc.app.inject({ method: 'GET', url: `/svc/api/forms/contact/properties?returnUrl=${encodeURIComponent('https://evil.example/x')}` });
      expect([elsewhere.statusCode, elsewhere.json().code]).toEqual([400, 'PAYLOAD_INVALID']);
    });

    it('a replayed final post stores one submission', async () => {
      const before = await count('contact');
      const entries = entriesOf(await properties('contact'), PERSON);
      const answers = await Promise.all([post(entries, { accept: 'application/json' }), post(entries, { accept: 'application/json' })]);
      expect(answers.map((a) => a.json().submissionId), answers.map((a) => a.body).join('\n')).toEqual([answers[0]!.json().submissionId, answers[0]!.json().submissionId]);
      expect(await post(entries, { accept: 'application/json' }).then((a) => a.json().submissionId)).toBe(answers[0]!.json().submissionId);
      expect(await count('contact')).toBe(before + 1);
    });

    it('takes the post at any svc path whose body says action=svc/submit, and drops undeclared entries', async () => {
      const before = await count('contact');
      const res = await post(entriesOf(await properties('contact'), PERSON, [['isAdmin', '1'], ['id', '7']]), { accept: 'application/json' }, '/svc/forms/contact/send');
      expect(res.json()).toMatchObject({ success: true });
      expect(await count('contact')).toBe(before + 1);
      const row = await findSubmission(svc.context.database.db, res.json().submissionId, svc.context.sealer);
      expect(Object.keys(row?.values ?? { missing: true })).not.toContain('isAdmin');
      expect(row?.values).toBeDefined();
      // Without the action entry another path is simply not found.
      const other = await post([['firstName', 'x']], {}, '/svc/forms/contact/send');
      expect(other.statusCode).toBe(404);
    });

    it.each(['/', '/some/page'])('takes the post at %s, outside /svc/, as at /svc/submit: JSON to a script, 303 to a browser', async (url) => {
      const before = await count('contact');
      const json = await post(entriesOf(await properties('contact'), PERSON), { accept: 'application/json' }, url);
      expect(json.statusCode, json.body).toBe(200);
      expect(json.json()).toMatchObject({ success: true, finished: true, submissionId: expect.any(Number) });
      const browser = await post(entriesOf(await properties('contact'), PERSON), {}, url);
      expect(browser.statusCode, browser.body).toBe(303);
      expect(new URL(browser.headers.location as string).pathname).toBe('/contact');
      const multipart = multipartBody(entriesOf(await properties('contact'), PERSON).map(([name, value]) => ({ name, value })));
      const posted = await svc.app.inject({ method: 'POST', url, headers: { ...multipart.headers, accept: 'application/json', origin: SITE, referer: PAGE }, payload: multipart.payload });
      expect(posted.json(), posted.body).toMatchObject({ success: true, submissionId: expect.any(Number) });
      expect(await count('contact')).toBe(before + 3);
    });

    it('leaves every other request to a path no route takes a JSON 404, and a known path its 405', async () => {
      for (const [url, type, payload] of [['/', 'application/json', '{"action":"svc/submit"}'], ['/some/page', 'application/json', '{not json'], ['/some/page', 'text/xml', '<a/>'], ['/', 'application/x-www-form-urlencoded', 'firstName=x']]) {
        const res = await svc.app.inject({ method: 'POST', url, headers: { 'content-type': type }, payload });
        expect(res.statusCode, `${url} ${type}`).toBe(404);
        expect(res.json()).toMatchObject({ success: false, code: 'ROUTE_NOT_FOUND' });
      }
      const wrongMethod = await svc.app.inject({ method: 'POST', url: '/svc/api/forms/contact/manifest', headers: { 'content-type': 'application/json' }, payload: '{}' });
      expect(wrongMethod.statusCode).toBe(405);
    });
  });

  describe('multi-page, with no JavaScript', () => {
    it('walks next and back through the payload, skipping the page its rule hides, and submits once', async () => {
      let props = await properties('application');
      expect(props.pageCount).toBe(3);
      const step = async (fields: Record<string, string>, action: string) => {
        const res = await post(entriesOf(props, fields, [['svc-action', action]]));
        expect(res.statusCode, res.body).toBe(303);
        props = await properties('application', `?flash=${new URL(res.headers.location as string).searchParams.get('svc_flash')}`);
        return props;
      };
      const page1 = await step({ fullName: 'Ann Lee', email: 'ann@example.test', applicantType: 'individual' }, 'submit');
      // The company page is skipped by its rule for an individual.
      expect(page1.page.index).toBe(2);
      const backAgain = await step({}, 'back');
      expect(backAgain.page.index).toBe(0);
      expect(backAgain.values).toMatchObject({ fullName: 'Ann Lee' });
      await step({ fullName: 'Ann Lee', email: 'ann@example.test', applicantType: 'individual' }, 'submit');
      const before = await count('application');
      const done = await step({ agree: '1' }, 'submit');
      expect(done.formErrors, JSON.stringify(done.errors)).toEqual([]);
      expect(done.finished).toBe(true);
      expect(await count('application')).toBe(before + 1);
    });
  });

  describe('drafts', () => {
    it('svc-action=save keeps a draft and answers its resume link', async () => {
      const props = await properties('application');
      const res = await post(entriesOf(props, { fullName: 'Ann Lee', email: 'ann@example.test' }, [['svc-action', 'save']]), { accept: 'application/json' });
      expect(res.json()).toMatchObject({ success: true, finished: false, status: 'draft_saved', draft: { token: expect.any(String), key: expect.any(String), resumeUrl: expect.stringContaining('/demo/resume?form=application') } });
      const tokenHash = createHash('sha256').update(res.json().draft.token).digest('hex');
      expect(await svc.context.database.db.selectFrom('svc_drafts').select('id').where('token_hash', '=', tokenHash).execute()).toHaveLength(1);
    });
  });

  describe('files, multipart', () => {
    it('stores a file posted by a plain file input named by its field', async () => {
      const props = await properties('job-application');
      const entries = entriesOf(props, { role: 'Frontend engineer' });
      const body = multipartBody([...entries.map(([name, value]) => ({ name, value })), { name: 'cv', filename: 'cv.pdf', contentType: 'application/pdf', data: paddedPdf() }]);
      const res = await svc.app.inject({ method: 'POST', url: '/svc/submit', headers: { ...body.headers, origin: SITE, accept: 'application/json' }, payload: body.payload });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json(), res.body).toMatchObject({ success: true, page: { index: 1 } });
    });

    it('stores nothing when the payload of a multipart post does not open', async () => {
      const props = await properties('job-application');
      const entries = entriesOf(props, { role: 'x' }).map(([n, v]): [string, string] => [n, n === 'svc_payload' ? `${v.slice(0, -4)}AAAA` : v]);
      const body = multipartBody([...entries.map(([name, value]) => ({ name, value })), { name: 'cv', filename: 'forged.pdf', contentType: 'application/pdf', data: paddedPdf() }]);
      const res = await svc.app.inject({ method: 'POST', url: '/svc/submit', headers: { ...body.headers, origin: SITE, accept: 'application/json' }, payload: body.payload });
      expect(res.json()).toMatchObject({ code: 'PAYLOAD_TAMPERED' });
      expect(await svc.context.database.db.selectFrom('svc_files').select('id').where('name', '=', 'forged.pdf').where('submission_id', 'is', null).execute()).toHaveLength(0);
    });
  });

  describe('bad input: a clear error, nothing stored', () => {
    it('tells a missing, a tampered, a foreign and an expired payload apart', async () => {
      const props = await properties('contact');
      const json = { accept: 'application/json' };
      const code = async (entries: [string, string][]) => (await post(entries, json)).json().code;
      const without = entriesOf(props, PERSON).filter(([n]) => n !== 'svc_payload');
      expect(await code(without)).toBe('PAYLOAD_MISSING');
      expect(await code(entriesOf({ ...props, svc_payload: `${props.svc_payload.slice(0, 30)}` }, PERSON))).toBe('PAYLOAD_TAMPERED');
      const other = await properties('job-application');
      expect(await code(entriesOf({ ...props, svc_payload: other.svc_payload }, PERSON))).toBe('PAYLOAD_TAMPERED');
      expect(await code(entriesOf({ ...props, hash: `${props.hash.slice(0, -2)}xx` }, PERSON))).toBe('PAYLOAD_TAMPERED');
      // A payload rendered 25 hours ago (classic.payloadTtlHours is 24 by default).
      const form = svc.context.forms.get('contact')!;
      const seals = svc.context.classic.seals;
      const opened = seals.openPayload(form, props.svc_payload, Date.now());
      const stale = seals.sealPayload({ ...opened, renderedAt: Date.now() - 25 * 3_600_000 });
      const expired = (await post(entriesOf({ ...props, svc_payload: stale }, PERSON), json)).json();
      expect(expired).toMatchObject({ code: 'PAYLOAD_EXPIRED', message: expect.stringContaining('This form has expired; please reload it.') });
    });

    it('refuses a missing or foreign CSRF input, a disallowed origin, and sends a browser back with the reason', async () => {
      const props = await properties('contact');
      const before = await count('contact');
      const noCsrf = entriesOf(props, PERSON).filter(([n]) => n !== 'SVC_CSRF_TOKEN');
      expect((await post(noCsrf, { accept: 'application/json' })).json()).toMatchObject({ code: 'CSRF_INVALID' });
      const foreign = entriesOf({ ...props, csrf: (await properties('contact')).csrf }, PERSON);
      expect((await post(foreign, { accept: 'application/json' })).json()).toMatchObject({ code: 'CSRF_INVALID' });
      const evil = await post(entriesOf(props, PERSON), { origin: 'https://evil.example', referer: 'https://evil.example/x' });
      expect(evil.statusCode).toBe(403);
      const back = await post(noCsrf);
      expect(back.statusCode).toBe(303);
      const shown = await properties('contact', `?flash=${new URL(back.headers.location as string).searchParams.get('svc_flash')}`);
      expect(shown.formErrors).toEqual(['The CSRF token is missing or invalid.']);
      expect(await count('contact')).toBe(before);
    });

    it('never redirects off the allowed origins: a foreign Referer gets a plain page with escaped text', async () => {
      const res = await post(entriesOf(await properties('contact'), { ...PERSON, email: '<script>x</script>' }), { origin: SITE, referer: 'https://elsewhere.example/page' });
      expect(res.statusCode).toBe(422);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).not.toContain('<script>x');
    });

    it('never builds a back-link or a return URL from the Host header: a Referer on the posted-to host is followed by its path alone', async () => {
      const noCsrf = entriesOf(await properties('contact'), PERSON).filter(([n]) => n !== 'SVC_CSRF_TOKEN');
      const spoofed = (referer: string) =>
        svc.app.inject({
          method: 'POST',
          url: '/svc/submit',
          headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'evil.test', referer },
          payload: new URLSearchParams(noCsrf).toString(),
        });
      const res = await spoofed('http://evil.test/page?x=1');
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toMatch(/^\/page\?x=1&svc_flash=[^&#]+#contact-form$/);
      // A path that starts with two slashes would name another host.
      expect((await spoofed('http://evil.test//attacker.example/x')).headers.location).toMatch(/^\/attacker\.example\/x\?svc_flash=/);
      const asked = await svc.app.inject({ method: 'GET', url: `/svc/api/forms/contact/properties?returnUrl=${encodeURIComponent('http://evil.test/x')}`, headers: { host: 'evil.test' } });
      expect(asked.statusCode).toBe(400);
      expect(asked.json()).toMatchObject({ code: 'PAYLOAD_INVALID' });

      const pinned = await createTestApp({ config: { database: { url: target.url() }, server: { publicUrl: 'https://forms.example.test' } } });
      try {
        const props = (await pinned.app.inject({ method: 'GET', url: '/svc/api/forms/contact/properties' })).json<Properties>();
        const refused = entriesOf(props, PERSON).filter(([n]) => n !== 'SVC_CSRF_TOKEN');
        const send = (host: string, referer: string) =>
          pinned.app.inject({ method: 'POST', url: '/svc/submit', headers: { 'content-type': 'application/x-www-form-urlencoded', host, referer }, payload: new URLSearchParams(refused).toString() });
        const own = await send('forms.example.test', 'https://forms.example.test/contact');
        expect(own.statusCode).toBe(303);
        expect(own.headers.location).toMatch(/^https:\/\/forms\.example\.test\/contact\?svc_flash=/);
        const evil = await send('evil.test', 'http://evil.test/page');
        expect(evil.statusCode).toBe(403);
        expect(evil.headers.location).toBeUndefined();
        expect(evil.json()).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' });
      } finally {
        await pinned.close();
      }
    });

    it('refuses an oversize post with 413 before reading it', async () => {
      const res = await post([['action', 'svc/submit'], ['message', 'x'.repeat(2_000_000)]], { accept: 'application/json' });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    });

    it('treats a filled honeypot as spam, answering like success', async () => {
      const props = await properties('contact');
      const entries = entriesOf(props, PERSON).map(([n, v]): [string, string] => [n, n === props.honeypot.name ? 'i am a bot' : v]);
      const res = await post(entries, { accept: 'application/json' });
      expect(res.json()).toMatchObject({ success: true, finished: true });
      const row = await svc.context.database.db.selectFrom('svc_submissions').select('is_spam').where('id', '=', res.json().submissionId).executeTakeFirstOrThrow();
      expect(Number(row.is_spam)).toBe(1);
    });
  });
  describe('session storage in the database', () => {
    let stored: TestApp;
    beforeAll(async () => {
      stored = await createTestApp({ config: { database: { url: target.url() }, classic: { sessionStorage: 'database' } } });
    });
    afterAll(async () => {
      await stored?.close();
    });
    const get = async (query = ''): Promise<Properties> => (await stored.app.inject({ method: 'GET', url: `/svc/api/forms/application/properties${query}` })).json<Properties>();
    const send = (entries: [string, string][]) =>
      stored.app.inject({ method: 'POST', url: '/svc/submit', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: SITE, referer: PAGE }, payload: new URLSearchParams(entries).toString() });

    it('sends no svc_payload: the signed formHash names the stored state, which moves on with each step', async () => {
      const props = await get();
      expect(props.svc_payload).toBeUndefined();
      expect(props.hash).toMatch(/^\d+-0-[A-Za-z0-9]{22}-[A-Za-z0-9_-]{22}$/);
      const res = await send(entriesOf(props, { fullName: 'Ann Lee', email: 'ann@example.test', applicantType: 'company' }, [['svc-action', 'submit']]));
      expect(res.statusCode, res.body).toBe(303);
      const next = await get(`?flash=${new URL(res.headers.location as string).searchParams.get('svc_flash')}`);
      expect(next.page.index).toBe(1);
      expect(next.hash.split('-')[2]).toBe(props.hash.split('-')[2]);
      const rows = await stored.context.database.db.selectFrom('svc_classic_sessions').select('sealed').execute();
      expect(rows.length).toBeGreaterThan(0);
      expect(JSON.stringify(rows)).not.toContain('Ann Lee');
    });

    it('tells an altered hash from a session that is gone', async () => {
      const props = await get();
      const json = async (entries: [string, string][]) =>
        (await stored.app.inject({ method: 'POST', url: '/svc/submit', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, payload: new URLSearchParams(entries).toString() })).json();
      const [formId, page, sid, mac] = props.hash.split('-');
      const otherSid = `${sid.slice(0, -1)}${sid.endsWith('A') ? 'B' : 'A'}`;
      expect(await json(entriesOf({ ...props, hash: `${formId}-${page}-${otherSid}-${mac}` }, {}))).toMatchObject({ code: 'PAYLOAD_TAMPERED' });
      await stored.context.database.db.deleteFrom('svc_classic_sessions').execute();
      expect(await json(entriesOf(props, {}))).toMatchObject({ code: 'PAYLOAD_EXPIRED' });
    });
  });
  describe('a form with a return URL', () => {
    let withReturn: TestApp;
    let dir: string;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'svc-classic-forms-'));
      writeFileSync(join(dir, 'thanks.yaml'), `name: Thanks
settings:
  returnUrl: "https://site.example.test/thanks?id={id}&name={firstName}"
  spam: { honeypot: false }
fields:
  - { type: text, handle: firstName, label: First name, required: true }
  - { type: checkboxGroup, handle: topics, label: Topics, options: [a, b, c] }
`);
      withReturn = await createTestApp({ config: { database: { url: target.url() }, forms: { dir, watch: false }, headless: { forms: { thanks: { exposeManifest: true, allowSubmit: true } } } } });
    });
    afterAll(async () => {
      await withReturn?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('sends a finished post to the returnUrl with the id and URL-encoded values filled in; lists come from repeated entries', async () => {
      const props = (await withReturn.app.inject({ method: 'GET', url: '/svc/api/forms/thanks/properties' })).json<Properties>();
      const res = await withReturn.app.inject({
        method: 'POST',
        url: '/svc/submit',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: SITE, referer: PAGE },
        payload: new URLSearchParams(entriesOf(props, { firstName: 'Ann & Lee/?', topics: ['a', 'c'] })).toString(),
      });
      expect(res.statusCode, res.body).toBe(303);
      const location = new URL(res.headers.location as string);
      expect(location.origin + location.pathname).toBe('https://site.example.test/thanks');
      expect(location.searchParams.get('name')).toBe('Ann & Lee/?');
      const id = Number(location.searchParams.get('id'));
      const row = await findSubmission(withReturn.context.database.db, id, withReturn.context.sealer);
      expect(row?.values).toMatchObject({ firstName: 'Ann & Lee/?', topics: ['a', 'c'] });
    });
  });
  describe('a form that takes a payment', () => {
    it("makes the final post the payment's checkpoint; the payment's callback then stores it once", async () => {
      const f = await createPaymentFixture({ databaseUrl: target.url() });
      try {
        const props = (await f.svc.app.inject({ method: 'GET', url: '/svc/api/forms/donation/properties' })).json<Properties>();
        const donor = { name: 'Ann Donor', email: 'ann@example.test', gift: '25' };
        const created = await f.createIntent(donor);
        const id = created.json<{ id: string }>().id;
        const integration = (await f.paymentConfig())['integration'] as string;
        // The page's browser: the one whose cookie created the intent (issue #32).
        const { cookie } = await f.browser();
        const send = (extra: [string, string][]) =>
          f.svc.app.inject({
            method: 'POST',
            url: '/svc/submit',
            headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', origin: SITE, cookie },
            payload: new URLSearchParams(entriesOf(props, donor, extra)).toString(),
          });
        // Without the intent the plain post is refused on the payment field: nothing is charged or stored.
        expect((await send([])).json()).toMatchObject({ success: false, errors: { payment: [expect.any(String)] } });
        const checkpoint = await send([['integration', integration], ['paymentIntentId', id]]);
        expect(checkpoint.json(), checkpoint.body).toMatchObject({ success: true, finished: false, status: 'validated' });
        expect(await f.submissionCount('donation')).toBe(0);
        await f.double.confirm(id, 'succeeds');
        await f.double.settled();
        const back = await f.callback({ integration, stripe_token: id, payment_intent: id });
        expect(back.statusCode).toBeLessThan(400);
        expect(await f.submissionCount('donation')).toBe(1);
      } finally {
        await f.close();
      }
    });
  });
  describe('captchas and mailing lists', () => {
    it('names the active captcha and the mailing-list inputs, and verifies the posted captcha response', async () => {
      const seen: string[] = [];
      const verifier = createServer((req, res) => {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => {
          const response = new URLSearchParams(body).get('response') ?? '';
          seen.push(response);
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(response === 'good' ? { success: true } : { success: false }));
        });
      });
      await new Promise<void>((done) => verifier.listen(0, '127.0.0.1', done));
      const url = `http://127.0.0.1:${(verifier.address() as AddressInfo).port}/siteverify`;
      const withCaptcha = await createTestApp({ config: { database: { url: target.url() }, captcha: { turnstile: { siteKey: 'site-key', secretKey: 'secret-key', verifyUrl: url } } } });
      try {
        const get = async (handle: string) => (await withCaptcha.app.inject({ method: 'GET', url: `/svc/api/forms/${handle}/properties` })).json<Properties>();
        const props = await get('contact');
        expect(props.captcha).toMatchObject({ enabled: true, handle: 'captcha', name: 'cf-turnstile-response', provider: 'turnstile', siteKey: 'site-key' });
        expect((await get('kitchen-sink')).mailingListName).toEqual(['newsletter']);
        const send = (token: string) =>
          withCaptcha.app.inject({
            method: 'POST',
            url: '/svc/submit',
            headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', origin: SITE },
            payload: new URLSearchParams(entriesOf(props, PERSON, [['cf-turnstile-response', token]])).toString(),
          });
        expect((await send('bad')).json()).toMatchObject({ success: false, status: 'captcha_failed' });
        expect((await send('good')).json()).toMatchObject({ success: true, finished: true });
        expect(seen).toEqual(['bad', 'good']);
      } finally {
        await withCaptcha.close();
        await new Promise<void>((done) => verifier.close(() => done()));
      }
    });
  });
});
