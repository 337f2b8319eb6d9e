/**
 * The console's daily work on one submission (issue #35 items 2, 3, 5), through the server:
 * the Edit page saves through the admin service (revision, audit, field errors on a refused save,
 * CSRF and write scope), notes are added and drawn as escaped text, and files are shown through
 * the signed links: thumbnails and a viewer for images, PDFs inline, anything else an attachment,
 * an expired link refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { hashPassword } from '../src/console/console-passwords.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { multipartBody } from './support/multipart-body.js';
import { gradientPng, paddedPdf } from './support/sample-files.js';
import { seed } from './support/admin-fixture.js';
import { shownDetail } from '../src/admin/audit-log.js';
import { openSubmissionColumns } from '../src/privacy/privacy-sealer.js';

const PASSWORD = 'correct horse battery staple';
const EDIT_FORMS = resolve(import.meta.dirname, 'fixtures/edit-forms');
const START = Date.parse('2026-11-27T10:00:00Z');
const valueOf = (setCookie: string | undefined) => (setCookie ?? '').split(';')[0]?.split('=').slice(1).join('=') ?? '';
const cookieList = (res: LightMyRequestResponse) => {
  const raw = res.headers['set-cookie'];
  return Array.isArray(raw) ? raw : raw ? [raw] : [];
};

describe('console edit, notes and files', () => {
  let svc: TestApp;
  let clock = START;
  const sessions: Record<string, string> = {};

  async function signIn(username: string): Promise<string> {
    const page = await svc.app.inject({ method: 'GET', url: '/svc/console/sign-in' });
    const pre = valueOf(cookieList(page).find((c) => c.startsWith('svc_console_pre=')));
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const res = await svc.app.inject({
      method: 'POST',
      url: '/svc/console/sign-in',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `svc_console_pre=${pre}` },
      payload: new URLSearchParams({ csrf, username, password: PASSWORD }).toString(),
    });
    expect(res.statusCode).toBe(303);
    return `svc_console=${valueOf(cookieList(res).find((c) => c.startsWith('svc_console=')))}`;
  }
  const get = (url: string, who = 'lee') => svc.app.inject({ method: 'GET', url, headers: { cookie: sessions[who] as string } });
  const csrfOf = async (url: string, who = 'lee') => /name="csrf" value="([^"]+)"/.exec((await get(url, who)).body)?.[1] ?? '';
  const post = (url: string, entries: [string, string][], who = 'lee') =>
    svc.app.inject({ method: 'POST', url, headers: { cookie: sessions[who] as string, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(entries).toString() });
  const stored = async (id: number) => {
    const row = await svc.context.database.db.selectFrom('svc_submissions').select(['uid', 'values', 'revision', 'title', 'data_key']).where('id', '=', id).executeTakeFirstOrThrow();
    // Sealed at rest (issue #37): opened as every reader opens them.
    const opened = openSubmissionColumns(svc.context.sealer, row);
    return { values: opened.values === null ? null : (JSON.parse(opened.values) as Record<string, unknown>), revision: Number(row.revision), title: opened.title };
  };

  beforeAll(async () => {
    const passwordHash = await hashPassword(PASSWORD);
    svc = await createTestApp({
      now: () => new Date(clock),
      config: {
        forms: { dir: EDIT_FORMS, watch: false },
        headless: { forms: { edit: { exposeManifest: true, allowSubmit: true } } },
        admin: {
          users: [
            { username: 'kim', passwordHash, scopes: ['read'], forms: ['*'] },
            { username: 'lee', passwordHash, scopes: ['read', 'write'], forms: ['*'] },
          ],
          keys: [{ name: 'ops', sha256: createHash('sha256').update('unused-key-0123456789').digest('hex'), scopes: ['read'], forms: ['*'] }],
        },
      },
    });
    sessions.lee = await signIn('lee');
    sessions.kim = await signIn('kim');
  });
  afterAll(async () => {
    await svc?.close();
  });

  describe('the Edit page', () => {
    it('draws every editable field with its stored value, files and signatures as not editable', async () => {
      const id = await seed(svc, 'edit', { title: 'Ann', values: { name: 'Ann', drinks: ['coffee'], cups: '2', message: 'one\ntwo' }, createdAt: '2026-11-26T09:00:00.000Z' });
      const page = await get(`/svc/console/submissions/${id}/edit`);
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.body).not.toMatch(/<script(?! src=)|style=/);
      expect(page.body).toContain('<input type="text" id="f-name" name="name" value="Ann" required');
      expect(page.body).toMatch(/<input type="checkbox" id="f-drinks-1" name="drinks\[\]" value="coffee" checked>/);
      expect(page.body).toContain('>one\ntwo</textarea>');
      expect(page.body).toMatch(/Photos<\/strong>: the uploaded files stay as they were sent and cannot be edited/);
      // A reader is offered no edit.
      expect((await get(`/svc/console/submissions/${id}/edit`, 'kim')).statusCode).toBe(404);
      const readerPage = (await get(`/svc/console/submissions/${id}`, 'kim')).body;
      expect(readerPage).not.toContain(`/submissions/${id}/edit"`);
      expect((await get(`/svc/console/submissions/${id}`)).body).toContain(`<a href="/svc/console/submissions/${id}/edit">Edit values</a>`);
    });

    it('saves only what changed, with the revision, a confirmation and the audit entry', async () => {
      const id = await seed(svc, 'edit', { title: 'Bo', values: { name: 'Bo', drinks: ['coffee'], cups: '2' }, createdAt: '2026-11-26T09:00:00.000Z' });
      const url = `/svc/console/submissions/${id}/edit`;
      const csrf = await csrfOf(url);
      // Every drawn field posts; the drinks boxes are all unticked now (nothing posted for them).
      const res = await post(url, [['csrf', csrf], ['name', 'Bo Li'], ['email', ''], ['teaKind', ''], ['cups', '2'], ['message', '']]);
      expect([res.statusCode, res.headers.location]).toEqual([303, `/svc/console/submissions/${id}`]);
      expect(await stored(id)).toEqual({ values: { name: 'Bo Li', drinks: [], cups: '2' }, revision: 1, title: 'Bo Li' });
      const audit = await svc.context.database.db.selectFrom('svc_audit_log').select(['actor', 'action', 'detail', 'data_key', 'target']).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
      expect(audit).toMatchObject({ actor: 'user:lee', action: 'submission.edit' });
      // The old and new values are sealed in the entry (issue #37): shown opened, as the log shows them.
      expect(audit.detail).not.toContain('Bo Li');
      expect(shownDetail(audit, svc.context.sealer)).toEqual({ revision: 1, from: { name: 'Bo', drinks: ['coffee'] }, to: { name: 'Bo Li', drinks: [] } });
      const page = await svc.app.inject({ method: 'GET', url: `/svc/console/submissions/${id}`, headers: { cookie: `${sessions.lee}; ${cookieList(res).map((c) => c.split(';')[0]).join('; ')}` } });
      expect(page.body).toContain('revision 1');
      expect(page.body).toContain('Saved: 2 value(s) changed, revision 1.');
    });

    it('shows a refused save again with the posted values and each field its error, saving nothing', async () => {
      const id = await seed(svc, 'edit', { title: 'Cy', values: { name: 'Cy', cups: '1' }, createdAt: '2026-11-26T09:00:00.000Z' });
      const url = `/svc/console/submissions/${id}/edit`;
      const res = await post(url, [['csrf', await csrfOf(url)], ['name', ''], ['email', 'nope'], ['drinks[]', 'tea'], ['teaKind', ''], ['cups', '12']]);
      expect(res.statusCode).toBe(422);
      expect(res.body).toContain('Nothing was saved: 4 field(s) to correct');
      for (const handle of ['name', 'email', 'teaKind', 'cups']) expect(res.body).toMatch(new RegExp(`id="f-${handle}-errors"><li>[^<]+</li>`));
      expect(res.body).toContain('value="nope"');
      expect(res.body).toMatch(/aria-invalid="true" aria-describedby="f-email-errors"/);
      expect(await stored(id)).toMatchObject({ revision: 0, values: { name: 'Cy', cups: '1' } });
    });

    it('refuses a post without the CSRF token, or from a reader', async () => {
      const id = await seed(svc, 'edit', { title: 'Di', values: { name: 'Di' }, createdAt: '2026-11-26T09:00:00.000Z' });
      const url = `/svc/console/submissions/${id}/edit`;
      expect((await post(url, [['name', 'X']])).statusCode).toBe(400);
      expect((await post(url, [['csrf', await csrfOf(`/svc/console/submissions/${id}`, 'kim')], ['name', 'X']], 'kim')).statusCode).toBe(403);
      expect((await stored(id)).revision).toBe(0);
    });
  });

  describe('notes', () => {
    it('adds a note and draws the notes oldest first as escaped text with their line breaks', async () => {
      const id = await seed(svc, 'edit', { title: 'Ed', values: { name: 'Ed' }, createdAt: '2026-11-26T09:00:00.000Z' });
      const url = `/svc/console/submissions/${id}`;
      const first = await post(`${url}/notes`, [['csrf', await csrfOf(url)], ['text', 'Rang them.\n<script>alert(1)</script>']]);
      expect(first.statusCode).toBe(303);
      expect(first.headers.location).toMatch(new RegExp(`^${url}#note-\\d+$`));
      clock += 60_000;
      await post(`${url}/notes`, [['csrf', await csrfOf(url)], ['text', 'Second']]);
      const page = await get(url);
      expect(page.body).toContain('<p class="value">Rang them.\n&lt;script&gt;alert(1)&lt;/script&gt;</p>');
      expect(page.body.indexOf('Rang them.')).toBeLessThan(page.body.indexOf('Second'));
      expect(page.body).toContain('<strong>user:lee</strong>');
    });

    it('shows a refused note again on the page with its reason and text', async () => {
      const id = await seed(svc, 'edit', { title: 'Flo', values: { name: 'Flo' }, createdAt: '2026-11-26T09:00:00.000Z' });
      const url = `/svc/console/submissions/${id}`;
      const res = await post(`${url}/notes`, [['csrf', await csrfOf(url)], ['text', 'y'.repeat(5_001)]]);
      expect(res.statusCode).toBe(400);
      expect(res.body).toMatch(/role="alert">A note holds at most 5000 characters; this one has 5001\./);
      expect(res.body).toContain(`>${'y'.repeat(5_001)}</textarea>`);
    });
  });

  describe('files', () => {
    let id: number;
    let page: string;
    const links = () => [...page.matchAll(/(?:href|src)="(http:\/\/[^"]+\/download\?[^"]+)"/g)].map((m) => (m[1] as string).replace(/&amp;/g, '&'));

    beforeAll(async () => {
      const { token, cookie } = await svc.csrf();
      const body = multipartBody([
        { name: '_svc', value: JSON.stringify({ intent: 'submit', values: { name: 'Gus' }, meta: await svc.meta('edit') }) },
        { name: 'SVC_CSRF_TOKEN', value: token },
        { name: 'files[photos][]', filename: 'first.png', data: gradientPng(32), contentType: 'image/png' },
        { name: 'files[photos][]', filename: 'second.png', data: gradientPng(24), contentType: 'image/png' },
        { name: 'files[photos][]', filename: 'terms.pdf', data: paddedPdf(800), contentType: 'application/pdf' },
        { name: 'files[photos][]', filename: 'notes.txt', data: 'plain words\n', contentType: 'text/plain' },
      ]);
      const res = await svc.app.inject({ method: 'POST', url: '/svc/api/forms/edit/submit', headers: { ...body.headers, cookie }, payload: body.payload });
      expect(res.statusCode, res.body).toBe(200);
      id = (res.json() as { submission: { id: number } }).submission.id;
      page = (await get(`/svc/console/submissions/${id}`)).body;
    });

    it('shows images as thumbnails that open the viewer, a PDF to open in the browser and other files to download', () => {
      expect(page).toMatch(/<a href="\/svc\/console\/submissions\/\d+\/files\/[^"]+"><img src="http:\/\/[^"]+\/download\?expires=\d+&amp;signature=[^"]+&amp;inline=1" alt="first.png, open in the viewer"/);
      expect(page).toMatch(/<a href="[^"]+&amp;inline=1" target="_blank" rel="noopener">terms.pdf<\/a>/);
      expect(page).toMatch(/<a href="[^"]+\/download\?expires=\d+&amp;signature=[^"&]+" download>notes.txt<\/a>/);
    });

    it('answers images and PDFs inline when asked, everything else as an attachment, all nosniff and sandboxed but the PDF', async () => {
      const answers = await Promise.all(links().map((url) => svc.app.inject({ method: 'GET', url })));
      const seen = answers.map((r) => [r.headers['content-type'], String(r.headers['content-disposition']).split(';')[0], r.headers['content-security-policy'], r.headers['x-content-type-options']]);
      expect(seen).toContainEqual(['image/png', 'inline', "default-src 'none'; sandbox", 'nosniff']);
      expect(seen).toContainEqual(['application/pdf', 'inline', "default-src 'none'", 'nosniff']);
      expect(seen).toContainEqual(['text/plain', 'attachment', "default-src 'none'; sandbox", 'nosniff']);
      // inline=1 asks; it does not make a text file inline, and without it an image is an attachment.
      const text = links().find((u) => !u.includes('inline=1') && answers[links().indexOf(u)]?.headers['content-type'] === 'text/plain') as string;
      expect(String((await svc.app.inject({ method: 'GET', url: `${text}&inline=1` })).headers['content-disposition'])).toMatch(/^attachment;/);
      const image = (links().find((u) => u.includes('inline=1')) as string).replace('&inline=1', '');
      expect(String((await svc.app.inject({ method: 'GET', url: image })).headers['content-disposition'])).toMatch(/^attachment;/);
    });

    it('shows a signature as the image it is', async () => {
      const signature = `data:image/png;base64,${gradientPng(8).toString('base64')}`;
      const signed = await seed(svc, 'edit', { title: 'Hal', values: { name: 'Hal', sig: signature }, createdAt: '2026-11-26T09:00:00.000Z' });
      expect((await get(`/svc/console/submissions/${signed}`)).body).toContain(`<img src="${signature}" alt="Signature of this submission"`);
    });

    it('refuses an expired link, inline or not', async () => {
      const url = links()[0] as string;
      clock += 60 * 60_000;
      try {
        const res = await svc.app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(404);
        expect((res.json() as { code: string }).code).toBe('FILE_NOT_FOUND');
      } finally {
        clock -= 60 * 60_000;
      }
    });

    it('draws the viewer with the image large and links to the previous and next image', async () => {
      const viewers = [...page.matchAll(/href="(\/svc\/console\/submissions\/\d+\/files\/[^"]+)"/g)].map((m) => m[1] as string);
      expect(viewers).toHaveLength(2);
      const first = await get(viewers[0] as string);
      expect(first.statusCode).toBe(200);
      expect(first.body).toContain('<script src="/svc/console/console-files.js" defer></script>');
      expect(first.body).toMatch(/<figure class="viewer"><img src="[^"]+&amp;inline=1" alt="first.png">/);
      expect(first.body).toContain('1 of 2');
      expect(first.body).toContain(`<a href="${viewers[1]}" rel="next" data-key="ArrowRight">`);
      expect(first.body).toContain('<span aria-disabled="true">← Previous</span>');
      const second = await get(viewers[1] as string);
      expect(second.body).toContain(`<a href="${viewers[0]}" rel="prev" data-key="ArrowLeft">`);
      expect((await get(`/svc/console/submissions/${id}/files/nope`)).statusCode).toBe(404);
      const script = await svc.app.inject({ method: 'GET', url: '/svc/console/console-files.js' });
      expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    });
  });
});
