/**
 * CSRF (contract §3, interface.md §5.4): GET /svc/tokens issues a stateless HMAC token bound to an
 * HttpOnly cookie; JSON submits carry it in X-CSRF-Token; any instance with the same secret accepts
 * it; `csrf.enabled: false` switches the whole mechanism off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createCsrfTokens, CSRF_FIELD_NAME } from '../src/security/csrf-tokens.js';
import { countSubmissions } from '../src/submissions/submission-repository.js';
import { createTestApp, TEST_SECRET, type TestApp } from './support/test-app.js';

const OTHER_SECRET = 'another-secret-9876543210-zyxwvutsrqponmlkjihgfedcba';
const TTL_MINUTES = 1440;
const CONTACT_VALUES = { firstName: 'Ann', email: 'ann@example.test' };
const MINUTE = 60_000;

function setCookieHeaders(res: LightMyRequestResponse): string[] {
  const raw = res.headers['set-cookie'];
  if (raw === undefined) return [];
  return Array.isArray(raw) ? raw : [raw];
}

function cookieAttributes(header: string): string[] {
  return header.split(';').map((part) => part.trim().toLowerCase());
}

/**
 * The token with every bit of its signature's bytes inverted, so the forgery differs from the real
 * signature in every byte, decoded or not, whatever the token was; a changed last character
 * carries only 4 of the signature's bits.
 */
function forgeSignature(token: string): string {
  const start = token.lastIndexOf('.') + 1;
  const signature = Buffer.from(token.slice(start), 'base64url');
  const forged = Buffer.from(signature.map((byte) => byte ^ 0xff)).toString('base64url');
  expect(forged).toHaveLength(token.length - start);
  expect(Buffer.from(forged, 'base64url').every((byte, i) => byte !== signature[i])).toBe(true);
  return token.slice(0, start) + forged;
}

describe('createCsrfTokens (unit)', () => {
  const tokens = createCsrfTokens(TEST_SECRET, 30);
  const NOW = Date.UTC(2026, 10, 22, 10, 0, 0);

  it('issues bindings that it recognises as bindings', () => {
    const binding = tokens.newBinding();
    expect(tokens.isBinding(binding)).toBe(true);
    expect(tokens.newBinding()).not.toBe(binding);
  });

  it.each([undefined, '', 'short', 'a'.repeat(21), 'a'.repeat(23), 'a'.repeat(21) + '!', 'a'.repeat(21) + '.'])(
    'does not take %j for a binding',
    (value) => {
      expect(tokens.isBinding(value)).toBe(false);
    },
  );

  it('verifies a token it issued for the same binding', () => {
    const binding = tokens.newBinding();
    expect(tokens.verify(binding, tokens.issue(binding, NOW), NOW)).toBe(true);
  });

  it('issues a different token on every call', () => {
    const binding = tokens.newBinding();
    expect(tokens.issue(binding, NOW)).not.toBe(tokens.issue(binding, NOW));
  });

  it('refuses a token issued for another binding', () => {
    const token = tokens.issue(tokens.newBinding(), NOW);
    expect(tokens.verify(tokens.newBinding(), token, NOW)).toBe(false);
  });

  it('refuses a token when the binding is missing or malformed', () => {
    const binding = tokens.newBinding();
    const token = tokens.issue(binding, NOW);
    expect(tokens.verify(undefined, token, NOW)).toBe(false);
    expect(tokens.verify(`${binding}x`, token, NOW)).toBe(false);
  });

  const tamperings: Array<[string, (token: string) => string]> = [
    ['the issue time changed', (t) => t.replace(/^[^.]+/, (NOW + 1).toString(36))],
    ['the nonce changed', (t) => t.replace(/\.([^.]+)\./, (_m, nonce: string) => `.${nonce.slice(1)}A.`)],
    ['the signature changed', forgeSignature],
    ['the signature removed', (t) => t.slice(0, t.lastIndexOf('.') + 1)],
    ['an extra part appended', (t) => `${t}.extra`],
    ['only two parts', (t) => t.split('.').slice(0, 2).join('.')],
    ['padding to over 200 characters', (t) => `${t}${'A'.repeat(200)}`],
    ['nothing left', () => ''],
  ];
  it.each(tamperings)('refuses a token with %s', (_title, tamper) => {
    const binding = tokens.newBinding();
    const token = tokens.issue(binding, NOW);
    expect(tokens.verify(binding, tamper(token), NOW)).toBe(false);
  });

  it('refuses an undefined token', () => {
    expect(tokens.verify(tokens.newBinding(), undefined, NOW)).toBe(false);
  });

  it.each([
    [0, true],
    [30 * MINUTE, true],
    [30 * MINUTE + 1, false],
    [-60_000, true],
    [-60_001, false],
  ])('with a 30-minute lifetime, a token checked %i ms after issue is accepted: %s', (elapsed, expected) => {
    const binding = tokens.newBinding();
    const token = tokens.issue(binding, NOW);
    expect(tokens.verify(binding, token, NOW + elapsed)).toBe(expected);
  });

  it('accepts a token issued by another instance with the same secret', () => {
    const sibling = createCsrfTokens(TEST_SECRET, 30);
    const binding = sibling.newBinding();
    expect(tokens.verify(binding, sibling.issue(binding, NOW), NOW)).toBe(true);
  });

  it('refuses a token issued under another secret', () => {
    const stranger = createCsrfTokens(OTHER_SECRET, 30);
    const binding = stranger.newBinding();
    expect(tokens.verify(binding, stranger.issue(binding, NOW), NOW)).toBe(false);
  });

  it("applies the verifier's lifetime", () => {
    const shortLived = createCsrfTokens(TEST_SECRET, 1);
    const binding = tokens.newBinding();
    const token = tokens.issue(binding, NOW);
    expect(tokens.verify(binding, token, NOW + 2 * MINUTE)).toBe(true);
    expect(shortLived.verify(binding, token, NOW + 2 * MINUTE)).toBe(false);
  });
});

describe('CSRF over HTTP', () => {
  let svc: TestApp;
  let sibling: TestApp;
  let stranger: TestApp;
  let proxied: TestApp;
  let sameSiteNone: TestApp;
  let off: TestApp;

  beforeAll(async () => {
    [svc, sibling, stranger, proxied, sameSiteNone, off] = await Promise.all([
      createTestApp(),
      createTestApp(),
      createTestApp({ env: { SVC_SECRET: OTHER_SECRET } }),
      createTestApp({ config: { server: { trustProxy: true } } }),
      createTestApp({ config: { csrf: { sameSite: 'none' } } }),
      createTestApp({ config: { csrf: { enabled: false } } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([svc, sibling, stranger, proxied, sameSiteNone, off].map((app) => app?.close()));
  });

  const cookieName = () => svc.config.csrf.cookieName;

  /** A raw JSON submit of a valid contact body with exactly the given CSRF headers. */
  async function postContact(target: TestApp, csrfHeaders: Record<string, string>) {
    return target.app.inject({
      method: 'POST',
      url: '/svc/api/forms/contact/submit',
      headers: { 'content-type': 'application/json', ...csrfHeaders },
      payload: JSON.stringify({ intent: 'submit', values: CONTACT_VALUES, meta: await target.meta('contact') }),
    });
  }

  function expectSubmitted(res: LightMyRequestResponse): void {
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, status: 'submitted', complete: true });
  }

  function expectCsrfRefused(res: LightMyRequestResponse): void {
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, code: 'CSRF_INVALID', message: expect.any(String) });
  }

  describe('GET /svc/tokens', () => {
    it('answers 200 with the token under the name SVC_CSRF_TOKEN', async () => {
      const res = await svc.app.inject({ method: 'GET', url: '/svc/tokens', headers: { accept: 'application/json' } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ csrf: { name: CSRF_FIELD_NAME, value: expect.stringMatching(/^\S{20,200}$/) } });
      expect(CSRF_FIELD_NAME).toBe('SVC_CSRF_TOKEN');
    });

    it('is never cached', async () => {
      const res = await svc.app.inject({ method: 'GET', url: '/svc/tokens' });
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('sets an HttpOnly, SameSite=Lax, Path=/ binding cookie without Secure over http', async () => {
      const res = await svc.app.inject({ method: 'GET', url: '/svc/tokens' });
      const headers = setCookieHeaders(res);
      expect(headers).toHaveLength(1);
      const attributes = cookieAttributes(headers[0] ?? '');
      expect(attributes[0]).toMatch(new RegExp(`^${cookieName()}=[a-z0-9_-]{22}$`));
      expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']));
      expect(attributes).not.toContain('secure');
    });

    it('marks the cookie Secure when the request arrived over https', async () => {
      const res = await proxied.app.inject({ method: 'GET', url: '/svc/tokens', headers: { 'x-forwarded-proto': 'https' } });
      const attributes = cookieAttributes(setCookieHeaders(res)[0] ?? '');
      expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/', 'secure']));
    });

    it('marks the cookie Secure and SameSite=None when csrf.sameSite is none, even over http', async () => {
      const res = await sameSiteNone.app.inject({ method: 'GET', url: '/svc/tokens' });
      const attributes = cookieAttributes(setCookieHeaders(res)[0] ?? '');
      expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=none', 'path=/', 'secure']));
    });

    it('reuses the binding of a client that already has the cookie and issues a fresh token that also works', async () => {
      const first = await svc.csrf();
      const again = await svc.app.inject({ method: 'GET', url: '/svc/tokens', headers: { cookie: first.cookie } });
      expect(again.statusCode).toBe(200);
      expect(setCookieHeaders(again)).toEqual([]);
      const second = (again.json() as { csrf: { value: string } }).csrf.value;
      expect(second).not.toBe(first.token);
      expectSubmitted(await postContact(svc, { 'x-csrf-token': second, cookie: first.cookie }));
      expectSubmitted(await postContact(svc, { 'x-csrf-token': first.token, cookie: first.cookie }));
    });

    it('replaces a malformed binding cookie with a fresh one', async () => {
      const res = await svc.app.inject({ method: 'GET', url: '/svc/tokens', headers: { cookie: `${cookieName()}=not-a-binding` } });
      const attributes = cookieAttributes(setCookieHeaders(res)[0] ?? '');
      expect(attributes[0]).toMatch(new RegExp(`^${cookieName()}=[a-z0-9_-]{22}$`));
    });
  });

  describe('submits with CSRF on', () => {
    it('accepts a submit with a token and its cookie', async () => {
      const { token, cookie } = await svc.csrf();
      expectSubmitted(await postContact(svc, { 'x-csrf-token': token, cookie }));
    });

    const refusals: Array<[string, () => Promise<Record<string, string>>]> = [
      ['no X-CSRF-Token header', async () => ({ cookie: (await svc.csrf()).cookie })],
      ['an empty X-CSRF-Token header', async () => ({ 'x-csrf-token': '', cookie: (await svc.csrf()).cookie })],
      ['a token but no cookie', async () => ({ 'x-csrf-token': (await svc.csrf()).token })],
      [
        'a token bound to another cookie',
        async () => {
          const [a, b] = await Promise.all([svc.csrf(), svc.csrf()]);
          return { 'x-csrf-token': a.token, cookie: b.cookie };
        },
      ],
      ['a garbage token', async () => ({ 'x-csrf-token': 'garbage', cookie: (await svc.csrf()).cookie })],
      [
        'a token with a forged signature',
        async () => {
          const { token, cookie } = await svc.csrf();
          return { 'x-csrf-token': forgeSignature(token), cookie };
        },
      ],
      [
        'an expired token',
        async () => {
          const tokens = createCsrfTokens(TEST_SECRET, TTL_MINUTES);
          const binding = tokens.newBinding();
          const token = tokens.issue(binding, Date.now() - (TTL_MINUTES + 1) * MINUTE);
          return { 'x-csrf-token': token, cookie: `${cookieName()}=${binding}` };
        },
      ],
      [
        'a token issued by an instance with a different secret',
        async () => {
          const { token, cookie } = await stranger.csrf();
          return { 'x-csrf-token': token, cookie };
        },
      ],
      [
        'the token in the cookie and the binding in the header',
        async () => {
          const { token, cookie } = await svc.csrf();
          return { 'x-csrf-token': cookie.split('=')[1] ?? '', cookie: `${cookieName()}=${token}` };
        },
      ],
    ];

    it.each(refusals)('refuses a submit with %s as 400 CSRF_INVALID', async (_title, makeHeaders) => {
      expectCsrfRefused(await postContact(svc, await makeHeaders()));
    });

    it('stores nothing when it refuses a submit for CSRF', async () => {
      const formId = svc.context.forms.get('contact')?.id ?? -1;
      const before = await countSubmissions(svc.context.database.db, formId);
      expectCsrfRefused(await postContact(svc, { 'x-csrf-token': 'garbage' }));
      expect(await countSubmissions(svc.context.database.db, formId)).toBe(before);
    });

    it('accepts a token that is close to the end of its lifetime', async () => {
      const tokens = createCsrfTokens(TEST_SECRET, TTL_MINUTES);
      const binding = tokens.newBinding();
      const token = tokens.issue(binding, Date.now() - (TTL_MINUTES - 1) * MINUTE);
      expectSubmitted(await postContact(svc, { 'x-csrf-token': token, cookie: `${cookieName()}=${binding}` }));
    });

    it('accepts a token issued by another instance with the same secret', async () => {
      const { token, cookie } = await sibling.csrf();
      expectSubmitted(await postContact(svc, { 'x-csrf-token': token, cookie }));
    });

    it('refuses on the other instance a token issued here when the secrets differ', async () => {
      const { token, cookie } = await svc.csrf();
      expectCsrfRefused(await postContact(stranger, { 'x-csrf-token': token, cookie }));
    });
  });

  describe('the manifest', () => {
    it('announces CSRF in security.csrf and endpoints.csrf when it is on', async () => {
      const manifest = await svc.manifest('contact');
      expect(manifest.security.csrf).toMatchObject({
        required: true,
        tokenEndpoint: '/svc/tokens',
        submitAs: { json: 'header', multipart: 'field' },
      });
      expect(manifest.endpoints).toMatchObject({ csrf: { method: 'GET', url: '/svc/tokens', required: true } });
    });

    it('has no security.csrf and endpoints.csrf.required false when CSRF is off', async () => {
      const manifest = await off.manifest('contact');
      expect(manifest.security).not.toHaveProperty('csrf');
      expect(manifest.endpoints).toMatchObject({ csrf: { method: 'GET', url: '/svc/tokens', required: false } });
    });
  });

  describe('with csrf.enabled false', () => {
    it('answers GET /svc/tokens with 200 {} and sets no cookie', async () => {
      const res = await off.app.inject({ method: 'GET', url: '/svc/tokens' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({});
      expect(setCookieHeaders(res)).toEqual([]);
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('accepts a submit without any token or cookie', async () => {
      expectSubmitted(await postContact(off, {}));
    });

    it('ignores a garbage token', async () => {
      expectSubmitted(await postContact(off, { 'x-csrf-token': 'garbage' }));
    });
  });
});
