/**
 * Profiles per site (issue #34): a profile's manifest and submit take `?site=` (and the submit
 * `context.site`) exactly as the plain manifest and submit do: the site's translated labels, the
 * site's language for validation, an ETag per site, 404 SITE_NOT_FOUND for an unknown handle, and
 * the submission recording its site.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app.js';
import { postGraphql } from './support/graphql-client.js';
import { profileManifestEtag } from '../src/profiles/profile-manifest.js';

const SITES = [
  { handle: 'default', language: 'en-US', default: true },
  { handle: 'de', language: 'de-DE', timezone: 'Europe/Berlin' },
  { handle: 'ar', language: 'ar' },
];

type ManifestBody = { data: { site: Record<string, unknown>; form: { name: string }; fields: Record<string, { label: string; defaultValue: unknown }>; metadata: unknown } };

describe('profiles per site', () => {
  let svc: TestApp;
  beforeAll(async () => {
    svc = await createTestApp({
      config: {
        sites: SITES,
        headless: {
          profiles: {
            open: {
              form: 'contact',
              properties: { topic: { type: 'string', required: true } },
              context: { defaultValues: { message: 'About {{ properties.topic }}' } },
              cache: 'public, max-age=60',
            },
          },
        },
      },
    });
  });
  afterAll(async () => {
    await svc?.close();
  });

  const manifest = (query: string, headers: Record<string, string> = {}) =>
    svc.app.inject({ method: 'GET', url: `/svc/api/manifests/open/manifest?properties[topic]=billing${query}`, headers });
  async function submit(body: Record<string, unknown>, query = '') {
    const { token, cookie } = await svc.csrf();
    return svc.app.inject({
      method: 'POST',
      url: `/svc/api/manifests/open/submit${query}`,
      headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie },
      payload: JSON.stringify({ intent: 'submit', meta: await svc.meta('contact'), properties: { topic: 'billing' }, ...body }),
    });
  }

  it('answers ?site=de with the German site, its labels and an ETag of its own', async () => {
    const plain = await manifest('');
    const german = await manifest('&site=de');
    expect(plain.statusCode, plain.body).toBe(200);
    expect(german.statusCode, german.body).toBe(200);

    const de = german.json<ManifestBody>().data;
    expect(de.site).toMatchObject({ handle: 'de', language: 'de-DE' });
    expect(de.form.name).toBe('Kontakt');
    expect(de.fields.firstName?.label).toBe('Vorname');
    // The profile's own parts are the same on every site.
    expect(de.fields.message?.defaultValue).toBe('About billing');
    expect(de.metadata).toEqual({ profile: 'open', properties: { topic: 'billing' } });
    expect(german.headers['cache-control']).toBe('public, max-age=60');

    const en = plain.json<ManifestBody>().data;
    expect(en.site).toMatchObject({ handle: 'default', language: 'en-US' });
    expect(en.fields.firstName?.label).toBe('First name');

    expect(german.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(plain.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(german.headers.etag).not.toBe(plain.headers.etag);
    // Arabic: a third site, a third ETag.
    const arabic = await manifest('&site=ar');
    expect(arabic.json<ManifestBody>().data.fields.firstName?.label).toBe('الاسم الأول');
    expect(new Set([plain.headers.etag, german.headers.etag, arabic.headers.etag]).size).toBe(3);
  });

  it("answers 304 to the site's own ETag and the whole manifest to another site's", async () => {
    const german = await manifest('&site=de');
    const plain = await manifest('');
    const again = await manifest('&site=de', { 'if-none-match': String(german.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const crossed = await manifest('&site=de', { 'if-none-match': String(plain.headers.etag) });
    expect(crossed.statusCode).toBe(200);
    expect(crossed.json<ManifestBody>().data.site).toMatchObject({ handle: 'de' });
    // The properties are part of it too.
    const other = await svc.app.inject({ method: 'GET', url: '/svc/api/manifests/open/manifest?properties[topic]=sales&site=de', headers: { 'if-none-match': String(german.headers.etag) } });
    expect(other.statusCode).toBe(200);
  });

  it('answers 404 SITE_NOT_FOUND for a site that is not configured, on the manifest and the submit', async () => {
    const res = await manifest('&site=fr');
    expect(res.statusCode).toBe(404);
    expect(res.json<{ code: string }>().code).toBe('SITE_NOT_FOUND');
    const posted = await submit({ values: { firstName: 'Jo', email: 'jo@example.test' }, context: { site: 'fr' } });
    expect(posted.statusCode).toBe(404);
    expect(posted.json<{ code: string }>().code).toBe('SITE_NOT_FOUND');
  });

  it("checks a submit with context.site in the site's language and records the site", async () => {
    const bad = await submit({ values: { firstName: 'Anna', email: 'nope' }, context: { site: 'de' } });
    expect(bad.statusCode, bad.body).toBe(422);
    expect(bad.json<{ message: string; errors: { fields: Record<string, string[]> } }>()).toMatchObject({
      message: 'Bitte korrigieren Sie die markierten Felder.',
      errors: { fields: { email: ['Geben Sie eine gültige E-Mail-Adresse ein'] } },
    });

    const good = await submit({ values: { firstName: 'Anna', email: 'anna@example.test' }, context: { site: 'de' } });
    expect(good.statusCode, good.body).toBe(200);
    const id = good.json<{ submission: { id: number } }>().submission.id;
    const row = await svc.context.database.db.selectFrom('svc_submissions').select(['site', 'profile']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.site).toBe('de');
    expect(JSON.parse(String(row.profile))).toMatchObject({ name: 'open' });
  });

  it('takes the site from ?site= on the submit when the body names none', async () => {
    const bad = await submit({ values: { firstName: 'Layla', email: 'nope' } }, '?site=ar');
    expect(bad.statusCode, bad.body).toBe(422);
    expect(bad.json<{ errors: { fields: Record<string, string[]> } }>().errors.fields.email?.[0]).toMatch(/[\u0600-\u06FF]/);
  });
});

describe('profiles per site over GraphQL', () => {
  let svc: TestApp;
  beforeAll(async () => {
    svc = await createTestApp({ config: { sites: SITES, headless: { profiles: { open: { form: 'contact', properties: { topic: { type: 'string', required: true } } } } } } });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it("checks a save through a profile with svcSite in the site's language, the form's translated error included", async () => {
    const form = svc.context.forms.get('contact')!;
    const { token, cookie } = await svc.csrf();
    const hp = { name: svc.context.submit.spamFields.honeypotName(form), value: '' };
    const { body } = await postGraphql(
      svc,
      `mutation ($csrf: SvcCsrfTokenInputType, $hp: SvcHoneypotInputType, $profile: SvcProfileInputType) {
        save_contact_Submission(csrfToken: $csrf, honeypot: $hp, svcProfile: $profile, svcSite: "de", firstName: "Anna", email: "nope") { id }
      }`,
      { csrf: { name: 'SVC_CSRF_TOKEN', value: token }, hp, profile: { name: 'open', properties: { topic: 'billing' } } },
      { cookie },
    );
    const error = body.errors?.[0];
    expect(error?.extensions?.['code'], JSON.stringify(body)).toBe('VALIDATION_FAILED');
    expect(error?.extensions?.['fields']).toMatchObject({ email: ['Geben Sie eine gültige E-Mail-Adresse ein'] });
    expect(JSON.stringify(error)).toContain('Bitte korrigieren Sie die markierten Felder.');
  });
});

describe('profile manifest ETag', () => {
  const input = (hidden: string) => ({
    profile: 'open',
    properties: { topic: 'billing' },
    context: { defaultValues: {}, hiddenFields: { lastName: hidden }, lockedFields: {} },
    cache: { visibility: 'public' as const, maxAge: 60 },
  });

  it('depends on the site manifest it is built from, and not on the hidden values the body never shows', () => {
    expect(profileManifestEtag('"a"', input('x'))).toBe(profileManifestEtag('"a"', input('y')));
    expect(profileManifestEtag('"a"', input('x'))).not.toBe(profileManifestEtag('"b"', input('x')));
  });
});
