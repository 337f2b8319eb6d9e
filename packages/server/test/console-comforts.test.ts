/**
 * Daily comforts of the console (issue #35 item 7): saved filters per user (another user never
 * sees or deletes them; a reader may keep them too), dates in the site's time zone with the zone
 * shown, the help page listing the shortcuts, and the shortcuts script every signed-in page loads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app.js';
import { consoleBrowser, sha256Hex, type ConsoleBrowser } from './support/console-browserless.js';

const ANN = 'console-comforts-ann-0123456789abcdef';
const BOB = 'console-comforts-bob-0123456789abcdef';
const READER = 'console-comforts-reader-0123456789ab';

describe('console daily comforts', () => {
  let svc: TestApp;
  let ann: ConsoleBrowser;
  let bob: ConsoleBrowser;
  let reader: ConsoleBrowser;
  beforeAll(async () => {
    svc = await createTestApp({
      config: {
        sites: [{ handle: 'default', language: 'en-US', default: true, timezone: 'Europe/Berlin' }],
        admin: {
          keys: [
            { name: 'ann', sha256: sha256Hex(ANN), scopes: ['read', 'write'], forms: ['*'] },
            { name: 'bob', sha256: sha256Hex(BOB), scopes: ['read', 'write'], forms: ['*'] },
            { name: 'reader', sha256: sha256Hex(READER), scopes: ['read'], forms: ['contact'] },
          ],
        },
      },
    });
    [ann, bob, reader] = await Promise.all([consoleBrowser(svc, ANN), consoleBrowser(svc, BOB), consoleBrowser(svc, READER)]);
  });
  afterAll(async () => {
    await svc?.close();
  });

  const savedNames = (body: string) => [...body.matchAll(/<li><a href="[^"]*"[^>]*>([^<]*)<\/a> <form method="post" action="\/svc\/console\/forms\/contact\/filters\/(\d+)\/delete"/g)].map((m) => [m[1], m[2]]);

  it('saves a filter for its user only, applies it as a link and deletes it, with a flash each time', async () => {
    const save = await ann.post('/svc/console/forms/contact/filters', { name: 'Closed & open', query: 'status=closed&q=ann&cursor=abc&evil=1&columns=email' });
    expect([save.statusCode, save.headers.location]).toEqual([303, '/svc/console/forms/contact?columns=email&q=ann&status=closed']);
    const page = await ann.get(String(save.headers.location));
    expect(page.body).toContain('<p class="flash" role="status">Filter “Closed &amp; open” saved.</p>');
    const saved = savedNames(page.body);
    expect(saved.map(([name]) => name)).toEqual(['Closed &amp; open']);
    expect(page.body).toContain('<a href="/svc/console/forms/contact?columns=email&amp;q=ann&amp;status=closed" aria-current="true">Closed &amp; open</a>');

    expect(savedNames((await bob.get('/svc/console/forms/contact')).body)).toEqual([]);
    const id = saved[0]?.[1] as string;
    const stolen = await bob.post(`/svc/console/forms/contact/filters/${id}/delete`, {});
    expect([stolen.statusCode, stolen.json().code]).toEqual([400, 'PAYLOAD_INVALID']);
    expect(savedNames((await ann.get('/svc/console/forms/contact')).body)).toHaveLength(1);

    const again = await ann.post('/svc/console/forms/contact/filters', { name: 'Closed & open', query: 'status=open' });
    expect(again.headers.location).toBe('/svc/console/forms/contact?status=open');
    const replaced = await ann.get('/svc/console/forms/contact');
    expect(replaced.body).toContain('<a href="/svc/console/forms/contact?status=open">Closed &amp; open</a>');

    const gone = await ann.post(`/svc/console/forms/contact/filters/${id}/delete`, {});
    expect(gone.statusCode).toBe(303);
    const after = await ann.get('/svc/console/forms/contact');
    expect(after.body).toContain('Filter “Closed &amp; open” deleted.');
    expect(savedNames(after.body)).toEqual([]);
  });

  it('lets a reader keep filters, refuses an empty name, a missing CSRF token and a form the user may not see', async () => {
    expect((await reader.post('/svc/console/forms/contact/filters', { name: 'Mine', query: 'spam=all' })).statusCode).toBe(303);
    expect(savedNames((await reader.get('/svc/console/forms/contact')).body).map(([n]) => n)).toEqual(['Mine']);
    const empty = await reader.post('/svc/console/forms/contact/filters', { name: '  ', query: '' });
    expect([empty.statusCode, empty.json().code]).toEqual([400, 'PAYLOAD_INVALID']);
    const hidden = await reader.post('/svc/console/forms/application/filters', { name: 'x', query: '' });
    expect([hidden.statusCode, hidden.json().code]).toEqual([404, 'FORM_NOT_FOUND']);
    const noCsrf = await svc.app.inject({ method: 'POST', url: '/svc/console/forms/contact/filters', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=x' });
    expect(noCsrf.statusCode).toBeGreaterThanOrEqual(400);
  });

  it("shows dates in the site's time zone with the zone named", async () => {
    const res = await svc.submit('contact', { intent: 'submit', values: { firstName: 'Zoe', email: 'zoe@example.test' } });
    expect(res.statusCode).toBe(200);
    const row = await svc.context.database.db.selectFrom('svc_submissions').select(['id', 'created_at']).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    const berlin = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(row.created_at)).replace(', ', ' ');
    const list = await ann.get('/svc/console/forms/contact');
    expect(list.body).toMatch(new RegExp(`<time datetime="${row.created_at}">${berlin} GMT\\+[12]</time>`));
    const detail = await ann.get(`/svc/console/submissions/${row.id}`);
    expect(detail.body).toContain(`<time datetime="${row.created_at}">${berlin} GMT+`);
    expect((await ann.get('/svc/console/')).body).toContain(`<time datetime="${row.created_at}">`);
  });

  it('lists the keyboard shortcuts on the help page and loads their script, a file, on every signed-in page', async () => {
    const help = await ann.get('/svc/console/help');
    expect(help.statusCode).toBe(200);
    for (const key of ['/', 'j', 'k', '?']) expect(help.body).toContain(`<kbd>${key}</kbd>`);
    expect(help.body).toContain('Europe/Berlin');
    expect(help.body).toContain('<script src="/svc/console/console-shortcuts.js" defer></script>');
    const script = await svc.app.inject({ method: 'GET', url: '/svc/console/console-shortcuts.js' });
    expect([script.statusCode, script.headers['content-type']]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect(script.body).toContain("/^(INPUT|TEXTAREA|SELECT)$/");
    const signIn = await svc.app.inject({ method: 'GET', url: '/svc/console/sign-in' });
    expect(signIn.body).not.toContain('console-shortcuts.js');
  });
});
