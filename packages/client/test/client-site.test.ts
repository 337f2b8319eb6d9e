/**
 * A front end chooses a site (issue #34): `createClient({ site })` and `{ site }` per call read the
 * manifest with `?site=<handle>` and send `context.site` on every step, so labels and the server's
 * validation messages come in the site's language. Without a site the requests are exactly the
 * ones sent before sites existed (the official clients and every other test rely on that).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SvcClientError, type Manifest } from '../src/index.js';
import type { RecordedRequest } from './support/fetch-probe.js';
import { probedClient, startLiveServer, submissionRow, type LiveServer } from './support/live-server.js';

// The demo's own sites (default en-US, de, ar), read from its config so this follows the demo.
const DEMO_CONFIG = resolve(import.meta.dirname, '../../../examples/svc.config.yaml');
const DEMO_SITES = (parse(readFileSync(DEMO_CONFIG, 'utf8')) as { sites: unknown[] }).sites;

const GERMAN_EMAIL = 'Geben Sie eine gültige E-Mail-Adresse ein';
const GERMAN_FORM_ERROR = 'Bitte korrigieren Sie die markierten Felder.';

let live: LiveServer;
beforeAll(async () => {
  live = await startLiveServer({ config: { sites: DEMO_SITES } });
});
afterAll(async () => {
  await live?.close();
});

type Body = { intent: string; values: Record<string, unknown>; meta: Record<string, unknown>; context: Record<string, unknown> };
const sentBody = (request: RecordedRequest) => JSON.parse(String(request.body)) as Body;

/**
 * The manifest with the email field shown as plain text: the session's local checks (the same
 * catalogue, so the same words) then let a bad address through, and the answer is the server's.
 */
function withoutLocalEmailCheck(manifest: Manifest): Manifest {
  return { ...manifest, fields: { ...manifest.fields, email: { ...manifest.fields.email!, type: 'text' } } };
}

describe('a client on a site', () => {
  it("createClient({ site: 'de' }) reads the German manifest with ?site=de", async () => {
    const { client, probe } = probedClient(live.baseUrl, { site: 'de' });
    const manifest = await client.getManifest('contact');
    expect(manifest.site).toMatchObject({ handle: 'de', language: 'de-DE' });
    expect(manifest.form.name).toBe('Kontakt');
    expect(manifest.fields.firstName?.label).toBe('Vorname');
    expect(probe.matching('GET', '/contact/manifest').map((r) => r.url.toString())).toEqual([`${live.baseUrl}/svc/api/forms/contact/manifest?site=de`]);
  });

  it('a session on the site sends context.site and the server answers a bad email in German', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const german = await client.getManifest('contact', { site: 'de' });
    const form = await client.session(withoutLocalEmailCheck(german), { site: 'de' });
    expect(form.site).toBe('de');
    expect(form.language).toBe('de-DE');
    form.setValue('firstName', 'Anna');
    form.setValue('email', 'nope');
    const answer = await form.submit();
    expect(answer).toMatchObject({ status: 'validation_failed', message: GERMAN_FORM_ERROR, errors: { fields: { email: [GERMAN_EMAIL] } } });
    const [post] = probe.matching('POST', '/contact/submit');
    expect(post?.status).toBe(422);
    expect(sentBody(post!).context).toEqual({ site: 'de' });
  });

  it('every step carries the site, merged with the state the session already sends, and the submission records it', async () => {
    const { client, probe } = probedClient(live.baseUrl, { site: 'ar' });
    const form = await client.session('contact');
    expect(form.manifest.fields.firstName?.label).toBe('الاسم الأول');
    form.setValue('firstName', 'Layla');
    form.setValue('email', 'layla@example.test');
    const saved = await form.saveDraft();
    expect(saved.status).toBe('draft_saved');
    const done = await form.submit();
    expect(done).toMatchObject({ status: 'submitted', message: 'شكرًا لك، لقد وصلتنا رسالتك.' });
    const bodies = probe.matching('POST', '/contact/submit').map(sentBody);
    expect(bodies.map((b) => b.intent)).toEqual(['saveDraft', 'submit']);
    expect(bodies[0]!.context).toEqual({ site: 'ar' });
    // The draft's token and key still travel, beside the site.
    expect(bodies[1]!.context).toMatchObject({ site: 'ar', draftToken: saved.draft!.token, draftKey: saved.draft!.key });
    expect((await submissionRow(live.svc, done.submission!.id))?.site).toBe('ar');
  });

  it('a per-call site wins over the client\'s; an unknown site is SITE_NOT_FOUND', async () => {
    const { client } = probedClient(live.baseUrl, { site: 'ar' });
    expect((await client.getManifest('contact', { site: 'de' })).site?.handle).toBe('de');
    const refusal = await client.getManifest('contact', { site: 'fr' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(SvcClientError);
    expect(refusal).toMatchObject({ code: 'SITE_NOT_FOUND', status: 404 });
  });

  it('over GraphQL: svcHeadlessManifest(site:) and context.site on svcHeadlessSubmit', async () => {
    const { client, probe } = probedClient(live.baseUrl, { site: 'de' });
    const manifest = await client.graphql.getManifest('contact');
    expect(manifest.site?.handle).toBe('de');
    expect(manifest.fields.email?.label).toBe('E-Mail-Adresse');
    const answer = await client.graphql.submit('contact', { intent: 'submit', values: { firstName: 'Anna', email: 'nope' }, context: {} });
    expect(answer).toMatchObject({ status: 'validation_failed', errors: { fields: { email: [GERMAN_EMAIL] } } });
    const variables = probe.matching('POST', '/graphql').map((r) => (JSON.parse(String(r.body)) as { variables: Record<string, unknown> }).variables);
    expect(variables[0]).toEqual({ h: 'contact', s: 'de' });
    expect(variables[1]).toMatchObject({ c: { site: 'de' } });
    // A context that names its own site keeps it.
    const arabic = await client.graphql.submit('contact', { intent: 'submit', values: { email: 'nope' }, context: { site: 'ar' } });
    expect(arabic.errors.fields.email).toEqual(['أدخل عنوان بريد إلكتروني صالحًا']);
  });
});

describe('a client without a site', () => {
  it('sends the requests it sent before sites existed: no ?site, no context.site, the same GraphQL', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const form = await client.session('contact');
    expect(form.site).toBeNull();
    expect(form.manifest.site).toMatchObject({ handle: 'default', language: 'en-US' });
    form.setValue('firstName', 'Ann');
    form.setValue('email', 'ann@example.test');
    expect((await form.submit()).status).toBe('submitted');
    await client.graphql.getManifest('contact');
    await client.graphql.submit('contact', { intent: 'validate', values: {} });

    expect(probe.matching('GET', '/contact/manifest').map((r) => r.url.toString())).toEqual([`${live.baseUrl}/svc/api/forms/contact/manifest`]);
    const body = sentBody(probe.matching('POST', '/contact/submit')[0]!);
    expect(Object.keys(body)).toEqual(['intent', 'values', 'meta', 'context']);
    expect(body.context).toEqual({});
    const graphql = probe.matching('POST', '/graphql').map((r) => JSON.parse(String(r.body)) as { query: string; variables: Record<string, unknown> });
    expect(graphql[0]).toEqual({ query: 'query ($h: String!) { svcHeadlessManifest(handle: $h) }', variables: { h: 'contact' } });
    expect(graphql[1]!.variables.c).toBeNull();
  });
});
