/**
 * Wire compatibility with the official Freeform headless client (contract §12): an emulator of
 * core 0.1.16 under @solspace/freeform-react 1.1.0 (support/official-client*.ts) drives a real
 * listening svc request by request, and every key the client reads in an answer is checked.
 * Manifest and version check, CSRF, JSON submits, validate, multi-page by the stock buttons, and
 * the kitchen sink's type strings and value shapes. Drafts, files, captchas and the GraphQL adapter:
 * official-client-<topic>.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCookieJarFetch } from '../../client/test/support/cookie-jar-fetch.js';
import { startLiveServer, submissionCount, submissionRow, type LiveServer } from '../../client/test/support/live-server.js';
import {
  compareVersions,
  CORE_CLIENT_VERSION,
  createOfficialClient,
  REACT_CLIENT,
  REACT_CLIENT_VERSION,
  REGISTERED_EXTENSIONS,
  type OfficialClient,
  type OfficialForm,
} from './support/official-client.js';
import { createBrowserFetch } from './support/official-client-recorder.js';
import { resolveBuiltinRenderer } from './support/official-client-renderers.js';

const PAGE_URL = 'http://localhost:5173/forms/demo?utm=1';
const HANDLES = ['contact', 'application', 'kitchen-sink', 'job-application'] as const;
const CONTACT = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.test', message: 'Hello from React' };
const PAGE_ONE = { fullName: 'Ann Lee', email: 'ann@example.test', applicantType: 'individual', heardFrom: 'search' };
/** Page 3 as the official renderers write it: number and date inputs give strings, a ticked checkbox "1". */
const PAGE_THREE = { age: '30', phone: '+1 555 123 4567', startDate: '2026-01-15', agree: '1' };
/** Kitchen-sink page 1 as the official renderers write it. */
const SINK_PAGE_ONE = {
  text: 'hello', textarea: 'A longer text', select: 'c', multipleSelect: ['red', 'blue'], radioGroup: 'yes', checkbox: '1',
  email: 'ann@example.test', emailConfirm: 'ann@example.test', department: 'support', newsletter: '1', textDetails: 'Earl grey',
};
/** Kitchen-sink page 2: native date/datetime-local inputs, opinion scale and rating strings, table rows, a signature PNG. */
const SINK_PAGE_TWO = {
  number: '12.50', dateOnly: '2026-03-01', dateAndTime: '2026-03-01T10:30', opinionScale: '4', rating: '5',
  phone: '+1 (555) 123-4567', postcode: '12345', signature: `data:image/png;base64,${'iVBORw0KGgo'.repeat(12)}`,
  table: [['Ann', '2', 'M'], ['Bo', '1', 'S']],
};

let live: LiveServer;
beforeAll(async () => {
  live = await startLiveServer({ config: { headless: { forms: { 'job-application': { exposeManifest: true, allowSubmit: true } } } } });
});
afterAll(async () => {
  await live?.close();
});

/** A browser tab with its own cookie jar running the official client. */
function officialBrowser(clientVersion = REACT_CLIENT_VERSION): OfficialClient {
  return createOfficialClient({ baseUrl: live.baseUrl, fetch: createCookieJarFetch().fetch, clientVersion, pageUrl: PAGE_URL });
}

const submitCalls = (client: OfficialClient) => client.recorder.calls.filter((c) => c.method === 'POST' && c.url.pathname.endsWith('/submit'));
const lastSubmitBody = (client: OfficialClient) => submitCalls(client).at(-1)!.json as { values: Record<string, unknown>; intent: string; context: Record<string, unknown>; meta: Record<string, unknown> };

function securityMeta(form: OfficialForm): Record<string, unknown> {
  const { honeypot, javascriptTest } = form.manifest.security;
  return {
    ...(honeypot ? { honeypot: { name: honeypot.name, value: '' } } : {}),
    ...(javascriptTest ? { javascriptTest: { name: javascriptTest.name, value: javascriptTest.value ?? '' } } : {}),
  };
}

describe('official client: manifest and version check', () => {
  it.each([CORE_CLIENT_VERSION, REACT_CLIENT_VERSION])('client %s loads every example manifest with one GET and passes the schema, version and extension checks', async (version) => {
    const client = officialBrowser(version);
    for (const handle of HANDLES) {
      const manifest = await client.loadManifest(handle);
      const call = client.recorder.last();
      expect(call).toMatchObject({ method: 'GET', credentials: 'include', headers: { accept: 'application/json' }, status: 200 });
      expect(call.url.toString()).toBe(`${live.baseUrl}/svc/api/forms/${handle}/manifest`);
      expect(Object.keys(call.headers)).toEqual(['accept']);
      expect(call.answer).toMatchObject({ success: true, data: { schemaVersion: '1.0' } });
      expect(manifest.minimumClientVersion).toBeTruthy();
      expect(compareVersions(version, manifest.minimumClientVersion!)).toBeGreaterThanOrEqual(0);
      for (const required of manifest.requiredExtensions ?? []) {
        expect(required.severity).toBe('warning');
        expect(REGISTERED_EXTENSIONS).toContain(required.name);
      }
      expect(manifest.form.handle).toBe(handle);
      expect(manifest.endpoints.submit.url).toBe(`/svc/api/forms/${handle}/submit`);
      expect(manifest.security.csrf).toMatchObject({ required: true, tokenEndpoint: '/svc/tokens' });
      expect(typeof manifest.site?.baseUrl).toBe('string');
    }
  });

  it('names the extensions the fields need without making any of them fatal', async () => {
    const client = officialBrowser();
    const names = async (handle: string) => (await client.loadManifest(handle)).requiredExtensions?.map((r) => r.name).sort();
    expect(await names('kitchen-sink')).toEqual(['signature', 'table']);
    expect(await names('job-application')).toEqual(['file-dnd']);
    expect(await names('contact')).toEqual([]);
  });

  it('refuses the manifest only for a client older than minimumClientVersion (0.0.9), comparing v-prefixed prereleases by number', async () => {
    await expect(officialBrowser('0.0.9').loadManifest('contact')).rejects.toThrow('Manifest requires client >= 0.1.0, but 0.0.9 is installed.');
    await expect(officialBrowser('v0.1.0-beta.1').loadManifest('contact')).resolves.toMatchObject({ schemaVersion: '1.0' });
  });

  it('gives the stock view what it renders: multiPage, one submit button label per page, back and save buttons, row uids', async () => {
    const client = officialBrowser();
    const application = await client.loadManifest('application');
    expect(application.settings.multiPage).toBe(true);
    expect(application.layout.pages.map((p) => p.buttons)).toEqual([
      { submit: { label: 'Next', position: null }, back: null, save: null, next: null },
      { submit: { label: 'Next', position: null }, back: { label: 'Back' }, save: null, next: null },
      { submit: { label: 'Apply', position: null }, back: { label: 'Back' }, save: null, next: null },
    ]);
    for (const page of application.layout.pages) {
      for (const row of page.rows) {
        expect(row.uid).toMatch(/\S/);
        for (const handle of row.fields) expect(application.fields[handle]?.handle).toBe(handle);
      }
    }
    const contact = await client.loadManifest('contact');
    expect(contact.settings).toMatchObject({ multiPage: false, successMessage: 'Thanks, we got your message.' });
  });
});

describe('official client: CSRF and single-page submits (contact)', () => {
  it('fetches a fresh CSRF token before every submit and sends it as X-CSRF-Token, bound by the cookie the token endpoint set', async () => {
    const jar = createCookieJarFetch();
    const client = createOfficialClient({ baseUrl: live.baseUrl, fetch: jar.fetch, pageUrl: PAGE_URL });
    const form = await client.open('contact');
    form.set({ firstName: 'Ann' });
    await form.submit('validate');
    await form.submit('validate');
    const paths = client.recorder.calls.map((c) => `${c.method} ${c.url.pathname}`);
    expect(paths).toEqual([
      'GET /svc/api/forms/contact/manifest',
      'GET /svc/tokens', 'POST /svc/api/forms/contact/submit',
      'GET /svc/tokens', 'POST /svc/api/forms/contact/submit',
    ]);
    const tokens = client.recorder.matching('GET', '/svc/tokens');
    for (const [i, call] of tokens.entries()) {
      expect(call.headers).toEqual({ accept: 'application/json' });
      const answer = call.answer as { csrf: { name: string; value: string } };
      expect(answer.csrf.name).toBe('SVC_CSRF_TOKEN');
      expect(submitCalls(client)[i]!.headers['x-csrf-token']).toBe(answer.csrf.value);
    }
    expect(jar.cookies(live.baseUrl).get('svc_csrf')).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(submitCalls(client).map((c) => c.status)).toEqual([422, 422]);
    expect(form.last?.response.status).toBe('validation_failed');
  });

  it('gets a JSON refusal it can parse when the CSRF cookie is lost on the way (400 CSRF_INVALID), and stores nothing', async () => {
    // A browser that drops the binding cookie on the POST (e.g. blocked third-party cookies).
    const dropCookieOnPost: typeof fetch = (input, init) => {
      if ((init?.method ?? 'GET') !== 'POST') return fetch(input, init);
      const headers = new Headers(init?.headers);
      headers.delete('cookie');
      return fetch(input, { ...init, headers });
    };
    const client = createOfficialClient({ baseUrl: live.baseUrl, fetch: createCookieJarFetch(dropCookieOnPost).fetch, pageUrl: PAGE_URL });
    const form = await client.open('contact');
    form.set(CONTACT);
    const before = await submissionCount(live.svc, 'contact');
    const { response, httpStatus } = await form.click('submit');
    expect(httpStatus).toBe(400);
    expect(response).toMatchObject({ success: false, code: 'CSRF_INVALID', message: expect.any(String) });
    expect(form.isComplete).toBe(false);
    expect(await submissionCount(live.svc, 'contact')).toBe(before);
  });

  it('submits contact with {values, intent, context, meta} exactly as the client builds them and stores its name, version and page', async () => {
    const client = officialBrowser();
    const form = await client.open('contact');
    form.set(CONTACT);
    expect(form.buttons()).toEqual({ submit: 'Send' });
    const before = await submissionCount(live.svc, 'contact');
    const { response, httpStatus } = await form.click('submit');

    const call = submitCalls(client).at(-1)!;
    expect(call.url.toString()).toBe(`${live.baseUrl}/svc/api/forms/contact/submit`);
    expect(call.credentials).toBe('include');
    expect(Object.keys(call.headers).sort()).toEqual(['accept', 'content-type', 'x-csrf-token']);
    expect(call.headers).toMatchObject({ accept: 'application/json', 'content-type': 'application/json' });
    expect(call.json).toEqual({
      values: CONTACT,
      intent: 'submit',
      context: { sourceUrl: PAGE_URL },
      meta: { client: REACT_CLIENT, clientVersion: REACT_CLIENT_VERSION, ...securityMeta(form) },
    });
    expect(securityMeta(form)).toHaveProperty('javascriptTest.value', expect.stringMatching(/\S/));

    expect(httpStatus).toBe(200);
    expect(response).toMatchObject({ success: true, status: 'submitted', complete: true, message: 'Thanks, we got your message.' });
    expect(response.errors).toEqual({ fields: {}, form: [], page: [] });
    expect(form.isComplete).toBe(true);
    expect(form.successMessage).toBe('Thanks, we got your message.');
    expect(await submissionCount(live.svc, 'contact')).toBe(before + 1);
    const row = await submissionRow(live.svc, (response.submission as { id: number }).id);
    expect(JSON.parse(row!.client!)).toEqual({ name: REACT_CLIENT, version: REACT_CLIENT_VERSION, sourceUrl: PAGE_URL });
    expect(JSON.parse(row!.values)).toMatchObject(CONTACT);
  });

  it('parses the 422 of a failed validation and shows its field errors, storing nothing', async () => {
    const client = officialBrowser();
    const form = await client.open('contact');
    form.set({ lastName: 'Lee', email: 'not-an-email' });
    const before = await submissionCount(live.svc, 'contact');
    const { response, httpStatus } = await form.click('submit');
    expect(httpStatus).toBe(422);
    expect(response).toMatchObject({ success: false, status: 'validation_failed', complete: false });
    expect(Object.keys(form.state.fieldErrors).sort()).toEqual(['email', 'firstName']);
    expect(form.state.fieldErrors.firstName).toEqual(['This field is required']);
    expect(form.state.fieldErrors.email?.[0]).toMatch(/email/i);
    expect(form.state.formErrors).toEqual(response.errors.form);
    expect(form.isComplete).toBe(false);
    expect(await submissionCount(live.svc, 'contact')).toBe(before);
  });

  it('answers the validate intent with validated and no submission, then clears the errors it had shown', async () => {
    const client = officialBrowser();
    const form = await client.open('contact');
    form.set({ email: 'ann@example.test' });
    expect((await form.submit('validate')).response.errors.fields).toEqual({ firstName: ['This field is required'] });
    const before = await submissionCount(live.svc, 'contact');
    form.set(CONTACT);
    const { response, httpStatus } = await form.submit('validate');
    expect(lastSubmitBody(client).intent).toBe('validate');
    expect(httpStatus).toBe(200);
    expect(response).toMatchObject({ success: true, status: 'validated', complete: false });
    expect(form.state.fieldErrors).toEqual({});
    expect(form.isComplete).toBe(false);
    expect(await submissionCount(live.svc, 'contact')).toBe(before);
  });

  it('works from another allowed origin: the browser adds Origin and svc answers with credentialed CORS', async () => {
    const pageUrl = 'http://localhost:5173/contact';
    const client = createOfficialClient({ baseUrl: live.baseUrl, fetch: createBrowserFetch(pageUrl, createCookieJarFetch().fetch), pageUrl });
    const form = await client.open('contact');
    form.set(CONTACT);
    const { response } = await form.click('submit');
    expect(response.status).toBe('submitted');
    for (const call of client.recorder.calls) {
      expect(call.responseHeaders.get('access-control-allow-origin')).toBe('http://localhost:5173');
      expect(call.responseHeaders.get('access-control-allow-credentials')).toBe('true');
    }
  });
});

describe('official client: multi-page by the stock buttons (application)', () => {
  it('skips the company page on Next, goes Back, sends next on Enter, and submits every page, carrying only the state token it was given', async () => {
    const client = officialBrowser();
    const form = await client.open('application');
    expect(form.buttons()).toEqual({ next: 'Next' });
    form.set(PAGE_ONE);

    const next = await form.click('next');
    expect(lastSubmitBody(client)).toMatchObject({ intent: 'next', values: PAGE_ONE, context: { sourceUrl: PAGE_URL } });
    expect(lastSubmitBody(client).context).toEqual({ sourceUrl: PAGE_URL });
    expect(next.httpStatus).toBe(200);
    expect(next.response).toMatchObject({ success: true, status: 'page_valid', complete: false, page: { currentIndex: 2 }, state: { pageIndex: 2 } });
    const firstToken = next.response.state?.token;
    expect(firstToken).toEqual(expect.any(String));
    expect(form.state.currentPageIndex).toBe(2);
    expect(form.buttons()).toEqual({ back: 'Back', submit: 'Apply' });

    const back = await form.click('back');
    expect(lastSubmitBody(client)).toMatchObject({ intent: 'back', context: { stateToken: firstToken, sourceUrl: PAGE_URL } });
    expect(back.response).toMatchObject({ success: true, complete: false, page: { currentIndex: 0 }, state: { pageIndex: 0 } });
    expect(form.state.currentPageIndex).toBe(0);
    expect(form.buttons()).toEqual({ next: 'Next' });

    const enter = await form.pressEnter();
    expect(lastSubmitBody(client)).toMatchObject({ intent: 'next', context: { stateToken: back.response.state?.token } });
    expect(enter.response).toMatchObject({ status: 'page_valid', page: { currentIndex: 2 } });

    form.set(PAGE_THREE);
    const before = await submissionCount(live.svc, 'application');
    const done = await form.click('submit');
    expect(lastSubmitBody(client)).toMatchObject({ intent: 'submit', values: { ...PAGE_ONE, ...PAGE_THREE }, context: { stateToken: enter.response.state?.token } });
    expect(done.httpStatus).toBe(200);
    expect(done.response).toMatchObject({ success: true, status: 'submitted', complete: true, state: { token: null } });
    expect(form.state.stateToken).toBeUndefined();
    expect(form.successMessage).toBe(done.response.message ?? form.manifest.settings.successMessage);
    expect(await submissionCount(live.svc, 'application')).toBe(before + 1);
    const row = await submissionRow(live.svc, (done.response.submission as { id: number }).id);
    // The official checkbox posts "1"; svc stores the field's own checked value.
    expect(JSON.parse(row!.values)).toMatchObject({ fullName: 'Ann Lee', age: '30', startDate: '2026-01-15', agree: 'yes' });
  });

  it('stops on the company page with its field errors and moves on once they are fixed', async () => {
    const client = officialBrowser();
    const form = await client.open('application');
    form.set({ ...PAGE_ONE, applicantType: 'company' });
    await form.click('next');
    expect(form.state.currentPageIndex).toBe(1);
    expect(form.buttons()).toEqual({ back: 'Back', next: 'Next' });
    form.set({ companyName: 'Acme', vatNumber: 'nope' });
    const refused = await form.pressEnter();
    expect(lastSubmitBody(client).intent).toBe('next');
    expect(refused.httpStatus).toBe(422);
    expect(form.state.fieldErrors).toEqual({ vatNumber: ['Use a VAT number like DE123456789'] });
    expect(form.state.currentPageIndex).toBe(1);
    form.set({ vatNumber: 'DE123456789' });
    await form.click('next');
    expect(form.state.currentPageIndex).toBe(2);
    form.set(PAGE_THREE);
    expect((await form.click('submit')).response).toMatchObject({ status: 'submitted', complete: true });
  });

  it('goes Back without validating the page it leaves', async () => {
    const form = await officialBrowser().open('application');
    form.set(PAGE_ONE);
    await form.click('next');
    form.set({ age: 'not a number' });
    const back = await form.click('back');
    expect(back.httpStatus).toBe(200);
    expect(back.response).toMatchObject({ success: true, page: { currentIndex: 0 } });
    expect(form.state.fieldErrors).toEqual({});
  });
});

describe('official client: kitchen-sink field types and value shapes', () => {
  it('types every kitchen-sink field with a Freeform type string that a built-in renderer draws, never _unsupported', async () => {
    const manifest = await officialBrowser().loadManifest('kitchen-sink');
    const rendered = Object.fromEntries(Object.values(manifest.fields).map((f) => [f.handle, [f.type, resolveBuiltinRenderer(f)]]));
    expect(rendered).toEqual({
      text: ['text', 'text'], textarea: ['textarea', 'textarea'], select: ['dropdown', 'dropdown'],
      multipleSelect: ['multiple-select', 'multiple-select'], checkboxGroup: ['checkboxes', 'checkboxes'],
      radioGroup: ['radios', 'radios'], checkbox: ['checkbox', 'checkbox'], email: ['email', 'email'],
      emailConfirm: ['confirm', 'confirm'], department: ['dynamic-recipients', 'radios'], newsletter: ['mailing-list', 'checkbox'],
      source: ['hidden', 'hidden'], textDetails: ['text', 'text'], number: ['number', 'number'], file: ['file', 'file'],
      dateOnly: ['datetime', 'datetime'], dateAndTime: ['datetime', 'datetime'], opinionScale: ['opinion-scale', 'opinion-scale'],
      rating: ['rating', 'rating'], phone: ['phone', 'phone'], postcode: ['regex', 'regex'],
      signature: ['signature', 'signature'], table: ['table', 'table'],
    });
    // Extension-hosted renderers mount only with a truthy frontend.extension.
    expect(manifest.fields.signature?.frontend?.extension).toBe('signature');
    expect(manifest.fields.table?.frontend?.extension).toBe('table');
    const jobs = await officialBrowser().loadManifest('job-application');
    expect([resolveBuiltinRenderer(jobs.fields.cv!), resolveBuiltinRenderer(jobs.fields.portfolio!)]).toEqual(['file', 'file-dnd']);
  });

  it('starts the kitchen sink from defaults and checked options, and a contains rule shows the tea field only while tea is ticked', async () => {
    const form = await officialBrowser().open('kitchen-sink');
    expect(form.state.values).toMatchObject({ select: 'b', multipleSelect: ['red'], checkboxGroup: ['tea'], source: 'kitchen-sink', number: '10' });
    form.set({ textDetails: 'Earl grey' });
    expect(form.state.getValuesForSubmit()).toHaveProperty('textDetails', 'Earl grey');
    form.set({ checkboxGroup: ['coffee'] });
    expect(form.state.getValuesForSubmit()).not.toHaveProperty('textDetails');
  });

  it('submits both pages with the value shapes the official renderers write, and svc stores them', async () => {
    const client = officialBrowser();
    const form = await client.open('kitchen-sink');
    form.set(SINK_PAGE_ONE);
    const next = await form.click('next');
    expect(next.httpStatus).toBe(200);
    expect(next.response).toMatchObject({ status: 'page_valid', page: { currentIndex: 1 } });
    expect(form.buttons()).toEqual({ back: 'Back', submit: 'Send everything' });
    form.set(SINK_PAGE_TWO);
    const done = await form.click('submit');
    const sent = client.recorder.matching('POST', '/submit').at(-1)!.json as { values: Record<string, unknown> };
    expect(sent.values).toEqual({ ...SINK_PAGE_ONE, checkboxGroup: ['tea'], source: 'kitchen-sink', file: [], ...SINK_PAGE_TWO });
    expect(done.httpStatus).toBe(200);
    expect(done.response).toMatchObject({ success: true, status: 'submitted', complete: true });
    const row = await submissionRow(live.svc, (done.response.submission as { id: number }).id);
    expect(JSON.parse(row!.values)).toMatchObject({
      text: 'hello', multipleSelect: ['red', 'blue'], checkboxGroup: ['tea'], radioGroup: 'yes', department: ['support'], // svc keeps recipients as a list
      source: 'kitchen-sink', textDetails: 'Earl grey', opinionScale: '4', postcode: '12345', dateOnly: '2026-03-01',
    });
  });

  it('accepts the untouched defaults the client sends as they are: false for the mailing list, [] for recipients, files and table', async () => {
    const client = officialBrowser();
    const form = await client.open('kitchen-sink');
    form.set({ email: 'bo@example.test', emailConfirm: 'bo@example.test' });
    const next = await form.pressEnter();
    const sent = client.recorder.matching('POST', '/submit').at(-1)!.json as { values: Record<string, unknown> };
    expect(sent.values).toMatchObject({ newsletter: false, department: [], file: [], table: [] });
    expect(sent.values).not.toHaveProperty('textDetails');
    expect(next.response).toMatchObject({ success: true, status: 'page_valid' });
    const done = await form.click('submit');
    expect(done.response).toMatchObject({ success: true, status: 'submitted', complete: true });
  });
});
