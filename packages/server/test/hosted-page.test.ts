/**
 * Hosted pages (issue #36): a project of one's own (its own forms directory and config, not the
 * demo) gives `contact` a page at /f/contact with `settings.hostedPage`. Without JavaScript the
 * page's classic form posts, stores and shows the success page or follows the return URL; the
 * page says noindex and carries Open Graph tags and a strict CSP; a form without the setting, or
 * none at all, is the same 404 page; a signed profile link opens the page with its context, and a
 * spent single-use link is a page that says so, not JSON.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app.js';

const FORMS: Record<string, string> = {
  'contact.yaml': `name: Contact us
settings:
  hostedPage: true
  description: Questions, ideas, complaints.
  successMessage: Thanks, we will write back.
  spam: { honeypot: true, javascriptTest: false }
fields:
  - { type: text, handle: name, label: Your name, required: true }
  - { type: email, handle: email, label: Email, required: true }
  - { type: textarea, handle: message, label: Message }
  - { type: submit, label: Send }
`,
  'signup.yaml': `name: Sign up
settings:
  hostedPage: true
  hostedIndexable: true
  successBehavior: redirect
  returnUrl: https://example.test/welcome?name={name}
  hostedTheme: { scheme: dark, radius: 12, light: { accent: '#0b6e4f' } }
fields:
  - { type: text, handle: name, label: Name, required: true }
`,
  'ask.yaml': `name: Ask
settings:
  hostedPage: true
  captcha: { enabled: true, provider: turnstile }
fields:
  - { type: text, handle: question, label: Question }
`,
  'survey.yaml': `name: Survey
settings:
  hostedPage: true
pages:
  - label: First
    rows:
      - - { type: text, handle: topic, label: Topic, required: true }
      - - { type: submit, labelNext: Next, labelPrev: Back }
  - label: Second
    rows:
      - - { type: text, handle: verdict, label: Verdict, required: true }
      - - { type: submit, label: Send, labelPrev: Back }
`,
  'private.yaml': `name: Private
fields:
  - { type: text, handle: name, label: Name }
`,
};

const API_KEY = 'hosted-test-api-key-0123456789';

let svc: TestApp;
let formsDir: string;

beforeAll(async () => {
  formsDir = mkdtempSync(join(tmpdir(), 'svc-hosted-forms-'));
  for (const [file, text] of Object.entries(FORMS)) writeFileSync(join(formsDir, file), text);
  const open = { exposeManifest: true, allowSubmit: true };
  svc = await createTestApp({
    config: {
      forms: { dir: formsDir },
      server: { publicUrl: 'https://forms.example.test' },
      captcha: { turnstile: { siteKey: 'site-key', secretKey: 'secret-key' } },
      admin: { keys: [{ name: 'owner', sha256: createHash('sha256').update(API_KEY).digest('hex'), scopes: ['read'], forms: ['*'] }] },
      headless: {
        forms: { contact: open, signup: open, private: open, ask: open, survey: open },
        profiles: {
          feedback: {
            form: 'contact',
            requiresSignedToken: true,
            singleUse: true,
            properties: { eventId: { type: 'integer', required: true } },
            context: { defaultValues: { message: 'About event {{ properties.eventId }}' } },
          },
          round: {
            form: 'survey',
            requiresSignedToken: true,
            properties: { round: { type: 'integer', required: true } },
            context: { defaultValues: { topic: 'Round {{ properties.round }}' } },
          },
        },
      },
    },
  });
});

afterAll(async () => {
  await svc?.close();
  rmSync(formsDir, { recursive: true, force: true });
});

function page(url: string) {
  return svc.app.inject({ method: 'GET', url });
}

/** The hidden inputs and fields of the page's no-JavaScript form, as a browser would post them. */
function formEntries(html: string, fields: Record<string, string>): [string, string][] {
  const form = /<form [^>]*>([\s\S]*?)<\/form>/.exec(html)?.[1] ?? '';
  const entries: [string, string][] = [...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&quot;/g, '"').replace(/&amp;/g, '&')]);
  const honeypot = /<div class="hp"[^>]*><label>[^<]*<input type="text" name="([^"]+)"/.exec(form)?.[1];
  if (honeypot) entries.push([honeypot, '']);
  return [...entries, ...Object.entries(fields), ['svc-action', 'submit']];
}

function post(entries: [string, string][], referer: string) {
  return svc.app.inject({
    method: 'POST',
    url: '/svc/submit',
    headers: { 'content-type': 'application/x-www-form-urlencoded', referer, origin: 'https://forms.example.test', host: 'forms.example.test' },
    payload: new URLSearchParams(entries).toString(),
  });
}

/** A form post to the hosted page's own address (a profile link's form posts back to the link). */
function postTo(url: string, entries: [string, string][]) {
  return svc.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://forms.example.test', host: 'forms.example.test' },
    payload: new URLSearchParams(entries).toString(),
  });
}

async function stored(handle: string): Promise<Record<string, unknown>[]> {
  const form = svc.context.forms.get(handle)!;
  const rows = await svc.context.database.db.selectFrom('svc_submissions').selectAll().where('form_id', '=', form.id).execute();
  return rows as unknown as Record<string, unknown>[];
}

describe('a hosted page', () => {
  it('answers GET /f/contact with the page: <svc-form>, its bundle and theme as files, and a strict CSP', async () => {
    const res = await page('/f/contact');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('same-origin');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toMatch(/style-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("default-src 'none'");
    const html = res.body;
    expect(html).toContain('<html lang="en-US" dir="ltr">');
    expect(html).toContain('<title>Contact us</title>');
    expect(html).toMatch(/<svc-form handle="contact" lang="en-US">/);
    expect(html).toContain('<script type="module" src="/f/_/svc-form.en.js"></script>');
    expect(html).toMatch(/<link rel="stylesheet" href="\/f\/contact\/theme\.css\?v=[A-Za-z0-9_-]+">/);
    // No inline script or style anywhere: the CSP would refuse them.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle="/);
    const script = await page('/f/_/svc-form.en.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toContain('svc-form');
    const again = await svc.app.inject({ method: 'GET', url: '/f/_/svc-form.en.js', headers: { 'if-none-match': String(script.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('says noindex, with a description and Open Graph tags from the form; a form that opts in is indexable', async () => {
    const html = (await page('/f/contact')).body;
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect((await page('/f/contact')).headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(html).toContain('<meta name="description" content="Questions, ideas, complaints.">');
    expect(html).toContain('<meta property="og:title" content="Contact us">');
    expect(html).toContain('<meta property="og:description" content="Questions, ideas, complaints.">');
    expect(html).toContain('<meta property="og:url" content="https://forms.example.test/f/contact">');
    const signup = await page('/f/signup');
    expect(signup.body).not.toContain('noindex');
    expect(signup.headers['x-robots-tag']).toBeUndefined();
  });

  it('stores a submission posted without JavaScript and shows the success page', async () => {
    const before = (await stored('contact')).length;
    const html = (await page('/f/contact')).body;
    const res = await post(formEntries(html, { name: 'Ann Lee', email: 'ann@example.test', message: 'Hello' }), 'https://forms.example.test/f/contact');
    expect(res.statusCode).toBe(303);
    const back = String(res.headers.location);
    expect(back).toMatch(/^https:\/\/forms\.example\.test\/f\/contact\?svc_flash=/);
    expect((await stored('contact')).length).toBe(before + 1);
    const done = await page(back.replace('https://forms.example.test', ''));
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('<p class="done" role="status">Thanks, we will write back.</p>');
    // The success page draws no element and loads no script.
    expect(done.body).not.toContain('<svc-form');
    expect(done.body).not.toContain('<script');
  });

  it('shows the errors of a refused post on the page again, with what was typed', async () => {
    const html = (await page('/f/contact')).body;
    const res = await post(formEntries(html, { name: 'Ann', email: 'not an address' }), 'https://forms.example.test/f/contact');
    expect(res.statusCode).toBe(303);
    const again = (await page(String(res.headers.location).replace('https://forms.example.test', ''))).body;
    expect(again).toContain('aria-invalid="true"');
    expect(again).toContain('value="not an address"');
  });

  it("honours the form's return URL after a post, and its CSP lets the browser go there", async () => {
    const first = await page('/f/signup');
    expect(String(first.headers['content-security-policy'])).toContain("form-action 'self' https://example.test");
    const res = await post(formEntries(first.body, { name: 'Bo Kim' }), 'https://forms.example.test/f/signup');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('https://example.test/welcome?name=Bo%20Kim');
    expect((await stored('signup')).length).toBe(1);
  });

  it("allows a captcha provider's script and frames on the page of a form that uses one, and on no other", async () => {
    const csp = String((await page('/f/ask')).headers['content-security-policy']);
    expect(csp).toContain("script-src 'self' https://challenges.cloudflare.com");
    expect(csp).toContain('frame-src https://challenges.cloudflare.com');
    const plain = String((await page('/f/contact')).headers['content-security-policy']);
    expect(plain).not.toContain('cloudflare');
    expect(plain).not.toContain('frame-src');
  });

  it('answers 404 with the same page for a form without the setting and for no form at all', async () => {
    const off = await page('/f/private');
    const missing = await page('/f/no-such-form');
    expect(off.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect(off.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(off.body).toBe(missing.body);
    expect(off.body).toContain('Form not found.');
    expect((await page('/f/private/theme.css')).statusCode).toBe(404);
  });

  it("serves the form's theme as a stylesheet with an ETag, its tokens on <svc-form>", async () => {
    const res = await page("/f/signup/theme.css");
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(res.body).toContain('color-scheme: dark;');
    expect(res.body).toContain('--svc-radius: 12px;');
    const cached = await svc.app.inject({ method: 'GET', url: '/f/signup/theme.css', headers: { 'if-none-match': String(res.headers.etag) } });
    expect(cached.statusCode).toBe(304);
  });

  it("opens a signed profile link as the page with the profile's context, and a spent single-use link as a clear page", async () => {
    const token = await svc.context.profiles.links.sign({ profile: 'feedback', properties: { eventId: 42 }, ttlSeconds: 600, singleUse: true });
    const url = `/f/contact?profile=feedback&token=${encodeURIComponent(token)}`;
    const opened = await page(url);
    expect(opened.statusCode).toBe(200);
    expect(opened.body).toContain(`<svc-form lang="en-US" profile="feedback" token="${token}" properties="{&quot;eventId&quot;:42}">`);
    // Framed (?embed=1) it is the same page; an unknown parameter is refused as the profile manifest refuses it.
    expect((await page(`${url}&embed=1`)).statusCode).toBe(200);
    const odd = await page(`${url}&colour=red`);
    expect([odd.statusCode, odd.headers['content-type']]).toEqual([400, 'text/html; charset=utf-8']);
    // The element reads the profile's manifest, which carries the context the link applies.
    const manifest = await svc.app.inject({ method: 'GET', url: `/svc/api/manifests/feedback/manifest?token=${encodeURIComponent(token)}` });
    expect(manifest.json().data.context.defaultValues).toEqual({ message: 'About event 42' });
    // The link's first submission spends it.
    const { token: csrf, cookie } = await svc.csrf();
    const meta = await svc.meta('contact');
    const sent = await svc.app.inject({
      method: 'POST',
      url: '/svc/api/manifests/feedback/submit',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf, cookie },
      payload: { intent: 'submit', values: { name: 'Ann', email: 'ann@example.test', message: 'Great event' }, context: { token }, meta },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const spent = await page(url);
    expect(spent.statusCode).toBe(409);
    expect(spent.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(spent.body).toContain('<h1>This link has already been used.</h1>');
    const forged = await page(`/f/contact?profile=feedback&token=not-a-token`);
    expect(forged.statusCode).toBe(401);
    expect(forged.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('opens a signed link without JavaScript: its form is filled from the link, posts with the profile applied and spends the link', async () => {
    // The link prefills the name (locked: stored whatever is posted); the profile fills the message.
    const token = await svc.context.profiles.links.sign({ profile: 'feedback', properties: { eventId: 7 }, ttlSeconds: 600, singleUse: true, prefill: { name: 'Ann Lee' } });
    const url = `/f/contact?profile=feedback&token=${encodeURIComponent(token)}`;
    const opened = await page(url);
    expect(opened.statusCode).toBe(200);
    // The element's content for a browser without JavaScript: a form that posts back to the link.
    const action = /<form [^>]*method="post" action="([^"]+)"/.exec(opened.body)?.[1]?.replace(/&amp;/g, '&');
    expect(action).toBe(url);
    expect(opened.body).toMatch(/<textarea[^>]*name="message"[^>]*>About event 7<\/textarea>/);
    expect(opened.body).toMatch(/<input[^>]*name="name"[^>]*value="Ann Lee"/);
    expect(opened.body).not.toContain('name="formHash"');
    const entries = formEntries(opened.body, { name: 'Ann Lee', email: 'ann.link@example.test', message: 'About event 7' });

    // A refused post draws the form again with its errors and what was typed; nothing is stored.
    const before = (await stored('contact')).length;
    const refused = await postTo(action!, entries.map(([name, value]) => [name, name === 'email' ? 'not an address' : value]));
    expect(refused.statusCode).toBe(422);
    expect(refused.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(refused.body).toContain('aria-invalid="true"');
    expect(refused.body).toContain('value="not an address"');
    expect((await stored('contact')).length).toBe(before);

    const sent = await postTo(action!, formEntries(refused.body, { name: 'Someone Else', email: 'ann.link@example.test', message: 'About event 7' }));
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.body).toContain('<p class="done" role="status">Thanks, we will write back.</p>');
    expect(sent.body).not.toContain('<script');
    const listing = await svc.app.inject({ method: 'GET', url: '/svc/api/admin/forms/contact/submissions', headers: { authorization: `Bearer ${API_KEY}` } });
    const id = listing.json<{ data: { id: number; values: Record<string, unknown> }[] }>().data.find((row) => row.values.email === 'ann.link@example.test')?.id;
    const item = (await svc.app.inject({ method: 'GET', url: `/svc/api/admin/submissions/${id}`, headers: { authorization: `Bearer ${API_KEY}` } })).json<{ data: { values: Record<string, unknown>; profile: Record<string, unknown> | null } }>().data;
    expect(item.values).toMatchObject({ name: 'Ann Lee', message: 'About event 7' });
    expect(item.profile).toMatchObject({ name: 'feedback', properties: { eventId: 7 }, issuer: 'svc' });
    expect((await stored('contact')).length).toBe(before + 1);

    // Single use: the page and a second post both say the link is spent, and store nothing.
    expect((await page(url)).statusCode).toBe(409);
    const again = await postTo(action!, entries);
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('<h1>This link has already been used.</h1>');
    expect((await stored('contact')).length).toBe(before + 1);
  });

  it('carries a signed link through a form of two pages without JavaScript, its state signed from page to page', async () => {
    const token = await svc.context.profiles.links.sign({ profile: 'round', properties: { round: 3 }, ttlSeconds: 600, singleUse: false });
    const url = `/f/survey?profile=round&token=${encodeURIComponent(token)}`;
    const first = await page(url);
    expect(first.body).toContain('Page 1 of 2');
    expect(first.body).toMatch(/<input[^>]*name="topic"[^>]*value="Round 3"/);
    // A browser posts the filled-in value as it stands.
    const second = await postTo(url, formEntries(first.body, { topic: 'Round 3' }));
    expect(second.statusCode, second.body).toBe(200);
    expect(second.body).toContain('Page 2 of 2');
    expect(second.body).toMatch(/<input type="hidden" name="svc_state" value="[^"]+">/);
    const before = (await stored('survey')).length;
    const sent = await postTo(url, formEntries(second.body, { verdict: 'Good' }));
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.body).toContain('<p class="done" role="status">');
    const rows = await stored('survey');
    expect(rows.length).toBe(before + 1);
    // The values of both pages, whatever the storage does with them, as the owner reads them.
    const listing = await svc.app.inject({ method: 'GET', url: '/svc/api/admin/forms/survey/submissions', headers: { authorization: `Bearer ${API_KEY}` } });
    expect(listing.json<{ data: { values: Record<string, unknown> }[] }>().data.map((row) => row.values)).toContainEqual({ topic: 'Round 3', verdict: 'Good' });
  });

  it('refuses a profile form post with a forged link, and a post to a page that names no profile, as pages; one from another origin as any submit', async () => {
    const token = await svc.context.profiles.links.sign({ profile: 'feedback', properties: { eventId: 8 }, ttlSeconds: 600, singleUse: true });
    const entries = formEntries((await page(`/f/contact?profile=feedback&token=${encodeURIComponent(token)}`)).body, { name: 'Bo', email: 'bo@example.test' });
    const forged = await postTo('/f/contact?profile=feedback&token=not-a-token', entries);
    expect([forged.statusCode, forged.headers['content-type']]).toEqual([401, 'text/html; charset=utf-8']);
    const plain = await postTo('/f/contact', entries);
    expect([plain.statusCode, plain.headers['content-type']]).toEqual([404, 'text/html; charset=utf-8']);
    // Another site's page posting the form: refused before anything is read, as every submit is.
    const foreign = await svc.app.inject({
      method: 'POST',
      url: `/f/contact?profile=feedback&token=${encodeURIComponent(token)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://elsewhere.example', host: 'forms.example.test' },
      payload: new URLSearchParams(entries).toString(),
    });
    expect([foreign.statusCode, foreign.json().code]).toEqual([403, 'ORIGIN_NOT_ALLOWED']);
  });

  it("serves lean bundles: one language's catalogue, and phone metadata only for a form with a phone field", async () => {
    const german = (await page('/f/_/svc-form.de.js')).body;
    expect(german).toContain('Dieses Feld ist erforderlich');
    expect(german).not.toContain('Ce champ est obligatoire');
    const english = (await page('/f/_/svc-form.en.js')).body;
    const withPhone = (await page('/f/_/svc-form.en-phone.js')).body;
    expect(english).not.toContain('Dieses Feld ist erforderlich');
    // libphonenumber's metadata (country calling codes) is only behind the -phone variant, as a
    // chunk it imports on a phone field's first focus (hosted-page-weight.test.ts weighs them).
    const chunk = /import\("\.\/(svc-phone-[A-Z0-9]+\.js)"\)/.exec(withPhone)?.[1];
    expect(chunk).toBeDefined();
    expect(english).not.toContain('svc-phone-');
    expect((await page(`/f/_/${chunk}`)).body).toContain('country_calling_codes');
    expect(english).not.toContain('country_calling_codes');
    expect(withPhone).not.toContain('country_calling_codes');
    expect((await page('/f/_/svc-form.xx.js')).statusCode).toBe(404);
  });

  it('loads, inside an iframe (?embed=1), the script that reports its height, and serves the bundle to other origins', async () => {
    const embedded = await page('/f/contact?embed=1');
    expect(embedded.body).toContain('<script type="module" src="/f/_/hosted-frame.js"></script>');
    expect((await page('/f/contact')).body).not.toContain('hosted-frame.js');
    const frameScript = await page('/f/_/hosted-frame.js');
    expect(frameScript.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(frameScript.body).toContain("postMessage({ type: 'svc:height'");
    expect((await page('/f/_/svc-form.en.js')).headers['access-control-allow-origin']).toBe('*');
  });
});

describe('the console share page', () => {
  async function signedIn(): Promise<string> {
    const form = await svc.app.inject({ method: 'GET', url: '/svc/console/sign-in' });
    const pre = /svc_console_pre=([^;]+)/.exec(String(form.headers['set-cookie']))?.[1] ?? '';
    const csrf = /name="csrf" value="([^"]+)"/.exec(form.body)?.[1] ?? '';
    const res = await svc.app.inject({
      method: 'POST',
      url: '/svc/console/sign-in',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `svc_console_pre=${pre}` },
      payload: new URLSearchParams({ csrf, apiKey: API_KEY }).toString(),
    });
    expect(res.statusCode).toBe(303);
    return `svc_console=${/svc_console=([^;]+)/.exec(String(res.headers['set-cookie']))?.[1] ?? ''}`;
  }

  it("shows a form's link, a QR code of it and the embed snippets, escaped, under the console's CSP", async () => {
    const cookie = await signedIn();
    const res = await svc.app.inject({ method: 'GET', url: '/svc/console/forms/contact/share', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(res.body).toContain('<a id="hosted-link" href="https://forms.example.test/f/contact">https://forms.example.test/f/contact</a>');
    expect(res.body).toMatch(/<div class="qr" role="img" aria-label="QR code of https:\/\/forms\.example\.test\/f\/contact"><svg width="240" height="240" xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 \d+ \d+">/);
    // The snippets are shown as text, not run: every < is escaped.
    expect(res.body).toContain('&lt;script type=&quot;module&quot; src=&quot;https://forms.example.test/f/_/svc-form.en.js&quot;&gt;&lt;/script&gt;');
    expect(res.body).toContain('&lt;iframe src=&quot;https://forms.example.test/f/contact?embed=1&quot;');
    const qr = await svc.app.inject({ method: 'GET', url: '/svc/console/forms/contact/share/qr.svg', headers: { cookie } });
    expect(qr.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(qr.body).toMatch(/^<svg [^>]*>.*<path fill="black" d="M/);
  });

  it('says why a form without the setting has no page to share, and asks a visitor to sign in', async () => {
    const cookie = await signedIn();
    const res = await svc.app.inject({ method: 'GET', url: '/svc/console/forms/private/share', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('This form has no hosted page: set settings.hostedPage: true in its file.');
    expect(res.body).not.toContain('<svg');
    const visitor = await svc.app.inject({ method: 'GET', url: '/svc/console/forms/contact/share' });
    expect([visitor.statusCode, visitor.headers.location]).toEqual([303, '/svc/console/sign-in']);
  });
});
