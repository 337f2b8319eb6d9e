/**
 * The classic pages and the demo's pages in the site's language (issue #34 items 4 and 5): a
 * classic post answers a browser's plain page, its refusals and its field errors in the language
 * of the site it names (`?site=` on the action, or a posted `site` entry), with `lang` and `dir`;
 * the default site's page stays byte for byte what it was. The demo's pages take `?site=`, keep it
 * on their links, and speak the site's language, right to left for Arabic.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app.js';

const SITE = 'http://localhost:5173';
const FOREIGN_PAGE = 'https://elsewhere.example/page';
const PERSON = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.test', message: 'Hello from a plain form' };
const SITES = [
  { handle: 'default', language: 'en-US', default: true },
  { handle: 'de', language: 'de-DE' },
  { handle: 'ar', language: 'ar' },
];

type Properties = Record<string, any>;

let svc: TestApp;
beforeAll(async () => {
  svc = await createTestApp({ demo: true, config: { sites: SITES } });
});
afterAll(async () => {
  await svc?.close();
});

async function properties(handle: string, query = ''): Promise<Properties> {
  const res = await svc.app.inject({ method: 'GET', url: `/svc/api/forms/${handle}/properties${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Properties>();
}

/** The entries a rendered page posts: action, formHash, payload, CSRF, honeypot, then the fields. */
function entriesOf(props: Properties, fields: Record<string, string>, extra: [string, string][] = []): [string, string][] {
  const out: [string, string][] = [['action', props.action], ['formHash', props.hash]];
  if (props.svc_payload !== undefined) out.push(['svc_payload', props.svc_payload]);
  if (props.csrf) out.push([props.csrf.name, props.csrf.token]);
  if (props.honeypot) out.push([props.honeypot.name, props.honeypot.value]);
  return [...out, ...Object.entries(fields), ...extra];
}

/** A browser's post from a page the form may not be sent back to: svc answers with its plain page. */
function post(entries: [string, string][], url: string, headers: Record<string, string> = {}) {
  return svc.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: SITE, referer: FOREIGN_PAGE, ...headers },
    payload: new URLSearchParams(entries).toString(),
  });
}

/** An answer's status, then every fragment its page must hold: each test reads its pages this way. */
function expectPage(res: { statusCode: number; body: string }, status: number, ...fragments: string[]): void {
  expect(res.statusCode, res.body).toBe(status);
  for (const fragment of fragments) expect(res.body).toContain(fragment);
}

describe('a classic post answered in its site’s language', () => {
  it('draws a site’s page to post back naming its site; the default site’s posts where it always did', async () => {
    expect((await properties('contact')).actionUrl).toBe('/svc/submit');
    expect((await properties('contact', '?site=de')).actionUrl).toBe('/svc/submit?site=de');
    expect((await properties('contact', '?site=ar')).actionUrl).toBe('/svc/submit?site=ar');
  });

  it('on site de, a bad email answers a German page with lang="de-DE"', async () => {
    const props = await properties('contact', '?site=de');
    const res = await post(entriesOf(props, { ...PERSON, email: 'keine Adresse' }), props.actionUrl);
    expectPage(res, 422, '<html lang="de-DE" dir="ltr">', '<title>Das Formular wurde nicht gesendet</title>', '<p>Geben Sie eine gültige E-Mail-Adresse ein</p>', '<p>Bitte korrigieren Sie die markierten Felder.</p>');
    expect(res.body).not.toContain('valid email');
  });

  it('on site ar, the same post answers Arabic, right to left', async () => {
    const props = await properties('contact', '?site=ar');
    const res = await post(entriesOf(props, { ...PERSON, email: 'ليس بريدًا' }), props.actionUrl);
    expectPage(res, 422, '<html lang="ar" dir="rtl">', '<title>لم يُرسَل النموذج</title>', '<p>أدخل عنوان بريد إلكتروني صالحًا</p>');
  });

  it('reads the site from a posted `site` entry when the action names none, and thanks in that language', async () => {
    const res = await post(entriesOf(await properties('contact', '?site=de'), PERSON, [['site', 'de']]), '/svc/submit');
    expectPage(res, 200, '<html lang="de-DE" dir="ltr">', '<title>Vielen Dank</title><', '<p>Danke, wir haben Ihre Nachricht erhalten.</p>');
  });

  it('words a refusal in the site’s language: on the plain page, and to a script', async () => {
    const noCsrf = (props: Properties) => entriesOf(props, PERSON).filter(([name]) => name !== 'SVC_CSRF_TOKEN');
    const page = await post(noCsrf(await properties('contact', '?site=de')), '/svc/submit?site=de');
    expectPage(page, 400, '<html lang="de-DE" dir="ltr">', '<h1>Das Formular wurde nicht gesendet</h1><p>Das CSRF-Token fehlt oder ist ungültig.</p>');
    expect(page.body).not.toContain('The CSRF token');
    // A script's refusal too, the site named by a posted entry (the error boundary sees only ?site=).
    const script = await post([...noCsrf(await properties('contact', '?site=ar')), ['site', 'ar']], '/svc/submit', { accept: 'application/json' });
    const answer = script.json<{ code: string; message: string }>();
    expect(answer.code).toBe('CSRF_INVALID');
    expect(answer.message).toBe('رمز CSRF مفقود أو غير صالح.');
    // Without a site the refusal keeps its English words, detail included.
    const english = await post(noCsrf(await properties('contact')), '/svc/submit', { accept: 'application/json' });
    expect(english.json()).toMatchObject({ code: 'CSRF_INVALID', message: 'The CSRF token is missing or invalid.' });
  });

  it('an unknown site is refused, in English, and nothing is stored', async () => {
    const res = await post(entriesOf(await properties('contact'), PERSON), '/svc/submit?site=xx', { accept: 'application/json' });
    expect(res.json()).toMatchObject({ code: 'SITE_NOT_FOUND' });
  });

  it('on the default site, the page is byte for byte the English page svc answered before sites', async () => {
    const res = await post(entriesOf(await properties('contact'), { ...PERSON, email: 'not an address' }), '/svc/submit');
    expect(res.statusCode).toBe(422);
    await expect(res.body).toMatchFileSnapshot('./fixtures/classic-answer-en.html');
  });
});

describe('the demo’s pages in the site’s language', () => {
  const get = (url: string, headers: Record<string, string> = {}) => svc.app.inject({ method: 'GET', url, headers });

  it('the index speaks the site’s language, offers the other sites and lists their translated manifests', async () => {
    const english = await get('/demo/');
    expectPage(english, 200, '<html lang="en">', '<h1>svc demo</h1>', '<a href="./?site=de" lang="de-DE" hreflang="de-DE">Deutsch (Deutschland)</a>', '<a href="./?site=ar" lang="ar" hreflang="ar">العربية</a>', '/svc/api/forms/contact/manifest?site=de', '/svc/api/forms/application/manifest?site=ar');
    const arabic = await get('/demo/?site=ar');
    expectPage(arabic, 200, '<html lang="ar" dir="rtl">', '<h1>عرض svc التوضيحي</h1>', '<svc-form handle="contact" site="ar">', 'href="/demo/classic/contact?site=ar"', 'aria-current="page">العربية</a>');
    expect((await get('/demo/?site=nowhere')).json()).toMatchObject({ code: 'SITE_NOT_FOUND' });
  });

  it('the German classic page posts to its site, comes back with German errors and keeps the site', async () => {
    const page = await get('/demo/classic/contact?site=de');
    expectPage(page, 200, '<html lang="de-DE" dir="ltr">', '<title>Kontakt (auf dem Server gezeichnet)</title>', '<a href="/demo/?site=de">Alle Demo-Formulare</a>', 'action="/svc/submit?site=de"', 'Dieses Feld leer lassen');
    const form = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page.body)?.[1] ?? '';
    const entries: [string, string][] = [['action', 'svc/submit'], ['formHash', form('formHash')], ['svc_payload', form('svc_payload')], ['SVC_CSRF_TOKEN', form('SVC_CSRF_TOKEN')], ...Object.entries({ ...PERSON, email: 'keine Adresse' })];
    const demoUrl = 'http://localhost/demo/classic/contact?site=de';
    const back = await svc.app.inject({
      method: 'POST',
      url: '/svc/submit?site=de',
      headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'localhost', origin: 'http://localhost', referer: demoUrl },
      payload: new URLSearchParams(entries).toString(),
    });
    expect(back.statusCode, back.body).toBe(303);
    const location = back.headers.location as string;
    expect(location).toMatch(/^\/demo\/classic\/contact\?site=de&svc_flash=/);
    const shown = await get(location.split('#')[0] as string);
    expectPage(shown, 200, '<li>Geben Sie eine gültige E-Mail-Adresse ein</li>', 'E-Mail-Adresse');
  });

  it('the Arabic classic and resume pages run right to left in Arabic; the English ones stay English', async () => {
    const classic = await get('/demo/classic/application?site=ar');
    expectPage(classic, 200, '<html lang="ar" dir="rtl">', 'كل نماذج العرض', '"sendFailed":"تعذّر إرسال النموذج؛ يُرجى المحاولة مرة أخرى."'.replace(/"/g, '&quot;'));
    const english = await get('/demo/classic/application');
    expectPage(english, 200, '<html lang="en">', '<a href="/demo/">All demo forms</a>', 'Page 1 of 3');
    const resume = await get('/demo/resume?site=ar&form=contact');
    expectPage(resume, 200, '<html lang="ar" dir="rtl">', '<svc-form allow-save site="ar">', 'متابعة نموذج محفوظ', '<a href="./?site=ar">');
  });
});
