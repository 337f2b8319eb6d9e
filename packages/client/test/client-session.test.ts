/**
 * FormSession against a real listening svc: values, conditional rules evaluated locally, local
 * validation that says what the server says, `meta` filled from the manifest, multi-page flows
 * with state tokens, and drafts saved on one client and resumed on another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfFile, pngFile } from './support/file-bytes.js';
import { FormSession, type Manifest, type SubmitResponse } from '../src/index.js';
import { probedClient, startLiveServer, submissionCount, submissionRow, type LiveServer } from './support/live-server.js';

let live: LiveServer;
beforeAll(async () => {
  live = await startLiveServer({ config: { headless: { forms: { 'job-application': { exposeManifest: true, allowSubmit: true } } } } });
});
afterAll(async () => {
  await live?.close();
});

type Body = { intent: string; values: Record<string, unknown>; meta: Record<string, unknown>; context: Record<string, string> };
const sentBody = (request: { body: BodyInit | null | undefined }) => JSON.parse(String(request.body)) as Body;

function fill(session: FormSession, values: Record<string, unknown>): void {
  for (const [handle, value] of Object.entries(values)) session.setValue(handle, value);
}

const PAGE0 = { fullName: 'Ann Lee', email: 'ann@example.test' };

describe('a contact session', () => {
  it('holds values, shows the fields, and submits with a submission id', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const session = await client.session('contact');
    expect(session.manifest.form.handle).toBe('contact');
    expect(session.totalPages).toBe(1);
    expect(session.pageIndex).toBe(0);
    expect(session.visibleFields()).toEqual(['firstName', 'lastName', 'email', 'message']);
    expect(session.values).toEqual({});

    session.setValue('firstName', 'Ann');
    session.setValue('email', 'ann@example.test');
    session.setValue('message', 'Hello there');
    expect(session.values).toEqual({ firstName: 'Ann', email: 'ann@example.test', message: 'Hello there' });
    expect(session.validate()).toEqual({});

    const result = await session.submit();
    expect(result).toMatchObject({
      success: true,
      status: 'submitted',
      complete: true,
      submission: { id: expect.any(Number), uid: expect.any(String), token: expect.any(String) },
      message: 'Thanks, we got your message.',
      errors: { fields: {}, form: [] },
    });
    expect(session.errors).toEqual({ fields: {}, form: [] });
    expect(session.stateToken).toBeNull();

    const stored = await submissionRow(live.svc, result.submission!.id);
    expect(stored).toMatchObject({ is_spam: 0, spam_reasons: '[]' });
    expect(JSON.parse(stored!.values)).toMatchObject({ firstName: 'Ann', email: 'ann@example.test', message: 'Hello there' });
    expect(sentBody(probe.matching('POST', '/contact/submit')[0]!)).toMatchObject({ intent: 'submit', values: session.values });
  });

  it('fills meta (honeypot empty, javascript test value) from the manifest, so the submission is not spam', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const session = await client.session('contact');
    const { honeypot, javascriptTest } = session.manifest.security;
    expect(session.meta()).toEqual({
      honeypot: { name: honeypot!.name, value: '' },
      javascriptTest: { name: javascriptTest!.name, value: javascriptTest!.value },
    });
    fill(session, { firstName: 'Bo', email: 'bo@example.test' });
    const result = await session.submit();
    expect(sentBody(probe.matching('POST', '/contact/submit')[0]!).meta).toEqual(session.meta());

    const row = await live.svc.context.database.db
      .selectFrom('svc_submissions')
      .select(['is_spam', 'spam_reasons'])
      .where('id', '=', result.submission!.id)
      .executeTakeFirstOrThrow();
    expect(row.is_spam).toBe(0);
    expect(JSON.parse(row.spam_reasons)).toEqual([]);
  });

  it('(control) without the javascript test in meta the same submit is stored as spam', async () => {
    const { client } = probedClient(live.baseUrl);
    const manifest = await client.getManifest('contact');
    const { javascriptTest: _dropped, ...security } = manifest.security;
    const session = await client.session({ ...manifest, security } as Manifest);
    fill(session, { firstName: 'Bot', email: 'bot@example.test' });
    const result = await session.submit();
    expect(result.status).toBe('submitted'); // spam behaviour simulate_success
    const row = await submissionRow(live.svc, result.submission!.id);
    expect(row!.is_spam).toBe(1);
  });

  it('adds captcha responses to meta', async () => {
    const { client } = probedClient(live.baseUrl);
    const session = await client.session('contact');
    session.setCaptcha('cf-turnstile-response', 'token-from-widget');
    expect(session.meta().captchas).toEqual([{ name: 'cf-turnstile-response', value: 'token-from-widget' }]);
  });

  it('fails locally with validation_failed and sends no request', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const session = await client.session('contact');
    const afterManifest = probe.requests.length;
    session.setValue('email', 'not-an-email');

    const result = await session.submit();
    expect(result).toMatchObject({
      success: false,
      status: 'validation_failed',
      complete: false,
      submission: null,
      page: { currentIndex: 0, total: 1 },
      errors: { fields: { firstName: ['This field is required'], email: ['Enter a valid email address'] }, form: [] },
    });
    expect(session.errors.fields).toEqual(result.errors.fields);
    expect(probe.requests).toHaveLength(afterManifest);
    expect(probe.matching('GET', '/svc/tokens')).toHaveLength(0);
  });

  it('maps what only the server can refuse onto the fields', async () => {
    const { client } = probedClient(live.baseUrl);
    const session = await client.session('kitchen-sink');
    fill(session, { email: 'a@b.test', emailConfirm: 'a@b.test' });
    expect((await session.next()).status).toBe('page_valid');
    // An upload id the server never issued: locally a well-formed value, refused by the server.
    session.setValue('file', ['no-such-upload-id']);
    expect(session.validate()).toEqual({});
    const result = await session.submit();
    expect(result.status).toBe('validation_failed');
    expect(result.errors.fields.file).toEqual([expect.stringMatching(/upload/i)]);
    expect(session.errors.fields).toEqual(result.errors.fields);
    expect(session.pageIndex).toBe(1);
  });
});

describe('local validation says what the server says', () => {
  /**
   * Walks earlier pages raw through app.inject (CSRF + meta as a real client sends them) and
   * returns the server's `errors.fields` for the last page, with the page it stopped on.
   */
  async function serverErrors(handle: string, pages: readonly Record<string, unknown>[]) {
    const total = (await live.svc.manifest(handle) as unknown as Manifest).layout.pages.length;
    let token: string | null = null;
    for (let index = 0; index < pages.length; index++) {
      const intent = index === total - 1 ? 'submit' : 'next';
      const res = await live.svc.submit(handle, { intent, values: pages[index], context: token ? { stateToken: token } : {} });
      const body = res.json() as SubmitResponse;
      if (index < pages.length - 1) {
        expect(body.status, `setup page ${index}`).toBe('page_valid');
        token = body.state.token;
      } else {
        return { status: body.status, page: body.page.currentIndex, fields: body.errors.fields };
      }
    }
    throw new Error('no pages');
  }

  const ks0 = { email: 'a@b.test', emailConfirm: 'a@b.test' };
  const app0 = { ...PAGE0, applicantType: 'individual' };

  it.each<[string, string, Record<string, unknown>[]]>([
    ['contact, empty', 'contact', [{}]],
    ['contact, bad email and long message', 'contact', [{ firstName: 'A', email: 'nope', message: 'x'.repeat(501) }]],
    ['kitchen-sink, empty', 'kitchen-sink', [{}]],
    ['kitchen-sink, confirmation mismatch', 'kitchen-sink', [{ email: 'a@b.test', emailConfirm: 'c@b.test' }]],
    [
      'kitchen-sink, options that are not listed',
      'kitchen-sink',
      [{ ...ks0, text: 'x'.repeat(101), select: 'zzz', multipleSelect: ['purple'], radioGroup: 'maybe', checkboxGroup: ['milk'], department: 'nobody', newsletter: 'x' }],
    ],
    [
      'kitchen-sink page 2, numbers dates phone regex scales table',
      'kitchen-sink',
      [ks0, { number: '-5', dateOnly: '01/01/2024', phone: 'abc', postcode: '123', opinionScale: '9', rating: '7', dateAndTime: 'garbage', table: [{ 0: '', 1: 'x', 2: 'XL' }] }],
    ],
    [
      'kitchen-sink page 2, decimals, max date, signature',
      'kitchen-sink',
      [ks0, { number: '1,234.567', dateOnly: '31/12/2031', phone: '+1 (555) 123-4567', postcode: '12345', rating: '0', signature: 'not-an-image' }],
    ],
    ['application, shown-only-when rule and unlisted option', 'application', [{ ...PAGE0, applicantType: 'nope', heardFrom: 'other' }]],
    ['application, company page', 'application', [{ ...PAGE0, applicantType: 'company' }, { vatNumber: 'xx' }]],
    ['application, details page', 'application', [app0, { age: '17.5', phone: '123', startDate: '2024-12-31', agree: '' }]],
    ['application, details page upper bounds', 'application', [app0, { age: '121', phone: '+1 555 123 4567', startDate: '2025-01-01', agree: 'no' }]],
  ])('%s', async (_name, handle, pages) => {
    const server = await serverErrors(handle, pages);
    expect(server.status).toBe('validation_failed');

    const { client } = probedClient(live.baseUrl);
    const session = await client.session(handle);
    session.values = Object.assign({}, ...pages) as Record<string, unknown>;
    session.pageIndex = server.page;
    expect(session.validate()).toEqual(server.fields);
  });
});

describe('application: conditional pages and the multi-page flow', () => {
  it('shows the company page only when applicantType is company', async () => {
    const { client } = probedClient(live.baseUrl);
    const session = await client.session('application');
    expect(session.totalPages).toBe(3);
    expect(session.visibleFields(0)).toEqual(['fullName', 'email', 'applicantType', 'heardFrom']);
    expect(session.visibleFields(1)).toEqual([]);
    session.setValue('applicantType', 'company');
    expect(session.visibleFields(1)).toEqual(['companyName', 'vatNumber']);
    session.setValue('applicantType', 'individual');
    expect(session.visibleFields(1)).toEqual([]);
    session.setValue('heardFrom', 'other');
    expect(session.visibleFields(0)).toEqual(['fullName', 'email', 'applicantType', 'heardFrom', 'heardFromOther']);
    expect(session.visibleFields(2)).toEqual(['age', 'phone', 'startDate', 'agree']);
  });

  it('next() skips the company page for an individual, back() returns', async () => {
    const { client } = probedClient(live.baseUrl);
    const session = await client.session('application');
    fill(session, { ...PAGE0, applicantType: 'individual' });
    const step = await session.next();
    expect(step).toMatchObject({ status: 'page_valid', success: true, page: { currentIndex: 2, total: 3 } });
    expect(session.pageIndex).toBe(2);
    expect(session.visibleFields()).toEqual(['age', 'phone', 'startDate', 'agree']);
    const back = await session.back();
    expect(back).toMatchObject({ status: 'page_valid', page: { currentIndex: 0 } });
    expect(session.pageIndex).toBe(0);
    expect(session.values).toMatchObject({ ...PAGE0, applicantType: 'individual' });
  });

  it('goes next -> next -> submit as a company, carrying each state token', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const session = await client.session('application');
    fill(session, { ...PAGE0, applicantType: 'company' });

    const first = await session.next();
    expect(first).toMatchObject({ status: 'page_valid', page: { currentIndex: 1 } });
    expect(session.stateToken).toBe(first.state.token);
    expect(session.visibleFields()).toEqual(['companyName', 'vatNumber']);

    // Page 2 is checked locally first: nothing is sent while companyName is missing.
    const before = probe.requests.length;
    const refused = await session.next();
    expect(refused).toMatchObject({ status: 'validation_failed', errors: { fields: { companyName: ['This field is required'] } } });
    expect(probe.requests).toHaveLength(before);

    fill(session, { companyName: 'Acme', vatNumber: 'DE123456789' });
    const second = await session.next();
    expect(second).toMatchObject({ status: 'page_valid', page: { currentIndex: 2 } });
    fill(session, { age: '30', startDate: '2026-03-01', agree: 'yes' });
    const done = await session.submit();
    expect(done).toMatchObject({ status: 'submitted', complete: true, submission: { id: expect.any(Number) } });
    expect(session.stateToken).toBeNull();

    const submits = probe.matching('POST', '/application/submit').map(sentBody);
    expect(submits.map((b) => b.intent)).toEqual(['next', 'next', 'submit']);
    expect(submits[0]!.context).toEqual({});
    expect(submits[1]!.context).toEqual({ stateToken: first.state.token });
    expect(submits[2]!.context).toEqual({ stateToken: second.state.token });

    const stored = await submissionRow(live.svc, done.submission!.id);
    expect(stored!.is_spam).toBe(0);
    expect(JSON.parse(stored!.values)).toMatchObject({ ...PAGE0, applicantType: 'company', companyName: 'Acme', vatNumber: 'DE123456789', age: '30', agree: 'yes' });
  });

  it('the company page appears and disappears as applicantType changes', async () => {
    const { client } = probedClient(live.baseUrl);
    const session = await client.session('application');
    fill(session, { ...PAGE0, applicantType: 'company' });
    await session.next();
    expect(session.pageIndex).toBe(1);
    session.setValue('companyName', 'Acme');
    await session.back();
    expect(session.pageIndex).toBe(0);

    session.setValue('applicantType', 'individual');
    expect(session.visibleFields(1)).toEqual([]);
    await session.next();
    expect(session.pageIndex).toBe(2);
    fill(session, { agree: 'yes' });
    const done = await session.submit();
    expect(done.status).toBe('submitted');
    // Values of the hidden page are neither validated nor stored (contract §4).
    const values = JSON.parse((await submissionRow(live.svc, done.submission!.id))!.values) as Record<string, unknown>;
    expect(values.applicantType).toBe('individual');
    expect(values).not.toHaveProperty('companyName');
  });

  it('back() from the last page of a company goes to the company page', async () => {
    const { client } = probedClient(live.baseUrl);
    const session = await client.session('application');
    fill(session, { ...PAGE0, applicantType: 'company' });
    await session.next();
    session.setValue('companyName', 'Acme');
    await session.next();
    expect(session.pageIndex).toBe(2);
    expect((await session.back()).page.currentIndex).toBe(1);
    expect(session.values).toMatchObject({ companyName: 'Acme' });
  });
});

describe('drafts (contract §5)', () => {
  async function savedOnCompanyPage() {
    const { client } = probedClient(live.baseUrl);
    const session = await client.session('application');
    fill(session, { ...PAGE0, applicantType: 'company' });
    await session.next();
    session.setValue('companyName', 'Acme');
    const saved = await session.saveDraft();
    return { session, saved };
  }

  it('saveDraft returns the draft token, key and resume URL', async () => {
    const { session, saved } = await savedOnCompanyPage();
    expect(saved).toMatchObject({ status: 'draft_saved', success: true, page: { currentIndex: 1 } });
    expect(saved.draft).toEqual({
      token: expect.stringMatching(/^[A-Za-z0-9]{40}$/),
      key: expect.stringMatching(/^[A-Za-z0-9]{25}$/),
      // The example's saveRedirectUrl is a path: svc puts its own address (the port it listens on) in front.
      resumeUrl: `http://localhost:${new URL(live.baseUrl).port}/demo/resume?form=application&token=${saved.draft!.token}&key=${saved.draft!.key}`,
    });
    expect(session.draft).toEqual(saved.draft);
    expect(session.pageIndex).toBe(1);

    // Saving again with the same session updates that draft.
    session.setValue('vatNumber', 'DE123456789');
    const again = await session.saveDraft();
    expect(again.draft?.token).toBe(saved.draft!.token);
  });

  it('a new session resumes values and page from token and key, then submits and the draft is gone', async () => {
    const { saved } = await savedOnCompanyPage();
    const { token, key } = saved.draft!;

    const { client } = probedClient(live.baseUrl);
    const resumed = await client.session('application');
    const loaded = await resumed.resume(token, key);
    expect(loaded.status).not.toBe('context_invalid');
    expect(resumed.pageIndex).toBe(1);
    expect(resumed.values).toMatchObject({ ...PAGE0, applicantType: 'company', companyName: 'Acme' });
    expect(resumed.errors).toEqual({ fields: {}, form: [] });
    expect(resumed.draft).toMatchObject({ token, key });
    expect(resumed.visibleFields()).toEqual(['companyName', 'vatNumber']);

    const next = await resumed.next();
    expect(next).toMatchObject({ status: 'page_valid', page: { currentIndex: 2 } });
    resumed.setValue('agree', 'yes');
    const done = await resumed.submit();
    expect(done.status).toBe('submitted');
    expect(resumed.draft).toBeNull();
    const values = JSON.parse((await submissionRow(live.svc, done.submission!.id))!.values) as Record<string, unknown>;
    expect(values).toMatchObject({ ...PAGE0, applicantType: 'company', companyName: 'Acme', agree: 'yes' });

    // A successful final submit deletes the draft.
    const again = await (await client.session('application')).resume(token, key);
    expect(again.warnings).toEqual(['draft_not_loaded']);
  });

  it('a wrong key loads nothing: the draft_not_loaded warning, draft null, an empty first page', async () => {
    const { saved } = await savedOnCompanyPage();
    const { client } = probedClient(live.baseUrl);
    const session = await client.session('application');
    const before = await submissionCount(live.svc, 'application');
    const result = await session.resume(saved.draft!.token, 'WrongKeyWrongKeyWrongKey1');
    expect(result).toMatchObject({ warnings: ['draft_not_loaded'], draft: null });
    expect(session.draft).toBeNull();
    expect(session.errors).toEqual({ fields: {}, form: [] });
    expect(session.pageIndex).toBe(0);
    expect(session.values).not.toHaveProperty('companyName');

    // Same answer as an unknown token (no oracle).
    const unknown = await (await client.session('application')).resume('x'.repeat(40), 'y'.repeat(25));
    expect(unknown.warnings).toEqual(['draft_not_loaded']);
    expect({ ...unknown, state: null }).toEqual({ ...result, state: null });
    expect(await submissionCount(live.svc, 'application')).toBe(before);
  });
});

describe('drafts: after the resume', () => {
  it('a resumed draft saved again updates the same draft', async () => {
    const first = probedClient(live.baseUrl);
    const session = await first.client.session('application');
    fill(session, { ...PAGE0, applicantType: 'individual' });
    const saved = await session.saveDraft();
    const { token, key } = saved.draft!;

    const second = probedClient(live.baseUrl);
    const resumed = await second.client.session('application');
    await resumed.resume(token, key);
    resumed.setValue('heardFrom', 'friend');
    const again = await resumed.saveDraft();
    expect(again.status).toBe('draft_saved');
    expect(again.draft).toMatchObject({ token, key });

    const third = await (await probedClient(live.baseUrl).client.session('application')).resume(token, key);
    expect(third.state.values).toMatchObject({ ...PAGE0, heardFrom: 'friend' });
  });

  it('a session whose resume failed (wrong key) can still be filled and submitted', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const session = await client.session('application');
    const failed = await session.resume('x'.repeat(40), 'y'.repeat(25));
    expect(failed.warnings).toEqual(['draft_not_loaded']);

    fill(session, { ...PAGE0, applicantType: 'individual' });
    const step = await session.next();
    expect(step).toMatchObject({ status: 'page_valid', page: { currentIndex: 2 } });
    // The refused draft token and key must not ride along with the next request.
    expect(sentBody(probe.matching('POST', '/application/submit').at(-1)!).context).not.toHaveProperty('draftToken');
  });
});

describe('job-application: files with drafts', () => {
  it('a CV picked for page 1 survives saveDraft and resume, and is attached by the final submit', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const session = await client.session('job-application');
    session.setValue('role', 'Backend engineer');
    session.setFiles('cv', [pdfFile('cv.pdf', 2000)]);
    const saved = await session.saveDraft();
    expect(saved.status).toBe('draft_saved');
    expect(probe.matching('POST', '/job-application/submit')[0]!.body).toBeInstanceOf(FormData);
    expect(session.files.size).toBe(0);
    const cv = session.values.cv as string[];
    expect(cv).toEqual([expect.stringMatching(/^[0-9a-f]{12}[A-Za-z0-9_-]{22}$/)]);

    const other = probedClient(live.baseUrl);
    const resumed = await other.client.session('job-application');
    await resumed.resume(saved.draft!.token, saved.draft!.key);
    expect(resumed.values).toMatchObject({ role: 'Backend engineer', cv });
    expect(resumed.pageIndex).toBe(0);
    resumed.setFiles('portfolio', [pngFile('p.png', 4)]);
    const step = await resumed.next();
    expect(step.errors).toEqual({ fields: {}, form: [] });
    expect(step.status).toBe('page_valid');
    resumed.setValue('fullName', 'Ann Lee');
    resumed.setValue('email', 'ann@example.test');
    const done = await resumed.submit();
    expect(done.status).toBe('submitted');
    const files = await live.svc.context.database.db
      .selectFrom('svc_files')
      .select(['field_handle', 'public_id'])
      .where('submission_id', '=', done.submission!.id)
      .orderBy('field_handle')
      .execute();
    expect(files.map((f) => f.field_handle)).toEqual(['cv', 'portfolio']);
    expect(files[0]!.public_id).toBe(cv[0]);
  });
});
