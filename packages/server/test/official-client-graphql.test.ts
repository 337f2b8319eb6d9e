/**
 * The React/Vue demos' GraphQL fetch adapter (contract §11, §12) in front of the official client:
 * the manifest GET becomes `svcHeadlessManifest`, a JSON submit becomes `svcHeadlessSubmit` with
 * the X-CSRF-Token value as `variables.csrfToken` (a variable its document does not declare, and
 * no CSRF header), and CSRF and multipart submits stay on REST.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCookieJarFetch } from '../../client/test/support/cookie-jar-fetch.js';
import { pdfFile } from '../../client/test/support/file-bytes.js';
import { startLiveServer, submissionCount, submissionRow, type LiveServer } from '../../client/test/support/live-server.js';
import { createOfficialClient, REACT_CLIENT, REACT_CLIENT_VERSION, type OfficialClient } from './support/official-client.js';
import {
  craftGraphql,
  createGraphqlFetch,
  GRAPHQL_MANIFEST_QUERY,
  GRAPHQL_SUBMIT_MUTATION,
  type GraphqlAdapterOptions,
} from './support/official-client-extensions.js';
import { createRecorder, type Recorder } from './support/official-client-recorder.js';

const PAGE_URL = 'http://127.0.0.1/graphql-demo';
const CONTACT = { firstName: 'Gia', lastName: 'Ql', email: 'gia@example.test', message: 'Over the demo adapter' };

let live: LiveServer;
beforeAll(async () => {
  live = await startLiveServer({ config: { headless: { forms: { 'job-application': { exposeManifest: true, allowSubmit: true } } } } });
});
afterAll(async () => {
  await live?.close();
});

interface GraphqlBrowser {
  readonly client: OfficialClient;
  /** What actually went to svc, under the adapter. */
  readonly wire: Recorder;
  readonly adapter: GraphqlAdapterOptions;
}

function graphqlBrowser(options: Partial<GraphqlAdapterOptions> = {}): GraphqlBrowser {
  const wire = createRecorder(createCookieJarFetch().fetch);
  const adapter: GraphqlAdapterOptions = { baseUrl: live.baseUrl, fetch: wire.fetch, path: '/graphql', ...options };
  const client = createOfficialClient({ baseUrl: live.baseUrl, fetch: createGraphqlFetch(adapter), pageUrl: PAGE_URL });
  return { client, wire, adapter };
}

const wirePaths = (wire: Recorder) => wire.calls.map((c) => `${c.method} ${c.url.pathname}`);

describe('official client through the demos GraphQL adapter', () => {
  it('loads the manifest through svcHeadlessManifest as the REST envelope, with the REST manifest in it', async () => {
    const { client, wire } = graphqlBrowser();
    const manifest = await client.loadManifest('contact');
    expect(wirePaths(wire)).toEqual(['POST /graphql']);
    const [call] = wire.calls;
    expect(call).toMatchObject({ credentials: 'include', headers: { 'content-type': 'application/json', accept: 'application/json' }, status: 200 });
    expect(call!.json).toEqual({ query: GRAPHQL_MANIFEST_QUERY, variables: { handle: 'contact' } });
    expect((call!.answer as { errors?: unknown }).errors).toBeUndefined();

    const rest = await createOfficialClient({ baseUrl: live.baseUrl, fetch: createCookieJarFetch().fetch }).loadManifest('contact');
    const { generatedAt: _a, ...overGraphql } = manifest;
    const { generatedAt: _b, ...overRest } = rest;
    expect(overGraphql).toEqual(overRest);
    expect(manifest.endpoints.submit.url).toBe('/svc/api/forms/contact/submit');
  });

  it.each(['/graphql', '/actions/graphql/api'])('submits contact at %s through svcHeadlessSubmit with the CSRF header value as an undeclared variables.csrfToken', async (path) => {
    const { client, wire } = graphqlBrowser({ path });
    const form = await client.open('contact');
    form.set(CONTACT);
    const before = await submissionCount(live.svc, 'contact');
    const { response, httpStatus } = await form.click('submit');
    expect(wirePaths(wire)).toEqual([`POST ${path}`, 'GET /svc/tokens', `POST ${path}`]);
    const token = (wire.calls[1]!.answer as { csrf: { value: string } }).csrf.value;
    const restBody = client.recorder.matching('POST', '/submit')[0]!.json as Record<string, unknown>;
    expect(wire.calls[2]!.json).toEqual({
      query: GRAPHQL_SUBMIT_MUTATION,
      variables: { handle: 'contact', intent: 'submit', values: CONTACT, meta: restBody.meta, context: { sourceUrl: PAGE_URL }, csrfToken: token },
    });
    // What the real adapter sends: the document declares no $csrfToken, and no CSRF header goes along.
    expect(GRAPHQL_SUBMIT_MUTATION).not.toContain('csrfToken');
    expect(wire.calls[2]!.headers).not.toHaveProperty('x-csrf-token');
    expect(httpStatus).toBe(200);
    expect(response).toMatchObject({ success: true, status: 'submitted', complete: true, message: 'Thanks, we got your message.' });
    expect(response.errors).toEqual({ fields: {}, form: [], page: [] });
    expect(form.isComplete).toBe(true);
    expect(await submissionCount(live.svc, 'contact')).toBe(before + 1);
    const row = await submissionRow(live.svc, (response.submission as { id: number }).id);
    expect(JSON.parse(row!.client!)).toEqual({ name: REACT_CLIENT, version: REACT_CLIENT_VERSION, sourceUrl: PAGE_URL });
  });

  it('answers a validation failure as data (success false, errors.fields), never as a GraphQL error', async () => {
    const { client, wire } = graphqlBrowser();
    const form = await client.open('contact');
    form.set({ email: 'gia@example.test' });
    const { response, httpStatus } = await form.click('submit');
    const answer = wire.last().answer as { data: { svcHeadlessSubmit: unknown }; errors?: unknown };
    expect(answer.errors).toBeUndefined();
    expect(answer.data.svcHeadlessSubmit).toMatchObject({ success: false, status: 'validation_failed' });
    expect(httpStatus).toBe(200);
    expect(response).toMatchObject({ success: false, status: 'validation_failed', complete: false });
    expect(form.state.fieldErrors).toEqual({ firstName: ['This field is required'] });
    expect(form.state.formErrors).toEqual(response.errors.form);
  });

  it('moves through the multi-page application with the state token svcHeadlessSubmit hands back', async () => {
    const { client, wire } = graphqlBrowser();
    const form = await client.open('application');
    form.set({ fullName: 'Gia Ql', email: 'gia@example.test', applicantType: 'individual' });
    const next = await form.pressEnter();
    expect((wire.last().json as { variables: { intent: string } }).variables.intent).toBe('next');
    expect(next.response).toMatchObject({ status: 'page_valid', page: { currentIndex: 2 } });
    expect(form.buttons()).toEqual({ back: 'Back', submit: 'Apply' });
    form.set({ agree: '1' });
    const done = await form.click('submit');
    expect((wire.last().json as { variables: { context: unknown } }).variables.context).toEqual({ stateToken: next.response.state?.token, sourceUrl: PAGE_URL });
    expect(done.response).toMatchObject({ status: 'submitted', complete: true });
  });

  it('defaults an omitted intent to submit', async () => {
    const { client, wire, adapter } = graphqlBrowser();
    const manifest = await client.loadManifest('contact');
    const csrf = await client.fetchSubmitCsrf(manifest);
    const { honeypot, javascriptTest } = manifest.security;
    const data = await craftGraphql(adapter, GRAPHQL_SUBMIT_MUTATION, {
      handle: 'contact',
      values: CONTACT,
      meta: { honeypot: { name: honeypot!.name, value: '' }, javascriptTest: { name: javascriptTest!.name, value: javascriptTest!.value } },
      csrfToken: csrf!.value,
    });
    expect((wire.last().json as { variables: Record<string, unknown> }).variables).not.toHaveProperty('intent');
    expect(data.svcHeadlessSubmit).toMatchObject({ success: true, status: 'submitted', complete: true });
  });

  it('checks the variables.csrfToken like any token: a forged one, or one bound to another browser, is CSRF_INVALID and stores nothing', async () => {
    const { client, wire, adapter } = graphqlBrowser();
    const manifest = await client.loadManifest('contact');
    const { honeypot, javascriptTest } = manifest.security;
    const meta = { honeypot: { name: honeypot!.name, value: '' }, javascriptTest: { name: javascriptTest!.name, value: javascriptTest!.value } };
    // Another browser's token: valid on its own, but not for this browser's binding cookie.
    const stranger = await createOfficialClient({ baseUrl: live.baseUrl, fetch: createCookieJarFetch().fetch }).fetchSubmitCsrf(manifest);
    const own = await client.fetchSubmitCsrf(manifest);
    const before = await submissionCount(live.svc, 'contact');
    for (const csrfToken of [`${own!.value}x`, stranger!.value]) {
      await expect(craftGraphql(adapter, GRAPHQL_SUBMIT_MUTATION, { handle: 'contact', values: CONTACT, meta, csrfToken })).rejects.toThrow();
      const answer = wire.last().answer as { data: unknown; errors: { extensions: { code: string } }[] };
      expect(answer.errors.map((e) => e.extensions.code)).toEqual(['CSRF_INVALID']);
    }
    expect(await submissionCount(live.svc, 'contact')).toBe(before);
    // The same browser's own token, shaped {name, value} as GET /svc/tokens gives it, is taken too.
    const data = await craftGraphql(adapter, GRAPHQL_SUBMIT_MUTATION, { handle: 'contact', values: CONTACT, meta, csrfToken: own });
    expect(data.svcHeadlessSubmit).toMatchObject({ success: true, status: 'submitted' });
    expect(await submissionCount(live.svc, 'contact')).toBe(before + 1);
  });

  it('leaves a multipart submit (a plain file) to REST, CSRF in the form field', async () => {
    const { client, wire } = graphqlBrowser();
    const form = await client.open('job-application');
    form.set({ role: 'Frontend engineer', cv: pdfFile() });
    const { response, httpStatus } = await form.click('next');
    expect(wirePaths(wire)).toEqual(['POST /graphql', 'GET /svc/tokens', 'POST /svc/api/forms/job-application/submit']);
    expect(wire.last().parts?.map((p) => p.name)).toEqual(['_svc', 'SVC_CSRF_TOKEN', 'files[cv][]']);
    expect(httpStatus).toBe(200);
    expect(response).toMatchObject({ success: true, status: 'page_valid', page: { currentIndex: 1 } });
  });
});
