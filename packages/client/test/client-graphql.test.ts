/**
 * The GraphQL transport of @svc/client against a real listening svc: `svcHeadlessManifest` gives
 * the REST manifest, `svcHeadlessSubmit` the REST submit object, CSRF in `csrfToken` (contract §11).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, SvcClientError } from '../src/index.js';
import { createCookieJarFetch, requestUrl } from './support/cookie-jar-fetch.js';
import { probedClient, startLiveServer, submissionCount, submissionRow, type LiveServer } from './support/live-server.js';

let live: LiveServer;
beforeAll(async () => {
  live = await startLiveServer();
});
afterAll(async () => {
  await live?.close();
});

const values = { firstName: 'Gia', lastName: 'Ql', email: 'gia@example.test', message: 'Over GraphQL' };

describe('client.graphql', () => {
  it("getManifest('contact') equals the REST manifest's form, fields, layout and rules", async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const [rest, graphql] = await Promise.all([client.getManifest('contact'), client.graphql.getManifest('contact')]);
    expect(graphql.form).toEqual(rest.form);
    expect(graphql.fields).toEqual(rest.fields);
    expect(graphql.layout).toEqual(rest.layout);
    expect(graphql.conditionals).toEqual(rest.conditionals);
    expect(graphql.security.javascriptTest).toEqual(rest.security.javascriptTest);
    const post = probe.matching('POST', '/graphql')[0]!;
    expect(post.url.toString()).toBe(`${live.baseUrl}/graphql`);
    expect(JSON.parse(String(post.body))).toMatchObject({ variables: { h: 'contact' } });
  });

  it("submit('contact', {intent:'submit', values, meta}) is submitted and stored, CSRF in csrfToken", async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const session = await client.session('contact');
    const before = await submissionCount(live.svc, 'contact');
    const result = await client.graphql.submit('contact', { intent: 'submit', values, meta: session.meta() });
    expect(result).toMatchObject({ success: true, status: 'submitted', complete: true, submission: { id: expect.any(Number) } });
    expect(await submissionCount(live.svc, 'contact')).toBe(before + 1);
    const stored = await submissionRow(live.svc, result.submission!.id);
    expect(stored!.is_spam).toBe(0);
    expect(JSON.parse(stored!.values)).toMatchObject(values);

    const token = await client.csrf();
    const sent = JSON.parse(String(probe.matching('POST', '/graphql').at(-1)!.body)) as { variables: Record<string, unknown> };
    expect(sent.variables).toMatchObject({ h: 'contact', i: 'submit', v: values, t: token!.value });
  });

  it('answers validation failures with the submit object, not an error', async () => {
    const { client } = probedClient(live.baseUrl);
    const session = await client.session('contact');
    const result = await client.graphql.submit('contact', { intent: 'submit', values: { firstName: 'x' }, meta: session.meta() });
    expect(result).toMatchObject({ status: 'validation_failed', errors: { fields: { email: ['This field is required'] } } });
  });

  it('carries multi-page context like REST (application, next with a state token)', async () => {
    const { client } = probedClient(live.baseUrl);
    const meta = (await client.session('application')).meta();
    const first = await client.graphql.submit('application', {
      intent: 'next',
      values: { fullName: 'Gia', email: 'gia@example.test', applicantType: 'company' },
      meta,
    });
    expect(first).toMatchObject({ status: 'page_valid', page: { currentIndex: 1 } });
    const second = await client.graphql.submit('application', {
      intent: 'next',
      values: { companyName: 'Acme' },
      meta,
      context: { stateToken: first.state.token },
    });
    expect(second).toMatchObject({ status: 'page_valid', page: { currentIndex: 2 } });
  });

  it('turns GraphQL errors into SvcClientError with the REST code', async () => {
    const { client } = probedClient(live.baseUrl);
    const manifestError = await client.graphql.getManifest('no-such-form').catch((e: unknown) => e);
    expect(manifestError).toBeInstanceOf(SvcClientError);
    expect(manifestError).toMatchObject({ code: 'FORM_NOT_FOUND' });

    // Without the cookie that binds it, the token is refused.
    const cookieless = createClient({ baseUrl: live.baseUrl, fetch: (input, init) => fetch(input, init) });
    const csrfError = await cookieless.graphql.submit('contact', { intent: 'submit', values }).catch((e: unknown) => e);
    expect(csrfError).toBeInstanceOf(SvcClientError);
    expect(csrfError).toMatchObject({ code: 'CSRF_INVALID' });
  });

  it('a GraphQL submit after the CSRF cookie expired refreshes the token once, like REST', async () => {
    const { client, probe, jar } = probedClient(live.baseUrl);
    const meta = (await client.session('contact')).meta();
    await client.csrf();
    jar.clear(); // the cookie that binds the cached token is gone (Max-Age passed)
    const outcome = await client.graphql.submit('contact', { intent: 'submit', values, meta }).catch((error: unknown) => error);
    expect(outcome).toMatchObject({ status: 'submitted' });
    expect(probe.matching('GET', '/svc/tokens')).toHaveLength(2);
    expect(probe.matching('POST', '/graphql')).toHaveLength(2);
  });

  it('uses graphqlUrl when given (the /actions/graphql/api alias)', async () => {
    const jar = createCookieJarFetch();
    const seen: string[] = [];
    const client = createClient({
      baseUrl: live.baseUrl,
      graphqlUrl: '/actions/graphql/api',
      fetch: (input, init) => {
        seen.push(requestUrl(input).pathname);
        return jar.fetch(input, init);
      },
    });
    const manifest = await client.graphql.getManifest('contact');
    expect(manifest.form.handle).toBe('contact');
    expect(seen).toEqual(['/actions/graphql/api']);
  });

  it('does not retry a GraphQL submit after a network failure (a mutation is not idempotent)', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    await client.csrf();
    probe.inject((r) => r.method === 'POST' && r.url.pathname === '/graphql', { kind: 'fail-before' }, Infinity);
    const error = await client.graphql.submit('contact', { intent: 'submit', values }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
    expect(probe.matching('POST', '/graphql')).toHaveLength(1);
  });
});
