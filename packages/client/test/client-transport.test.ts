/**
 * @svc/client against a real listening svc: manifests and their compatibility check, URL
 * resolution against `baseUrl`, CSRF (fetched once, attached, refreshed once after
 * CSRF_INVALID), and retries of idempotent requests on network failure with one idempotency key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertCompatible, createClient, SvcClientError, type Manifest } from '../src/index.js';
import { CLIENT_VERSION } from '../src/client-version.js';
import { createCookieJarFetch, requestUrl } from './support/cookie-jar-fetch.js';
import { isRequest } from './support/fetch-probe.js';
import { probedClient, startLiveServer, submissionCount, submissionRow, type LiveServer } from './support/live-server.js';

let live: LiveServer;
beforeAll(async () => {
  live = await startLiveServer();
});
afterAll(async () => {
  await live?.close();
});

const contactValues = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.test', message: 'Hello' };

async function rejection(promise: Promise<unknown>): Promise<SvcClientError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SvcClientError);
  return error as SvcClientError;
}

describe('getManifest', () => {
  it("returns contact's manifest data as the server sends it", async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const manifest = await client.getManifest('contact');
    const raw = (await live.svc.app.inject({ method: 'GET', url: '/svc/api/forms/contact/manifest' })).json().data as Manifest;

    expect(manifest).toMatchObject({ schemaVersion: '1.0', minimumClientVersion: expect.any(String) });
    expect(manifest.form).toEqual(raw.form);
    expect(manifest.fields).toEqual(raw.fields);
    expect(manifest.layout).toEqual(raw.layout);
    expect(manifest.conditionals).toEqual(raw.conditionals);
    expect(Object.keys(manifest.fields)).toEqual(['firstName', 'lastName', 'email', 'message']);
    expect(manifest.security.csrf).toMatchObject({ required: true, tokenEndpoint: '/svc/tokens' });
    expect(manifest.security.honeypot?.name).toMatch(/\S/);
    expect(manifest.security.javascriptTest?.value).toMatch(/\S/);
    expect(probe.requests.map((r) => `${r.method} ${r.url.pathname}`)).toEqual(['GET /svc/api/forms/contact/manifest']);
  });

  it('turns an unknown form into SvcClientError FORM_NOT_FOUND with status 404, without retrying', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const error = await rejection(client.getManifest('no-such-form'));
    expect(error).toMatchObject({ name: 'SvcClientError', code: 'FORM_NOT_FOUND', status: 404 });
    expect(error.message).toContain('no-such-form');
    expect(probe.requests).toHaveLength(1);
  });

  it('encodes the handle into the path', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    await rejection(client.getManifest('a b/../c'));
    expect(probe.requests[0]!.url.pathname).toBe('/svc/api/forms/a%20b%2F..%2Fc/manifest');
  });
});

describe('compatibility (contract §2)', () => {
  let manifest: Manifest;
  beforeAll(async () => {
    manifest = await probedClient(live.baseUrl).client.getManifest('contact');
  });

  it('accepts the live manifest, other 1.x schemas and a minimum at or below this client', () => {
    expect(() => assertCompatible(manifest)).not.toThrow();
    expect(() => assertCompatible({ ...manifest, schemaVersion: '1.7' })).not.toThrow();
    expect(() => assertCompatible({ ...manifest, minimumClientVersion: CLIENT_VERSION })).not.toThrow();
    expect(() => assertCompatible({ ...manifest, minimumClientVersion: `${CLIENT_VERSION}-rc.1` })).not.toThrow();
    expect(() => assertCompatible({ ...manifest, minimumClientVersion: '0.0.9' })).not.toThrow();
  });

  it.each([
    ['schemaVersion 2.0', { schemaVersion: '2.0' }],
    ['schemaVersion 0.9', { schemaVersion: '0.9' }],
    ['a missing schemaVersion', { schemaVersion: undefined }],
    ['minimumClientVersion 9.0.0', { minimumClientVersion: '9.0.0' }],
    ['minimumClientVersion 0.2.0', { minimumClientVersion: '0.2.0' }],
  ])('refuses %s with INCOMPATIBLE_SERVER', (_name, change) => {
    const modified = { ...manifest, ...change } as unknown as Manifest;
    let thrown: unknown;
    try {
      assertCompatible(modified);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SvcClientError);
    expect(thrown).toMatchObject({ code: 'INCOMPATIBLE_SERVER', status: 0 });
  });

  it('refuses a session built from an incompatible manifest object', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const tooNew = await rejection(client.session({ ...manifest, schemaVersion: '2.0' }));
    expect(tooNew.code).toBe('INCOMPATIBLE_SERVER');
    const tooOld = await rejection(client.session({ ...manifest, minimumClientVersion: '9.0.0' }));
    expect(tooOld.code).toBe('INCOMPATIBLE_SERVER');
    expect(probe.requests).toHaveLength(0);
  });

  it('refuses a manifest the server sends with an incompatible compatibility block', async () => {
    for (const change of [{ schemaVersion: '2.0' }, { minimumClientVersion: '9.0.0' }]) {
      // The real server's answer with its compatibility block rewritten on the way.
      const rewriting: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        const body = (await response.json()) as { data: Record<string, unknown> };
        return Response.json({ ...body, data: { ...body.data, ...change } }, { status: response.status });
      };
      const client = createClient({ baseUrl: live.baseUrl, fetch: rewriting });
      const error = await rejection(client.getManifest('contact'));
      expect(error.code).toBe('INCOMPATIBLE_SERVER');
      expect((await rejection(client.session('contact'))).code).toBe('INCOMPATIBLE_SERVER');
    }
  });
});

describe('URL resolution against baseUrl', () => {
  it.each([
    ['without a trailing slash', ''],
    ['with a trailing slash', '/'],
  ])('resolves every REST URL against a base %s', async (_name, suffix) => {
    const { client, probe } = probedClient(`${live.baseUrl}${suffix}`);
    const session = await client.session('contact');
    for (const [handle, value] of Object.entries(contactValues)) session.setValue(handle, value);
    expect((await session.submit()).status).toBe('submitted');
    expect(probe.requests.map((r) => r.url.toString())).toEqual([
      `${live.baseUrl}/svc/api/forms/contact/manifest`,
      `${live.baseUrl}/svc/tokens`,
      `${live.baseUrl}/svc/api/forms/contact/submit`,
    ]);
    expect(client.transport.url('/svc/tokens')).toBe(`${live.baseUrl}/svc/tokens`);
    expect(client.transport.url('svc/tokens')).toBe(`${live.baseUrl}/svc/tokens`);
  });

  it.each([
    ['without a trailing slash', ''],
    ['with a trailing slash', '/'],
  ])('keeps a path prefix of the base %s (svc behind a reverse proxy under /forms/api)', async (_name, suffix) => {
    const seen: string[] = [];
    // A reverse proxy: the service is mounted under /forms/api; strip the prefix and forward.
    const jar = createCookieJarFetch();
    const proxy: typeof fetch = (input, init) => {
      const url = requestUrl(input);
      seen.push(url.toString());
      if (!url.pathname.startsWith('/forms/api/')) return Promise.resolve(new Response('not proxied', { status: 502 }));
      url.pathname = url.pathname.slice('/forms/api'.length);
      return jar.fetch(url.toString(), init);
    };
    const client = createClient({ baseUrl: `${live.baseUrl}/forms/api${suffix}`, fetch: proxy });
    const session = await client.session('contact');
    for (const [handle, value] of Object.entries(contactValues)) session.setValue(handle, value);
    expect((await session.submit()).status).toBe('submitted');
    const manifest = await client.graphql.getManifest('contact');
    expect(manifest.form.handle).toBe('contact');
    expect(seen).toEqual([
      `${live.baseUrl}/forms/api/svc/api/forms/contact/manifest`,
      `${live.baseUrl}/forms/api/svc/tokens`,
      `${live.baseUrl}/forms/api/svc/api/forms/contact/submit`,
      `${live.baseUrl}/forms/api/graphql`,
    ]);
  });

  it('uses absolute URLs as given', () => {
    const { client } = probedClient(`${live.baseUrl}/forms/api`);
    expect(client.transport.url('https://cdn.example.test/svc/api/forms/contact/manifest')).toBe(
      'https://cdn.example.test/svc/api/forms/contact/manifest',
    );
    expect(client.baseUrl).toBe(`${live.baseUrl}/forms/api`);
  });

  it('sends getProfileManifest to the profile manifest path with properties[name]=value', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    // The server has no profile routes yet: only the URL the client builds is checked here.
    await client.getProfileManifest('shop', { sku: 'a b&c', qty: 2, gift: true }).catch(() => undefined);
    const url = probe.requests[0]!.url;
    expect(url.pathname).toBe('/svc/api/manifests/shop/manifest');
    expect([...url.searchParams]).toEqual([
      ['properties[sku]', 'a b&c'],
      ['properties[qty]', '2'],
      ['properties[gift]', 'true'],
    ]);
  });
});

describe('CSRF (contract §3)', () => {
  it('fetches the token once, caches it and keeps the cookie that binds it', async () => {
    const { client, probe, jar } = probedClient(live.baseUrl);
    const [a, b] = await Promise.all([client.csrf(), client.csrf()]);
    const c = await client.csrf();
    expect(a).toEqual({ name: 'SVC_CSRF_TOKEN', value: expect.stringMatching(/\S{16,}/) });
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(probe.matching('GET', '/svc/tokens')).toHaveLength(1);
    expect(jar.cookies(live.baseUrl).get('svc_csrf')).toMatch(/\S/);

    const fresh = await client.csrf(true);
    expect(probe.matching('GET', '/svc/tokens')).toHaveLength(2);
    expect(await client.csrf()).toBe(fresh);
  });

  it('attaches the token to every JSON submit, from one token request', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const token = await client.csrf();
    for (let round = 0; round < 2; round++) {
      const session = await client.session('contact');
      for (const [handle, value] of Object.entries(contactValues)) session.setValue(handle, value);
      expect((await session.submit()).status).toBe('submitted');
    }
    const submits = probe.matching('POST', '/contact/submit');
    expect(submits).toHaveLength(2);
    for (const submit of submits) {
      expect(submit.headers.get('x-csrf-token')).toBe(token!.value);
      expect(submit.headers.get('content-type')).toBe('application/json');
      expect(submit.status).toBe(200);
    }
    expect(probe.matching('GET', '/svc/tokens')).toHaveLength(1);
  });

  it('without the cookie jar the server refuses the token (CSRF is really on)', async () => {
    const client = createClient({ baseUrl: live.baseUrl, fetch: (input, init) => fetch(input, init) });
    const session = await client.session('contact');
    for (const [handle, value] of Object.entries(contactValues)) session.setValue(handle, value);
    const error = await rejection(session.submit());
    expect(error).toMatchObject({ code: 'CSRF_INVALID', status: 400 });
  });

  it('refreshes the token once after CSRF_INVALID and sends the same submit again', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const session = await client.session('contact');
    for (const [handle, value] of Object.entries(contactValues)) session.setValue(handle, value);
    const before = await submissionCount(live.svc, 'contact');
    probe.inject(isRequest('POST', '/contact/submit'), { kind: 'rewrite', change: ({ headers }) => headers.set('x-csrf-token', 'corrupted-token') });

    const result = await session.submit();
    expect(result.status).toBe('submitted');
    const submits = probe.matching('POST', '/contact/submit');
    expect(submits.map((s) => s.status)).toEqual([400, 200]);
    expect(submits[1]!.headers.get('idempotency-key')).toBe(submits[0]!.headers.get('idempotency-key'));
    expect(probe.matching('GET', '/svc/tokens')).toHaveLength(2);
    expect(await submissionCount(live.svc, 'contact')).toBe(before + 1);
  });

  it('recovers when the CSRF cookie expired while the token was cached', async () => {
    const { client, probe, jar } = probedClient(live.baseUrl);
    const session = await client.session('contact');
    await client.csrf();
    jar.clear(); // the cookie that binds the cached token is gone (Max-Age passed)
    for (const [handle, value] of Object.entries(contactValues)) session.setValue(handle, value);
    expect((await session.submit()).status).toBe('submitted');
    expect(probe.matching('POST', '/contact/submit').map((s) => s.status)).toEqual([400, 200]);
  });

  it('gives up with CSRF_INVALID when the fresh token is refused too', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const session = await client.session('contact');
    for (const [handle, value] of Object.entries(contactValues)) session.setValue(handle, value);
    probe.inject(isRequest('POST', '/contact/submit'), { kind: 'rewrite', change: ({ headers }) => headers.set('x-csrf-token', 'corrupted-token') }, Infinity);
    const error = await rejection(session.submit());
    expect(error).toMatchObject({ code: 'CSRF_INVALID', status: 400 });
    expect(probe.matching('POST', '/contact/submit')).toHaveLength(2);
    expect(probe.matching('GET', '/svc/tokens')).toHaveLength(2);
  });

  it('does not cache a failed token request', async () => {
    const { client, probe } = probedClient(live.baseUrl, { retries: 0 });
    probe.inject(isRequest('GET', '/svc/tokens'), { kind: 'fail-before' });
    expect((await rejection(client.csrf())).code).toBe('NETWORK_ERROR');
    expect(await client.csrf()).toMatchObject({ name: 'SVC_CSRF_TOKEN' });
    expect(probe.matching('GET', '/svc/tokens')).toHaveLength(2);
  });
});

describe('CSRF off', () => {
  let off: LiveServer;
  beforeAll(async () => {
    off = await startLiveServer({ config: { csrf: { enabled: false } } });
  });
  afterAll(async () => {
    await off?.close();
  });

  it('csrf() is null and submits carry no token', async () => {
    const { client, probe } = probedClient(off.baseUrl);
    expect(await client.csrf()).toBeNull();
    const session = await client.session('contact');
    for (const [handle, value] of Object.entries(contactValues)) session.setValue(handle, value);
    expect((await session.submit()).status).toBe('submitted');
    expect(probe.matching('POST', '/contact/submit')[0]!.headers.has('x-csrf-token')).toBe(false);
    expect(probe.matching('GET', '/svc/tokens')).toHaveLength(1);
  });
});

describe('retries of idempotent requests', () => {
  it('retries a submit whose answer was lost with the same Idempotency-Key: one submission stored', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const session = await client.session('contact');
    for (const [handle, value] of Object.entries(contactValues)) session.setValue(handle, value);
    const before = await submissionCount(live.svc, 'contact');
    // The first attempt reaches the server and is stored; its answer never arrives.
    probe.inject(isRequest('POST', '/contact/submit'), { kind: 'fail-after' });

    const result = await session.submit();
    expect(result.status).toBe('submitted');
    const submits = probe.matching('POST', '/contact/submit');
    expect(submits.map((s) => s.status)).toEqual(['network error', 200]);
    const key = submits[0]!.headers.get('idempotency-key');
    expect(key).toMatch(/^[\x21-\x7e]{8,200}$/);
    expect(submits[1]!.headers.get('idempotency-key')).toBe(key);
    expect(submits[1]!.body).toBe(submits[0]!.body);
    expect(await submissionCount(live.svc, 'contact')).toBe(before + 1);
    const stored = await submissionRow(live.svc, result.submission!.id);
    expect(JSON.parse(stored!.values)).toMatchObject(contactValues);
  });

  it('retries a submit that never left (TypeError) with the same key', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    const session = await client.session('contact');
    for (const [handle, value] of Object.entries(contactValues)) session.setValue(handle, value);
    const before = await submissionCount(live.svc, 'contact');
    probe.inject(isRequest('POST', '/contact/submit'), { kind: 'fail-before' });
    expect((await session.submit()).status).toBe('submitted');
    const submits = probe.matching('POST', '/contact/submit');
    expect(submits).toHaveLength(2);
    expect(submits[1]!.headers.get('idempotency-key')).toBe(submits[0]!.headers.get('idempotency-key'));
    expect(await submissionCount(live.svc, 'contact')).toBe(before + 1);
  });

  it('uses a new idempotency key for each logical submit', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    for (let round = 0; round < 2; round++) {
      const session = await client.session('contact');
      for (const [handle, value] of Object.entries(contactValues)) session.setValue(handle, value);
      await session.submit();
    }
    const [a, b] = probe.matching('POST', '/contact/submit').map((s) => s.headers.get('idempotency-key'));
    expect(a).not.toBe(b);
  });

  it('retries a GET manifest after a network failure', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    probe.inject(isRequest('GET', '/contact/manifest'), { kind: 'fail-before' });
    const manifest = await client.getManifest('contact');
    expect(manifest.form.handle).toBe('contact');
    expect(probe.matching('GET', '/contact/manifest').map((r) => r.status)).toEqual(['network error', 200]);
  });

  it('gives up after `retries` retries with NETWORK_ERROR (status 0)', async () => {
    const { client, probe } = probedClient(live.baseUrl, { retries: 1 });
    probe.inject(isRequest('GET', '/contact/manifest'), { kind: 'fail-before' }, Infinity);
    const error = await rejection(client.getManifest('contact'));
    expect(error).toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
    expect(error.message).toContain('fetch failed');
    expect(probe.matching('GET', '/contact/manifest')).toHaveLength(2);
  });

  it('defaults to 2 retries (3 attempts); retries: 0 makes one attempt', async () => {
    const three = probedClient(live.baseUrl);
    three.probe.inject(() => true, { kind: 'fail-before' }, Infinity);
    expect((await rejection(three.client.getManifest('contact'))).code).toBe('NETWORK_ERROR');
    expect(three.probe.requests).toHaveLength(3);

    const one = probedClient(live.baseUrl, { retries: 0 });
    one.probe.inject(() => true, { kind: 'fail-before' }, Infinity);
    expect((await rejection(one.client.getManifest('contact'))).code).toBe('NETWORK_ERROR');
    expect(one.probe.requests).toHaveLength(1);
  });

  it('a submit that keeps failing ends in NETWORK_ERROR after retries, never a second submission', async () => {
    const { client, probe } = probedClient(live.baseUrl, { retries: 1 });
    const session = await client.session('contact');
    for (const [handle, value] of Object.entries(contactValues)) session.setValue(handle, value);
    const before = await submissionCount(live.svc, 'contact');
    probe.inject(isRequest('POST', '/contact/submit'), { kind: 'fail-after' }, Infinity);
    expect((await rejection(session.submit())).code).toBe('NETWORK_ERROR');
    const submits = probe.matching('POST', '/contact/submit');
    expect(submits).toHaveLength(2);
    expect(new Set(submits.map((s) => s.headers.get('idempotency-key'))).size).toBe(1);
    expect(await submissionCount(live.svc, 'contact')).toBe(before + 1);
  });

  it('does not retry when the server answered (a 4xx is not a network failure)', async () => {
    const { client, probe } = probedClient(live.baseUrl);
    await rejection(client.getManifest('nope'));
    expect(probe.requests).toHaveLength(1);
  });

  it('reports a body that is not JSON as INVALID_RESPONSE with its status', async () => {
    const client = createClient({ baseUrl: live.baseUrl, fetch: async () => new Response('<html>gateway</html>', { status: 502 }) });
    expect(await rejection(client.getManifest('contact'))).toMatchObject({ code: 'INVALID_RESPONSE', status: 502 });
  });
});

describe('rate limits', () => {
  let limited: LiveServer;
  beforeAll(async () => {
    limited = await startLiveServer({ config: { rateLimit: { enabled: true, submit: { max: 1, windowSeconds: 600 } } } });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('a submit refused with 429 RATE_LIMITED is SvcClientError RATE_LIMITED, status 429', async () => {
    const { client, probe } = probedClient(limited.baseUrl);
    const first = await client.session('contact');
    for (const [handle, value] of Object.entries(contactValues)) first.setValue(handle, value);
    expect((await first.submit()).status).toBe('submitted');

    const second = await client.session('contact');
    for (const [handle, value] of Object.entries(contactValues)) second.setValue(handle, value);
    const outcome = await second.submit().catch((error: unknown) => error);
    const refused = probe.matching('POST', '/contact/submit').at(-1)!;
    expect(refused.status).toBe(429);
    expect(outcome).toBeInstanceOf(SvcClientError);
    expect(outcome).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
  });
});
