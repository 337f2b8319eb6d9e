/** POST /svc/api/forms/{handle}/submit on single-page forms (contract §4), on every dialect. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { findSubmission, countSubmissions } from '../src/submissions/submission-repository.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { describeEachDialect } from './support/dialects.js';

const FIXTURES = resolve(import.meta.dirname, 'fixtures/forms');

describeEachDialect('submitting a single-page form', (target) => {
  let svc: TestApp;
  let fixtures: TestApp;

  beforeAll(async () => {
    svc = await createTestApp({ config: { database: { url: target.url() } } });
    fixtures = await createTestApp({
      config: {
        database: { url: target.url() },
        forms: { dir: FIXTURES },
        headless: { forms: { 'no-store': { allowSubmit: true, exposeManifest: true }, strict: { allowSubmit: true, exposeManifest: true } } },
      },
    });
  });
  afterAll(async () => {
    await fixtures?.close();
    await svc?.close();
  });

  const contactId = () => svc.context.forms.get('contact')?.id ?? -1;

  it('keeps the client name, version and source page it reports, capped and cleaned, and ignores other meta and context keys (contract §1)', async () => {
    const sourceUrl = `https://shop.example.test/contact?ref=${'a'.repeat(3000)}`;
    const res = await svc.submit('contact', {
      intent: 'submit',
      values: { firstName: 'Ann', email: 'ann@example.test' },
      meta: { client: '@solspace/freeform-react\n', clientVersion: '1.1.0', somethingNew: { x: 1 } },
      context: { sourceUrl, pageHint: 3 },
    });
    expect(res.statusCode).toBe(200);
    const stored = await findSubmission(svc.context.database.db, res.json().submission.id, svc.context.sealer);
    expect(stored?.client).toEqual({ name: '@solspace/freeform-react', version: '1.1.0', sourceUrl: sourceUrl.slice(0, 2048) });
    const plain = await svc.submit('contact', { intent: 'submit', values: { firstName: 'Bo', email: 'bo@example.test' }, meta: { client: 42 } });
    expect((await findSubmission(svc.context.database.db, plain.json().submission.id, svc.context.sealer))?.client).toBeNull();
  });

  it('stores a valid submission and answers with the submitted object of contract §4', async () => {
    const before = await countSubmissions(svc.context.database.db, contactId());
    const res = await svc.submit('contact', { intent: 'submit', values: { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.test', message: 'Hello' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toMatchObject({
      success: true,
      status: 'submitted',
      complete: true,
      message: 'Thanks, we got your message.',
      redirect: null,
      page: { currentIndex: 0, total: 1 },
      state: { pageIndex: 0, token: null },
      draft: null,
      errors: { fields: {}, form: [] },
    });
    expect(body.submission).toEqual({ id: expect.any(Number), uid: expect.any(String), token: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
    const stored = await findSubmission(svc.context.database.db, body.submission.id, svc.context.sealer);
    expect(stored).toMatchObject({
      formId: contactId(),
      title: 'Ann Lee',
      status: 'open',
      isSpam: false,
      spamReasons: [],
      ip: null,
      values: { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.test', message: 'Hello' },
    });
    expect(stored?.tokenHash).not.toContain(body.submission.token);
    expect(await countSubmissions(svc.context.database.db, contactId())).toBe(before + 1);
  });

  it('answers 422 validation_failed with every field error and stores nothing', async () => {
    const before = await countSubmissions(svc.context.database.db, contactId());
    const res = await svc.submit('contact', { intent: 'submit', values: { email: 'not-an-email', message: 'x'.repeat(501) } });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body).toMatchObject({ success: false, status: 'validation_failed', complete: false, submission: null });
    expect(body.errors.fields.firstName).toEqual(['This field is required']);
    expect(body.errors.fields.email).toHaveLength(1);
    expect(body.errors.fields.message[0]).toMatch(/500/);
    expect(body.errors.fields.lastName).toBeUndefined();
    expect(body.message).toBeTruthy();
    expect(await countSubmissions(svc.context.database.db, contactId())).toBe(before);
  });

  it('ignores values for undeclared handles and never stores them', async () => {
    const res = await svc.submit('contact', { intent: 'submit', values: { firstName: 'Bo', email: 'bo@example.test', isAdmin: true, __proto__x: 1 } });
    expect(res.statusCode).toBe(200);
    const stored = await findSubmission(svc.context.database.db, res.json().submission.id, svc.context.sealer);
    expect(Object.keys(stored?.values ?? {}).sort()).toEqual(['email', 'firstName', 'lastName', 'message']);
  });

  it('validates without storing on intent validate', async () => {
    const before = await countSubmissions(svc.context.database.db, contactId());
    const ok = await svc.submit('contact', { intent: 'validate', values: { firstName: 'Ann', email: 'ann@example.test' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ success: true, status: 'validated', complete: false, submission: null });
    const bad = await svc.submit('contact', { intent: 'validate', values: {} });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().status).toBe('validation_failed');
    expect(await countSubmissions(svc.context.database.db, contactId())).toBe(before);
  });

  it('treats next and back on a single-page form as staying on the only page', async () => {
    const next = await svc.submit('contact', { intent: 'next', values: { firstName: 'Ann', email: 'ann@example.test' } });
    expect(next.json()).toMatchObject({ status: 'page_valid', page: { currentIndex: 0, total: 1 }, state: { token: null } });
    const back = await svc.submit('contact', { intent: 'back', values: {} });
    expect(back.json()).toMatchObject({ status: 'page_valid', page: { currentIndex: 0 } });
  });

  it('stores a honeypot hit flagged as spam but answers exactly like a success (simulate_success)', async () => {
    const res = await svc.submit('contact', {
      intent: 'submit',
      values: { firstName: 'Bot', email: 'bot@example.test' },
      meta: { honeypot: { name: (await svc.manifest('contact')).security.honeypot?.name, value: 'I am a bot' } },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, status: 'submitted', message: 'Thanks, we got your message.' });
    const stored = await findSubmission(svc.context.database.db, body.submission.id, svc.context.sealer);
    expect(stored).toMatchObject({ isSpam: true, spamReasons: ['honeypot'] });
  });

  it.each([
    ['no meta at all', {}, ['honeypot', 'javascript_test']],
    ['a renamed honeypot', { honeypot: { name: 'website', value: '' } }, ['honeypot']],
    ['a wrong javascript-test value', { javascriptTest: { name: 'x', value: 'y' } }, ['javascript_test']],
  ])('flags %s as spam with its reasons', async (_label, meta, reasons) => {
    const { token, cookie } = await svc.csrf();
    const fullMeta: Record<string, unknown> = { ...(await svc.meta('contact')), ...meta };
    if (Object.keys(meta).length === 0) {
      delete fullMeta.honeypot;
      delete fullMeta.javascriptTest;
    }
    const res = await svc.app.inject({
      method: 'POST',
      url: '/svc/api/forms/contact/submit',
      headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie },
      payload: { intent: 'submit', values: { firstName: 'Eve', email: 'eve@example.test' }, meta: fullMeta },
    });
    expect(res.statusCode).toBe(200);
    const stored = await findSubmission(svc.context.database.db, res.json().submission.id, svc.context.sealer);
    expect(stored?.spamReasons).toEqual(reasons);
  });

  it('refuses spam with 422 spam_rejected and stores nothing when the form says display_errors', async () => {
    const formId = fixtures.context.forms.get('strict')?.id ?? -1;
    const before = await countSubmissions(fixtures.context.database.db, formId);
    const res = await fixtures.submit('strict', { intent: 'submit', values: { name: 'Bot' }, meta: { honeypot: { name: 'wrong', value: 'x' } } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ success: false, status: 'spam_rejected', submission: null });
    expect(await countSubmissions(fixtures.context.database.db, formId)).toBe(before);
  });

  it('renders the title format, keeps the ip when collecting is on, and redirects to the return URL', async () => {
    const res = await fixtures.submit('strict', { intent: 'submit', values: { name: 'ann', topics: ['b', 'a', 'b'] } }, { 'x-forwarded-for': '198.51.100.7' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.redirect).toEqual({ url: 'https://example.test/thanks', delay: 0 });
    expect(body.message).toBe('Got it.');
    const stored = await findSubmission(fixtures.context.database.db, body.submission.id, fixtures.context.sealer);
    expect(stored?.title).toBe('ANN via Strict');
    expect(stored?.ip).toBe('127.0.0.1');
    expect(stored?.values.topics).toEqual(['b', 'a']);
  });

  it('succeeds without storing anything when storeData is false', async () => {
    const formId = fixtures.context.forms.get('no-store')?.id ?? -1;
    const res = await fixtures.submit('no-store', { intent: 'submit', values: { name: 'Ann' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, status: 'submitted', submission: null });
    expect(await countSubmissions(fixtures.context.database.db, formId)).toBe(0);
  });
});
