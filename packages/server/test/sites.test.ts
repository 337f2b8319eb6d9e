/**
 * Sites (issue #34): each configured site serves every form in its language, named by `?site=` on
 * a read and `context.site` (or `?site=`) on a submit; requests that name none get the default
 * site, whose manifest is byte for byte what svc served before sites existed. docs/languages.md's
 * curl block runs here as written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { buildApp, type SvcApp } from '../src/app.js';
import { createDatabase } from '../src/storage/database-factory.js';
import { createTestApp, testConfig, type TestApp } from './support/test-app.js';
import { normaliseManifest } from './support/manifest-normalise.js';
import { postGraphql } from './support/graphql-client.js';
import { ADMIN_KEYS_CONFIG, KEYS } from './support/admin-fixture.js';
import { commandBlocks } from './support/docs-blocks.js';
import { runCommand } from './support/svc-command.js';
import { describeWithService } from './support/service-requirements.js';

const DEMO_SITES = [
  { handle: 'default', language: 'en-US', default: true },
  { handle: 'de', language: 'de-DE', timezone: 'Europe/Berlin' },
  { handle: 'ar', language: 'ar' },
];

// The default site's manifests as svc served them before sites existed (ids, uids and the names
// derived from them replaced: see manifest-normalise.ts), taken with generatedAt 2026-01-01.
const BEFORE_SITES = JSON.parse(readFileSync(resolve(import.meta.dirname, 'fixtures/default-site-manifests.json'), 'utf8')) as Record<string, string>;
const FIXED_NOW = () => new Date('2026-01-01T00:00:00Z');

describe('sites', () => {
  let svc: TestApp;
  beforeAll(async () => {
    svc = await createTestApp({ config: { sites: DEMO_SITES, admin: { keys: ADMIN_KEYS_CONFIG } } });
  });
  afterAll(async () => {
    await svc?.close();
  });

  const manifest = (handle: string, site?: string, headers: Record<string, string> = {}) =>
    svc.app.inject({ method: 'GET', url: `/svc/api/forms/${handle}/manifest${site === undefined ? '' : `?site=${site}`}`, headers });

  async function submitOn(site: string, values: Record<string, unknown>, where: 'context' | 'query' = 'context') {
    const { token, cookie } = await svc.csrf();
    const meta = await svc.meta('contact');
    return svc.app.inject({
      method: 'POST',
      url: `/svc/api/forms/contact/submit${where === 'query' ? `?site=${site}` : ''}`,
      headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie },
      payload: JSON.stringify({ intent: 'submit', values, meta, ...(where === 'context' ? { context: { site } } : {}) }),
    });
  }

  it('serves the contact manifest on the German site in German, naming the site', async () => {
    const res = await manifest('contact', 'de');
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.site).toEqual({ id: 2, handle: 'de', language: 'de-DE', baseUrl: '' });
    expect(data.form.name).toBe('Kontakt');
    expect(data.fields.firstName.label).toBe('Vorname');
    expect(data.fields.email.label).toBe('E-Mail-Adresse');
    expect(data.fields.email.requiredMessage).toBe('Dieses Feld ist erforderlich');
    expect(data.settings.successMessage).toBe('Danke, wir haben Ihre Nachricht erhalten.');
    expect(data.layout.pages[0].buttons.submit.label).toBe('Senden');
  });

  it('serves the Arabic site in Arabic', async () => {
    const { data } = (await manifest('contact', 'ar')).json();
    expect(data.site).toEqual({ id: 3, handle: 'ar', language: 'ar', baseUrl: '' });
    expect(data.form.name).toBe('اتصل بنا');
    expect(data.fields.lastName.label).toBe('اسم العائلة');
    expect(data.fields.email.requiredMessage).toBe('هذا الحقل مطلوب');
  });

  it('translates page labels, option labels and the page buttons of a multi-page form', async () => {
    const { data } = (await manifest('application', 'de')).json();
    expect(data.layout.pages.map((p: { label: string }) => p.label)).toEqual(['Über Sie', 'Unternehmen', 'Details']);
    expect(data.fields.applicantType.options.map((o: { value: string; label: string }) => [o.value, o.label])).toEqual([
      ['individual', 'Privatperson'],
      ['company', 'Unternehmen'],
    ]);
    expect(data.fields.vatNumber.validation.patternMessage).toBe('Geben Sie eine USt-IdNr. wie DE123456789 ein');
    expect(data.layout.pages[1].buttons).toMatchObject({ submit: { label: 'Weiter' }, back: { label: 'Zurück' } });
    expect(data.layout.pages[2].buttons.submit.label).toBe('Bewerben');
  });

  it('falls back to the form\'s own words for a string a translation leaves out, never to a blank', async () => {
    // kitchen-sink has no translations at all: the German site shows it as written.
    const { data } = (await manifest('kitchen-sink', 'de')).json();
    const english = (await manifest('kitchen-sink')).json().data;
    expect(data.form.name).toBe(english.form.name);
    for (const [handle, field] of Object.entries(data.fields as Record<string, { label: string }>)) {
      expect(field.label, handle).toBe(english.fields[handle].label);
    }
    expect(data.site.handle).toBe('de');
  });

  it('answers an unknown site with 404 SITE_NOT_FOUND on reads and submits', async () => {
    const read = await manifest('contact', 'fr');
    expect(read.statusCode).toBe(404);
    expect(read.json()).toMatchObject({ success: false, code: 'SITE_NOT_FOUND' });
    const submit = await submitOn('fr', { firstName: 'A', email: 'a@example.test' });
    expect(submit.statusCode).toBe(404);
    expect(submit.json()).toMatchObject({ code: 'SITE_NOT_FOUND' });
    const graphql = await postGraphql<{ svc: { form: unknown } }>(svc, '{ svc { form(handle: "contact", site: "fr") { name } } }');
    expect(graphql.body.errors?.[0]?.extensions?.code).toBe('SITE_NOT_FOUND');
  });

  it('gives each site its own ETag, and a site\'s ETag does not revalidate another site', async () => {
    const tags = await Promise.all([undefined, 'default', 'de', 'ar'].map(async (site) => (await manifest('contact', site)).headers.etag as string));
    expect(tags[0]).toBe(tags[1]);
    expect(new Set([tags[0], tags[2], tags[3]]).size).toBe(3);
    expect((await manifest('contact', 'de', { 'if-none-match': tags[2] as string })).statusCode).toBe(304);
    expect((await manifest('contact', undefined, { 'if-none-match': tags[2] as string })).statusCode).toBe(200);
  });

  it('answers a bad email on the German site in German, and on the Arabic site in Arabic', async () => {
    const de = await submitOn('de', { firstName: 'Anna', email: 'nicht-gültig' });
    expect(de.statusCode).toBe(422);
    expect(de.json().errors.fields.email).toEqual(['Geben Sie eine gültige E-Mail-Adresse ein']);
    expect(de.json().message).toBe('Bitte korrigieren Sie die markierten Felder.');
    const ar = await submitOn('ar', { firstName: 'ليلى', email: 'x' }, 'query');
    expect(ar.statusCode).toBe(422);
    expect(ar.json().errors.fields.email).toEqual(['أدخل عنوان بريد إلكتروني صالحًا']);
    expect(ar.json().errors.fields.firstName).toBeUndefined();
  });

  it('keeps English answers on the default site', async () => {
    const res = await submitOn('default', { firstName: 'Ann', email: 'nope' });
    expect(res.json().errors.fields.email).toEqual(['Enter a valid email address']);
  });

  it('words a refusal in the site\'s language', async () => {
    const res = await svc.app.inject({
      method: 'POST',
      url: '/svc/api/forms/contact/submit?site=de',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ intent: 'submit', values: {} }),
    });
    expect(res.json()).toEqual({ success: false, code: 'CSRF_INVALID', message: 'Das CSRF-Token fehlt oder ist ungültig.' });
    const english = await svc.app.inject({ method: 'POST', url: '/svc/api/forms/contact/submit', headers: { 'content-type': 'application/json' }, payload: '{"intent":"submit"}' });
    expect(english.json().message).toBe('The CSRF token is missing or invalid.');
  });

  it('records the site a submission was made on, and the admin API and export show it', async () => {
    const german = await submitOn('de', { firstName: 'Jonas', email: 'jonas@example.test' });
    expect(german.statusCode).toBe(200);
    const plain = await svc.submit('contact', { intent: 'submit', values: { firstName: 'Ann', email: 'ann@example.test' } });
    expect(plain.statusCode).toBe(200);
    const rows = await sql<{ id: number; site: string | null }>`select id, site from svc_submissions order by id desc limit 2`.execute(svc.context.database.db);
    expect(rows.rows.map((r) => r.site)).toEqual(['default', 'de']);
    const authorization = `Bearer ${KEYS.admin}`;
    const detail = await svc.app.inject({ method: 'GET', url: `/svc/api/admin/submissions/${rows.rows[1]?.id}`, headers: { authorization } });
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data).toMatchObject({ site: 'de' });
    const list = await svc.app.inject({ method: 'GET', url: '/svc/api/admin/forms/contact/submissions', headers: { authorization } });
    const items = list.json().data as { site: string | null }[];
    expect(items.map((item) => item.site).sort()).toEqual(['de', 'default']);
    const jsonl = await svc.app.inject({ method: 'GET', url: '/svc/api/admin/forms/contact/export?format=jsonl', headers: { authorization } });
    expect(jsonl.statusCode).toBe(200);
    expect(jsonl.body.trim().split('\n').map((line) => JSON.parse(line).site).sort()).toEqual(['de', 'default']);
  });

  it('reads a form in a site\'s language through GraphQL and the properties JSON', async () => {
    const graphql = await postGraphql<{ svc: { form: { name: string; pages: { label: string }[] } } }>(
      svc,
      '{ svc { form(handle: "application", site: "ar") { name pages { label } } } }',
    );
    expect(graphql.body.errors).toBeUndefined();
    expect(graphql.body.data?.svc.form.name).toBe('طلب التقديم');
    expect(graphql.body.data?.svc.form.pages.map((p) => p.label)).toEqual(['معلومات عنك', 'الشركة', 'التفاصيل']);
    const headless = await postGraphql<{ svcHeadlessManifest: { site: { handle: string }; form: { name: string } } }>(
      svc,
      '{ svcHeadlessManifest(handle: "contact", site: "de") }',
    );
    expect(headless.body.data?.svcHeadlessManifest).toMatchObject({ site: { handle: 'de' }, form: { name: 'Kontakt' } });
    const properties = await svc.app.inject({ method: 'GET', url: '/svc/api/forms/contact/properties?site=de' });
    expect(properties.statusCode).toBe(200);
    expect(JSON.stringify(properties.json())).toContain('Vorname');
  });
});

describe('the default site', () => {
  let dataDir: string;
  let plain: SvcApp;
  let withSites: SvcApp;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-sites-'));
    // One database for both: the same form identities, so the bytes compare as they are.
    const database = createDatabase({ url: null, dataDir, poolSize: 1, preparedStatements: true });
    plain = await buildApp(testConfig({}, dataDir), { logger: false, now: FIXED_NOW, database });
    withSites = await buildApp(testConfig({ config: { sites: DEMO_SITES } }, dataDir), { logger: false, now: FIXED_NOW, database });
  });
  afterAll(async () => {
    await withSites?.close();
    await plain?.close();
    await plain?.context.database.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves the manifest svc served before sites existed', async () => {
    for (const handle of ['contact', 'application']) {
      const res = await plain.app.inject({ method: 'GET', url: `/svc/api/forms/${handle}/manifest` });
      expect(normaliseManifest(res.body), handle).toBe(BEFORE_SITES[handle]);
    }
  });

  it('serves the same bytes and ETag with sites configured, to requests that name no site', async () => {
    for (const handle of ['contact', 'application']) {
      const before = await plain.app.inject({ method: 'GET', url: `/svc/api/forms/${handle}/manifest` });
      const after = await withSites.app.inject({ method: 'GET', url: `/svc/api/forms/${handle}/manifest` });
      expect(after.body).toBe(before.body);
      expect(after.headers.etag).toBe(before.headers.etag);
    }
  });
});

describe('GraphQL submits on a site', () => {
  let svc: TestApp;
  beforeAll(async () => {
    // CSRF is covered by the REST tests above; here only the site's language is at stake.
    svc = await createTestApp({ config: { sites: DEMO_SITES, csrf: { enabled: false } } });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('answers the per-form mutation\'s field errors in the language of svcSite', async () => {
    const { body } = await postGraphql<unknown>(svc, 'mutation { save_contact_Submission(svcSite: "de", firstName: "Anna", email: "falsch") { id } }');
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', fields: { email: ['Geben Sie eine gültige E-Mail-Adresse ein'] } });
    expect(body.errors?.[0]?.message).toBe('Bitte korrigieren Sie die markierten Felder.');
  });

  it('answers svcHeadlessSubmit in the language of context.site', async () => {
    const { body } = await postGraphql<{ svcHeadlessSubmit: { errors: { fields: Record<string, string[]> } } }>(
      svc,
      'mutation { svcHeadlessSubmit(handle: "contact", values: { firstName: "ليلى", email: "x" }, context: { site: "ar" }) }',
    );
    expect(body.data?.svcHeadlessSubmit.errors.fields.email).toEqual(['أدخل عنوان بريد إلكتروني صالحًا']);
  });
});

const TOOLS = ['curl', 'jq', 'bash'];
const onPath = (tool: string) => (process.env.PATH ?? '').split(delimiter).some((dir) => existsSync(join(dir, tool)));

describeWithService('docs/languages.md', TOOLS.every(onPath) ? 'yes' : undefined, `${TOOLS.join(', ')} are needed to run the page's block`, () => {
  let svc: TestApp;
  let base: string;
  beforeAll(async () => {
    svc = await createTestApp({ config: { sites: DEMO_SITES } });
    await svc.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(svc.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('runs its curl block as written against the demo sites, printing what the page says it prints', async () => {
    const [block] = commandBlocks('docs/languages.md');
    const run = await runCommand('bash', ['-euo', 'pipefail', '-c', (block as string).replaceAll('http://localhost:3000', base)], { timeoutMs: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    // Each `# -> ` line of the block is the line its command prints.
    const promised = (block as string).split('\n').filter((line) => line.startsWith('# -> ')).map((line) => line.slice(5));
    expect(run.stdout.trim().split('\n')).toEqual(promised);
  });
});
