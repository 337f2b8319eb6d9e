/**
 * Flash messages (issue #35 item 7): after every console write the next page says what happened,
 * once, with role="status"; the message is signed with the browser's own session, so a cookie set
 * by someone else shows nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app.js';
import { consoleBrowser, sha256Hex, type ConsoleBrowser } from './support/console-browserless.js';

const KEY = 'console-flash-test-key-0123456789';

describe('console flash messages', () => {
  let svc: TestApp;
  let browser: ConsoleBrowser;
  beforeAll(async () => {
    svc = await createTestApp({ config: { admin: { keys: [{ name: 'ops', sha256: sha256Hex(KEY), scopes: ['read', 'write'], forms: ['*'] }] } } });
    browser = await consoleBrowser(svc, KEY);
  });
  afterAll(async () => {
    await svc?.close();
  });

  async function submitContact(name: string): Promise<string> {
    const res = await svc.submit('contact', { intent: 'submit', values: { firstName: name, email: `${name.toLowerCase()}@example.test` } });
    expect(res.statusCode).toBe(200);
    const row = await svc.context.database.db.selectFrom('svc_submissions').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    return String(row.id);
  }

  const flashOf = (body: string) => /<main><p class="flash" role="status">([^<]*)<\/p>/.exec(body)?.[1] ?? null;

  it('confirms a status and spam change on the next page, once', async () => {
    const id = await submitContact('Ann');
    const post = await browser.post(`/svc/console/submissions/${id}`, { status: 'closed', isSpam: 'true' });
    expect(post.statusCode).toBe(303);
    const page = await browser.get(String(post.headers.location));
    expect(flashOf(page.body)).toBe(`Submission #${id} saved: status closed, marked as spam.`);
    const again = await browser.get(String(post.headers.location));
    expect(flashOf(again.body)).toBeNull();
  });

  it('confirms a delete on the form list it goes back to', async () => {
    const id = await submitContact('Bea');
    const post = await browser.post(`/svc/console/submissions/${id}/delete`, { confirm: 'yes' });
    expect(post.headers.location).toBe('/svc/console/forms/contact');
    expect(flashOf((await browser.get('/svc/console/forms/contact')).body)).toBe(`Submission #${id} and its files were deleted.`);
  });

  it('confirms a resend', async () => {
    const id = await submitContact('Cid');
    const delivery = await svc.context.database.db.selectFrom('svc_deliveries').select('id').where('submission_id', '=', Number(id)).limit(1).executeTakeFirst();
    if (!delivery) return expect.unreachable('the contact form notifies on submit');
    const post = await browser.post(`/svc/console/deliveries/${delivery.id}/resend`, { back: `/svc/console/submissions/${id}` });
    expect(post.statusCode).toBe(303);
    expect(flashOf((await browser.get(String(post.headers.location))).body)).toBe(`Delivery #${delivery.id} queued to be sent again.`);
  });

  it('shows nothing for a flash cookie not signed with this session', async () => {
    const forged = `${Buffer.from('<b>hi</b>').toString('base64url')}.AAAA`;
    const res = await browser.get('/svc/console/', `svc_console_flash=${forged}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('<b>hi</b>');
    expect(res.body).not.toContain('class="flash"');
  });
});
