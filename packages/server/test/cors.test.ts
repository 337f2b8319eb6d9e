/**
 * CORS on the headless routes (contract §6, interface.md §5.2): allow-lists with wildcards,
 * credentialed headers for allowed origins, 403 ORIGIN_NOT_ALLOWED for cross-origin state changes
 * and preflights, per-form overrides, the union list of /svc/tokens and the bare `*` entry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { compileOriginPattern, createOriginPolicy } from '../src/security/origin-policy.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const CONTACT_ONLY = 'https://contact-only.test';
const VALID_CONTACT = { intent: 'submit', values: { firstName: 'Ann', email: 'ann@example.test' } };
// contract §6's set and the official Stripe extension's integration header (contract §12).
const ALLOW_HEADERS = ['content-type', 'x-csrf-token', 'x-svc-upload-token', 'idempotency-key', 'authorization', 'cache-control', 'ff-stripe-integration'];

const manifestUrl = (handle: string) => `/svc/api/forms/${handle}/manifest`;
const submitUrl = (handle: string) => `/svc/api/forms/${handle}/submit`;

/** Origins the test config allows: an exact entry and the `https://*.example.test` wildcard. */
const ALLOWED_ORIGINS = ['http://localhost:5173', 'https://a.example.test', 'https://a.b.example.test', 'HTTPS://A.Example.Test'];

/** Origins the wildcard and the exact entry must never let through. */
const REFUSED_ORIGINS = [
  'https://example.test',
  'https://evil-example.test',
  'http://a.example.test',
  'https://a.example.test:8443',
  'https://a.example.test.evil.com',
  'http://localhost:5174',
  'https://localhost:5173',
  'null',
];

function varyList(res: LightMyRequestResponse): string[] {
  return String(res.headers.vary ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase());
}

function headerList(value: unknown): string[] {
  return String(value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

function expectCredentialedCors(res: LightMyRequestResponse, origin: string): void {
  expect(res.headers['access-control-allow-origin']).toBe(origin);
  expect(res.headers['access-control-allow-credentials']).toBe('true');
  expect(varyList(res)).toContain('origin');
}

function expectNoCors(res: LightMyRequestResponse): void {
  expect(res.headers['access-control-allow-origin']).toBeUndefined();
  expect(res.headers['access-control-allow-credentials']).toBeUndefined();
}

function expectOriginRefused(res: LightMyRequestResponse): void {
  expect(res.statusCode).toBe(403);
  expect(res.json()).toEqual({ success: false, code: 'ORIGIN_NOT_ALLOWED', message: expect.any(String) });
  expectNoCors(res);
}

function preflight(svc: TestApp, url: string, origin: string, requestHeaders?: string) {
  const headers: Record<string, string> = { origin, 'access-control-request-method': 'POST' };
  if (requestHeaders !== undefined) headers['access-control-request-headers'] = requestHeaders;
  return svc.app.inject({ method: 'OPTIONS', url, headers });
}

describe('origin allow-list matching (unit)', () => {
  it.each([
    ['https://*.example.test', 'https://a.example.test', true],
    ['https://*.example.test', 'https://a.b.example.test', true],
    ['https://*.example.test', 'https://x-1.y2.example.test', true],
    ['https://*.example.test', 'https://example.test', false],
    ['https://*.example.test', 'https://evil-example.test', false],
    ['https://*.example.test', 'https://.example.test', false],
    ['https://*.example.test', 'https://-a.example.test', false],
    ['https://*.example.test', 'http://a.example.test', false],
    ['https://*.example.test', 'https://a.example.test:8443', false],
    ['https://*.example.test', 'https://a.example.test.evil.com', false],
    ['https://*.example.test', 'https://a.example.test/', false],
    ['https://*.example.test', 'https://a_b.example.test', false],
    ['https://*.example.test:8443', 'https://a.example.test:8443', true],
    ['https://*.example.test:8443', 'https://a.example.test', false],
    ['https://*.example.test:8443', 'https://a.example.test:8444', false],
    ['https://app.*.example.test', 'https://app.eu.example.test', true],
    ['https://app.*.example.test', 'https://app.example.test', false],
    ['https://app.*.example.test', 'https://evil.eu.example.test', false],
    ['HTTPS://*.Example.Test', 'https://a.example.test', true],
    ['https://app.example.test', 'https://app.example.test', true],
    ['https://app.example.test', 'https://appXexample.test', false],
  ])('pattern %s against %s matches: %s', (entry, origin, expected) => {
    const pattern = compileOriginPattern(entry);
    expect(pattern).not.toBeNull();
    expect(pattern?.test(origin)).toBe(expected);
  });

  it.each(['example.test', 'ftp://a.example.test', 'https://a.example.test/path', 'https://a.example.test:port', '', '*'])(
    'does not compile %j as an origin pattern',
    (entry) => {
      expect(compileOriginPattern(entry)).toBeNull();
    },
  );

  it.each<[readonly string[], string, 'credentialed' | 'anonymous' | false]>([
    [['https://app.test'], 'https://app.test', 'credentialed'],
    [['https://app.test'], 'HTTPS://APP.TEST', 'credentialed'],
    [['https://app.test/'], 'https://app.test', 'credentialed'],
    [['https://app.test'], 'https://app.test:8443', false],
    [['https://app.test'], 'http://app.test', false],
    [['https://app.test'], 'https://other.test', false],
    [['https://*.example.test'], 'https://a.b.example.test', 'credentialed'],
    [['https://*.example.test'], 'https://example.test', false],
    [['*'], 'https://anything.test', 'anonymous'],
    [['*', 'https://app.test'], 'https://app.test', 'credentialed'],
    [['*', 'https://app.test'], 'https://other.test', 'anonymous'],
    [[], 'https://app.test', false],
  ])('a policy of %j answers %s with %s', (entries, origin, expected) => {
    expect(createOriginPolicy(entries).check(origin)).toBe(expected);
  });
});

describe('CORS on the headless routes', () => {
  let svc: TestApp;
  let anyOrigin: TestApp;
  let published: TestApp;

  beforeAll(async () => {
    svc = await createTestApp({ config: { headless: { forms: { contact: { allowedOrigins: [CONTACT_ONLY] } } } } });
    anyOrigin = await createTestApp({ config: { headless: { allowedOrigins: ['*'] } } });
    published = await createTestApp({ config: { server: { publicUrl: 'https://forms.example.com' } } });
  });
  afterAll(async () => {
    await published?.close();
    await anyOrigin?.close();
    await svc?.close();
  });

  describe('allowed origins', () => {
    it.each(ALLOWED_ORIGINS)('sends credentialed CORS headers to %s on a manifest GET', async (origin) => {
      const res = await svc.app.inject({ method: 'GET', url: manifestUrl('contact'), headers: { origin } });
      expect(res.statusCode).toBe(200);
      expectCredentialedCors(res, origin);
    });

    it('answers a preflight for the drag-and-drop upload and delete routes, granting the upload-token header', async () => {
      for (const url of ['/svc/api/forms/kitchen-sink/files/file', '/svc/api/forms/kitchen-sink/files/file/delete']) {
        const res = await preflight(svc, url, 'http://localhost:5173', 'content-type,x-csrf-token,x-svc-upload-token');
        expect(res.statusCode).toBe(204);
        expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173');
        expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('x-svc-upload-token');
      }
      expectOriginRefused(await svc.app.inject({ method: 'POST', url: '/svc/api/forms/kitchen-sink/files/file', headers: { origin: 'https://evil.test' } }));
    });

    it.each(ALLOWED_ORIGINS)('accepts a submit POST from %s and sends credentialed CORS headers', async (origin) => {
      const res = await svc.submit('contact', VALID_CONTACT, { origin });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ success: true, status: 'submitted' });
      expectCredentialedCors(res, origin);
    });

    it('keeps CORS headers on a refusal so the browser can read it', async () => {
      const res = await svc.app.inject({ method: 'GET', url: manifestUrl('no-such-form'), headers: { origin: 'https://a.example.test' } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'FORM_NOT_FOUND' });
      expectCredentialedCors(res, 'https://a.example.test');
    });

    it('varies the manifest on Origin even when no Origin is sent', async () => {
      const res = await svc.app.inject({ method: 'GET', url: manifestUrl('contact') });
      expect(res.statusCode).toBe(200);
      expect(varyList(res)).toContain('origin');
      expectNoCors(res);
    });
  });

  describe('origins that are not allowed', () => {
    it.each(REFUSED_ORIGINS)('runs a manifest GET from %s but sends no CORS headers', async (origin) => {
      const res = await svc.app.inject({ method: 'GET', url: manifestUrl('contact'), headers: { origin } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ success: true });
      expectNoCors(res);
      expect(varyList(res)).toContain('origin');
    });

    it.each(REFUSED_ORIGINS)('refuses a submit POST from %s with 403 ORIGIN_NOT_ALLOWED', async (origin) => {
      const res = await svc.submit('contact', VALID_CONTACT, { origin });
      expectOriginRefused(res);
    });

    it.each(REFUSED_ORIGINS)('refuses a preflight from %s with 403 ORIGIN_NOT_ALLOWED', async (origin) => {
      const res = await preflight(svc, submitUrl('contact'), origin, 'content-type');
      expectOriginRefused(res);
      expect(res.headers['access-control-allow-methods']).toBeUndefined();
    });

    it('refuses a cross-origin POST before it looks at the body', async () => {
      const res = await svc.app.inject({
        method: 'POST',
        url: submitUrl('contact'),
        headers: { origin: 'https://evil.test', 'content-type': 'application/json' },
        payload: '{}',
      });
      expectOriginRefused(res);
    });
  });

  describe('same-origin and origin-less requests', () => {
    it('does not refuse a POST that carries no Origin header', async () => {
      const res = await svc.submit('contact', VALID_CONTACT);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ success: true, status: 'submitted' });
      expectNoCors(res);
    });

    it('accepts a POST whose Origin is the service origin derived from the Host header', async () => {
      // inject sends `Host: localhost:80` over http; a browser omits the default port in Origin.
      const res = await svc.submit('contact', VALID_CONTACT, { origin: 'http://localhost' });
      expect(res.statusCode).toBe(200);
      expectNoCors(res);
    });

    it('accepts a POST whose Origin equals the configured server.publicUrl', async () => {
      const res = await published.submit('contact', VALID_CONTACT, { origin: 'https://forms.example.com' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ success: true, status: 'submitted' });
      expectNoCors(res);
    });

    it('answers a same-origin preflight with 204', async () => {
      const res = await preflight(published, submitUrl('contact'), 'https://forms.example.com', 'content-type');
      expect(res.statusCode).toBe(204);
    });

    it('treats the Host-derived origin as cross-origin once server.publicUrl names another origin', async () => {
      const res = await published.submit('contact', VALID_CONTACT, { origin: 'http://localhost:80' });
      expectOriginRefused(res);
    });
  });

  describe('preflight', () => {
    it.each([submitUrl('contact'), manifestUrl('contact'), '/svc/tokens'])(
      'answers an allowed preflight on %s with 204 and the contract headers',
      async (url) => {
        const res = await preflight(svc, url, 'http://localhost:5173', 'Content-Type, X-CSRF-Token');
        expect(res.statusCode).toBe(204);
        expect(res.body).toBe('');
        expectCredentialedCors(res, 'http://localhost:5173');
        expect(res.headers['access-control-allow-methods']).toBe('GET, POST, OPTIONS');
        expect(res.headers['access-control-max-age']).toBe('600');
        const granted = headerList(res.headers['access-control-allow-headers']).map((h) => h.toLowerCase());
        expect(granted).toEqual(expect.arrayContaining(['content-type', 'x-csrf-token']));
        for (const header of granted) expect(ALLOW_HEADERS).toContain(header);
      },
    );

    it.each([undefined, 'Idempotency-Key', 'authorization, cache-control, x-svc-upload-token', 'Content-Type, FF-STRIPE-INTEGRATION, X-CSRF-Token'])(
      'grants only headers from the contract set when %s is requested',
      async (requested) => {
        const res = await preflight(svc, submitUrl('contact'), 'https://a.example.test', requested);
        expect(res.statusCode).toBe(204);
        const granted = headerList(res.headers['access-control-allow-headers']).map((h) => h.toLowerCase());
        expect(granted.length).toBeGreaterThan(0);
        for (const header of granted) expect(ALLOW_HEADERS).toContain(header);
        for (const header of headerList(requested)) expect(granted).toContain(header.toLowerCase());
      },
    );

    it.each(['X-Evil', 'content-type, x-evil', 'Cookie', 'X-Forwarded-For, X-CSRF-Token'])(
      'does not grant a header outside the contract set when %s is requested',
      async (requested) => {
        const res = await preflight(svc, submitUrl('contact'), 'https://a.example.test', requested);
        expect(res.statusCode).toBe(204);
        const granted = headerList(res.headers['access-control-allow-headers']).map((h) => h.toLowerCase());
        for (const header of headerList(requested).map((h) => h.toLowerCase())) {
          expect(granted.includes(header)).toBe(ALLOW_HEADERS.includes(header));
        }
        for (const header of granted) expect(ALLOW_HEADERS).toContain(header);
      },
    );
    it.each(['/svc/payments/stripe/payment-intents', submitUrl('contact'), '/graphql'])(
      'grants FF-Stripe-Integration, the official Stripe extension header, on %s, and offers exactly the contract set',
      async (url) => {
        const asked = await preflight(svc, url, 'https://a.example.test', 'Content-Type, FF-Stripe-Integration, X-CSRF-Token');
        expect(asked.statusCode).toBe(204);
        expect(headerList(asked.headers['access-control-allow-headers'])).toEqual(['Content-Type', 'FF-Stripe-Integration', 'X-CSRF-Token']);
        // Nothing asked: the whole set, as contract §6 spells it, and nothing else.
        const offered = await preflight(svc, url, 'https://a.example.test');
        expect(headerList(offered.headers['access-control-allow-headers'])).toEqual([
          'Content-Type',
          'X-CSRF-Token',
          'X-Svc-Upload-Token',
          'Idempotency-Key',
          'Authorization',
          'Cache-Control',
          'FF-Stripe-Integration',
        ]);
      },
    );
  });

  describe('per-form allow-lists', () => {
    it("allows the form's own origin on that form's manifest", async () => {
      const res = await svc.app.inject({ method: 'GET', url: manifestUrl('contact'), headers: { origin: CONTACT_ONLY } });
      expect(res.statusCode).toBe(200);
      expectCredentialedCors(res, CONTACT_ONLY);
    });

    it("accepts a submit from the form's own origin", async () => {
      const res = await svc.submit('contact', VALID_CONTACT, { origin: CONTACT_ONLY });
      expect(res.statusCode).toBe(200);
      expectCredentialedCors(res, CONTACT_ONLY);
    });

    it("allows a preflight from the form's own origin", async () => {
      const res = await preflight(svc, submitUrl('contact'), CONTACT_ONLY, 'content-type');
      expect(res.statusCode).toBe(204);
      expectCredentialedCors(res, CONTACT_ONLY);
    });

    it("keeps the global list on a form that adds its own origins", async () => {
      const res = await svc.app.inject({ method: 'GET', url: manifestUrl('contact'), headers: { origin: 'https://a.example.test' } });
      expectCredentialedCors(res, 'https://a.example.test');
    });

    it("sends no CORS headers to another form's origin on a manifest GET", async () => {
      const res = await svc.app.inject({ method: 'GET', url: manifestUrl('application'), headers: { origin: CONTACT_ONLY } });
      expect(res.statusCode).toBe(200);
      expectNoCors(res);
    });

    it("refuses a submit from another form's origin", async () => {
      const res = await svc.submit('application', { intent: 'next', values: {} }, { origin: CONTACT_ONLY });
      expectOriginRefused(res);
    });

    it("refuses a preflight from another form's origin", async () => {
      const res = await preflight(svc, submitUrl('application'), CONTACT_ONLY, 'content-type');
      expectOriginRefused(res);
    });

    it('allows the union of all lists on /svc/tokens', async () => {
      const res = await svc.app.inject({ method: 'GET', url: '/svc/tokens', headers: { origin: CONTACT_ONLY } });
      expect(res.statusCode).toBe(200);
      expectCredentialedCors(res, CONTACT_ONLY);
      const pre = await preflight(svc, '/svc/tokens', CONTACT_ONLY, 'content-type');
      expect(pre.statusCode).toBe(204);
      expectCredentialedCors(pre, CONTACT_ONLY);
    });

    it('sends no CORS headers on /svc/tokens to an origin on no list', async () => {
      const res = await svc.app.inject({ method: 'GET', url: '/svc/tokens', headers: { origin: 'https://evil.test' } });
      expect(res.statusCode).toBe(200);
      expectNoCors(res);
    });
  });

  describe('a bare * entry', () => {
    it('allows a manifest GET from any origin with Allow-Origin * and no credentials', async () => {
      const res = await anyOrigin.app.inject({ method: 'GET', url: manifestUrl('contact'), headers: { origin: 'https://anywhere.test' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    });

    it('does not refuse a submit from any origin and sends Allow-Origin * without credentials', async () => {
      const res = await anyOrigin.submit('contact', VALID_CONTACT, { origin: 'https://anywhere.test' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    });

    it('answers a preflight from any origin with Allow-Origin * and no credentials', async () => {
      const res = await preflight(anyOrigin, submitUrl('contact'), 'https://anywhere.test', 'content-type');
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(res.headers['access-control-allow-methods']).toBe('GET, POST, OPTIONS');
    });
  });
});
