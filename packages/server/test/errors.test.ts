/**
 * Refusals (contract §1): every refused request answers `{success:false, code, message}` with the
 * catalogue status, carries `x-request-id`, and never leaks a stack trace, SQL or the secret.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { ERROR_CATALOGUE, type ErrorCode } from '@svc/core';
import { createTestApp, TEST_SECRET, type TestApp } from './support/test-app.js';

const SUBMIT = '/svc/api/forms/contact/submit';
const VALID_CONTACT = { intent: 'submit', values: { firstName: 'Ann', email: 'ann@example.test' } };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Method = 'GET' | 'POST' | 'OPTIONS' | 'PUT' | 'DELETE';

/** The exact refusal body of contract §1. */
function expectRefusal(res: LightMyRequestResponse, status: number, code: ErrorCode): { message: string } {
  expect(res.statusCode).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json() as { message: string };
  expect(body).toEqual({ success: false, code, message: expect.any(String) });
  expect(body.message.length).toBeGreaterThan(0);
  return body;
}

/** Fails when a body shows internals: stack frames, source paths, SQL or the server secret. */
function expectNoInternals(body: string): void {
  expect(body).not.toMatch(/\bat .*\.[cm]?[jt]s:\d+/);
  expect(body).not.toMatch(/\.ts:\d+/);
  expect(body).not.toMatch(/node_modules|\/packages\/server\/src\//);
  expect(body).not.toMatch(/\b(select|insert|update|delete)\b[\s\S]*\b(from|into|set|where)\b/i);
  expect(body).not.toMatch(/sqlite|no such table|svc_submissions|syntax error at/i);
  expect(body).not.toContain(TEST_SECRET);
}

describe('refusals over HTTP', () => {
  let svc: TestApp;
  let off: TestApp;
  let broken: TestApp;

  beforeAll(async () => {
    [svc, off, broken] = await Promise.all([
      createTestApp({
        config: {
          server: { bodyLimitKB: 1 },
          headless: { forms: { 'kitchen-sink': { exposeManifest: false, allowSubmit: false } } },
        },
      }),
      createTestApp({ config: { headless: { enabled: false } } }),
      createTestApp(),
    ]);
    // An unexpected failure deep in the pipeline: the table the submit writes to is gone.
    await broken.manifest('contact');
    await sql`drop table svc_submissions`.execute(broken.context.database.db);
  });
  afterAll(async () => {
    await Promise.all([svc, off, broken].map((app) => app?.close()));
  });

  /** A POST (to contact's submit unless told) with a valid CSRF token, so only the request is at fault. */
  async function postRaw(payload: string, contentType: string | null = 'application/json', url = SUBMIT) {
    const { token, cookie } = await svc.csrf();
    const headers: Record<string, string> = { 'x-csrf-token': token, cookie };
    if (contentType !== null) headers['content-type'] = contentType;
    return svc.app.inject({ method: 'POST', url, headers, payload });
  }

  describe('malformed submit bodies', () => {
    it.each<[string, string]>([
      ['malformed JSON', '{"intent":'],
      ['an empty body', ''],
      ['a JSON array', '[{"intent":"submit","values":{}}]'],
      ['a JSON string', '"submit"'],
      ['a JSON number', '42'],
      ['JSON null', 'null'],
      ['values that are a list', '{"intent":"submit","values":[]}'],
      ['values that are a string', '{"intent":"submit","values":"firstName=Ann"}'],
      ['values that are null', '{"intent":"submit","values":null}'],
      ['a missing intent', '{"values":{}}'],
      ['meta that is not an object', '{"intent":"submit","values":{},"meta":"x"}'],
      ['context that is not an object', '{"intent":"submit","values":{},"context":[]}'],
      ['a honeypot that is not {name, value}', '{"intent":"submit","values":{},"meta":{"honeypot":"x"}}'],
      ['a top-level __proto__ key', '{"intent":"submit","values":{},"__proto__":{"isAdmin":true}}'],
      ['a __proto__ key inside values', '{"intent":"submit","values":{"__proto__":{"polluted":true}}}'],
      ['a constructor.prototype key', '{"intent":"submit","values":{"constructor":{"prototype":{"polluted":true}}}}'],
    ])('answers %s with 400 PAYLOAD_INVALID', async (_title, payload) => {
      const res = await postRaw(payload);
      expectRefusal(res, 400, 'PAYLOAD_INVALID');
      expectNoInternals(res.body);
    });

    it('does not pollute Object.prototype through a __proto__ body', async () => {
      await postRaw('{"intent":"submit","values":{},"__proto__":{"polluted":true}}');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('answers an unknown top-level key with 400 PAYLOAD_INVALID naming the key', async () => {
      const { message } = expectRefusal(await postRaw('{"intent":"submit","values":{},"extraKey":1}'), 400, 'PAYLOAD_INVALID');
      expect(message).toContain('extraKey');
    });

    it.each([
      ['meta key', '{"intent":"validate","values":{},"meta":{"sneaky":1,"client":{"not":"text"}}}'],
      ['context key', '{"intent":"validate","values":{},"context":{"formId":"1","sourceUrl":42}}'],
    ])('ignores an unknown %s instead of refusing it (contract §1: clients add their own)', async (_title, payload) => {
      const res = await postRaw(payload);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ status: 'validation_failed' });
    });

    it.each(['finish', 'SUBMIT', ''])('answers the unknown intent %j with 400 INTENT_UNSUPPORTED', async (intent) => {
      expectRefusal(await postRaw(JSON.stringify({ intent, values: {} })), 400, 'INTENT_UNSUPPORTED');
    });

    it('answers a body over server.bodyLimitKB with 413 PAYLOAD_TOO_LARGE', async () => {
      const res = await postRaw(JSON.stringify({ intent: 'submit', values: { message: 'x'.repeat(2048) } }));
      expectRefusal(res, 413, 'PAYLOAD_TOO_LARGE');
    });

    it('accepts a body just under server.bodyLimitKB', async () => {
      const res = await svc.submit('contact', { ...VALID_CONTACT, values: { ...VALID_CONTACT.values, message: 'x'.repeat(400) } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ success: true, status: 'submitted' });
    });

    it.each<[string, string | null]>([
      ['application/xml', 'application/xml'],
      ['no content type', null],
    ])('answers a body sent as %s with 415 MEDIA_TYPE_UNSUPPORTED', async (_title, contentType) => {
      const res = await postRaw('<submit intent="submit"/>', contentType);
      expectRefusal(res, 415, 'MEDIA_TYPE_UNSUPPORTED');
    });

    it('refuses a malformed Idempotency-Key header with 400 PAYLOAD_INVALID', async () => {
      const res = await svc.submit('contact', { intent: 'validate', values: {} }, { 'idempotency-key': 'x'.repeat(201) });
      expectRefusal(res, 400, 'PAYLOAD_INVALID');
    });
  });

  describe('forms and routes', () => {
    it('answers the manifest of an unknown form with 404 FORM_NOT_FOUND naming the handle', async () => {
      const res = await svc.app.inject({ method: 'GET', url: '/svc/api/forms/no-such-form/manifest' });
      const { message } = expectRefusal(res, 404, 'FORM_NOT_FOUND');
      expect(message).toContain('no-such-form');
    });

    it('answers a submit to an unknown form with 404 FORM_NOT_FOUND', async () => {
      const res = await postRaw(JSON.stringify(VALID_CONTACT), 'application/json', '/svc/api/forms/no-such-form/submit');
      expectRefusal(res, 404, 'FORM_NOT_FOUND');
    });

    it('answers the manifest of a form that is not exposed with 403 MANIFEST_NOT_EXPOSED', async () => {
      const res = await svc.app.inject({ method: 'GET', url: '/svc/api/forms/kitchen-sink/manifest' });
      expectRefusal(res, 403, 'MANIFEST_NOT_EXPOSED');
    });

    it('answers a submit to a form that does not allow submits with 403 SUBMIT_NOT_ALLOWED', async () => {
      const res = await postRaw(JSON.stringify({ intent: 'submit', values: {} }), 'application/json', '/svc/api/forms/kitchen-sink/submit');
      expectRefusal(res, 403, 'SUBMIT_NOT_ALLOWED');
    });

    it.each<[Method, string]>([
      ['GET', '/nope'],
      ['GET', '/svc/nope'],
      ['GET', '/svc/api/nope'],
      ['GET', '/svc/api/forms/contact'],
    ])('answers %s %s with 404 ROUTE_NOT_FOUND', async (method, url) => {
      expectRefusal(await svc.app.inject({ method, url }), 404, 'ROUTE_NOT_FOUND');
    });

    it.each<[Method, string, string]>([
      ['PUT', SUBMIT, 'OPTIONS, POST'],
      ['DELETE', '/svc/api/forms/contact/manifest', 'GET, HEAD, OPTIONS'],
    ])('answers %s %s with 405 METHOD_NOT_ALLOWED and Allow: %s', async (method, url, allow) => {
      const res = await svc.app.inject({ method, url });
      expectRefusal(res, 405, 'METHOD_NOT_ALLOWED');
      expect(res.headers.allow).toBe(allow);
    });
  });

  describe('with headless.enabled false', () => {
    it.each<[Method, string]>([
      ['GET', '/svc/api/forms/contact/manifest'],
      ['POST', SUBMIT],
      ['GET', '/svc/tokens'],
      ['OPTIONS', SUBMIT],
      ['OPTIONS', '/svc/tokens'],
      ['GET', '/svc/api/nope'],
      ['POST', '/svc/api/forms/contact/files'],
      ['GET', '/svc/api/forms/no-such-form/manifest'],
    ])('answers %s %s with 404 HEADLESS_DISABLED', async (method, url) => {
      const res = await off.app.inject({
        method,
        url,
        headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'content-type': 'application/json' },
        payload: method === 'POST' ? JSON.stringify(VALID_CONTACT) : undefined,
      });
      expectRefusal(res, 404, 'HEADLESS_DISABLED');
    });

    it('sends no CORS headers from a disabled headless route', async () => {
      const res = await off.app.inject({ method: 'GET', url: '/svc/tokens', headers: { origin: 'http://localhost:5173' } });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('still answers other routes normally', async () => {
      expect((await off.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
      expectRefusal(await off.app.inject({ method: 'GET', url: '/nope' }), 404, 'ROUTE_NOT_FOUND');
    });
  });

  describe('unexpected failures', () => {
    it('answers 500 INTERNAL with the request id and nothing of the failure', async () => {
      const res = await broken.submit('contact', VALID_CONTACT);
      const { message } = expectRefusal(res, 500, 'INTERNAL');
      const requestId = String(res.headers['x-request-id']);
      expect(requestId).toMatch(UUID);
      expect(message).toContain(requestId);
      expectNoInternals(res.body);
    });
  });

  describe('request ids', () => {
    const requests: Array<[string, (apps: { svc: TestApp; off: TestApp }) => Promise<LightMyRequestResponse>]> = [
      ['a manifest', ({ svc: a }) => a.app.inject({ method: 'GET', url: '/svc/api/forms/contact/manifest' })],
      ['a CSRF token', ({ svc: a }) => a.app.inject({ method: 'GET', url: '/svc/tokens' })],
      ['a stored submit', ({ svc: a }) => a.submit('contact', VALID_CONTACT)],
      ['a validation failure', ({ svc: a }) => a.submit('contact', { intent: 'submit', values: {} })],
      [
        'a preflight',
        ({ svc: a }) =>
          a.app.inject({ method: 'OPTIONS', url: SUBMIT, headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' } }),
      ],
      ['a malformed body', ({ svc: a }) => a.app.inject({ method: 'POST', url: SUBMIT, headers: { 'content-type': 'application/json' }, payload: '{' })],
      ['a CSRF refusal', ({ svc: a }) => a.app.inject({ method: 'POST', url: SUBMIT, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(VALID_CONTACT) })],
      ['an origin refusal', ({ svc: a }) => a.submit('contact', VALID_CONTACT, { origin: 'https://evil.test' })],
      ['an unknown route', ({ svc: a }) => a.app.inject({ method: 'GET', url: '/nope' })],
      ['a disabled headless route', ({ off: a }) => a.app.inject({ method: 'GET', url: '/svc/tokens' })],
      ['the health check', ({ svc: a }) => a.app.inject({ method: 'GET', url: '/health' })],
    ];

    it.each(requests)('puts a fresh x-request-id on %s', async (_title, send) => {
      const [first, second] = [await send({ svc, off }), await send({ svc, off })];
      expect(String(first.headers['x-request-id'])).toMatch(UUID);
      expect(String(second.headers['x-request-id'])).toMatch(UUID);
      expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
    });

    it('does not take the request id from the client', async () => {
      const res = await svc.app.inject({ method: 'GET', url: '/nope', headers: { 'x-request-id': 'client-chosen-id' } });
      expect(res.headers['x-request-id']).not.toBe('client-chosen-id');
      expect(String(res.headers['x-request-id'])).toMatch(UUID);
    });
  });

  describe('no internals in any response', () => {
    const probes: Array<[string, Method, string, string | undefined, Record<string, string>]> = [
      ['malformed JSON', 'POST', SUBMIT, '{"intent": submit}', { 'content-type': 'application/json' }],
      ['a prototype-poisoning body', 'POST', SUBMIT, '{"__proto__":{"x":1}}', { 'content-type': 'application/json' }],
      ['an oversized body', 'POST', SUBMIT, `{"values":{"x":"${'y'.repeat(4096)}"}}`, { 'content-type': 'application/json' }],
      ['an unsupported media type', 'POST', SUBMIT, 'a=b', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['a SQL-looking handle', 'GET', "/svc/api/forms/x'%20OR%201=1--/manifest", undefined, {}],
      ['a CSRF refusal', 'POST', SUBMIT, JSON.stringify(VALID_CONTACT), { 'content-type': 'application/json' }],
      ['an unknown route', 'GET', '/svc/api/forms/contact/manifest/extra', undefined, {}],
    ];

    it.each(probes)('keeps stack traces, SQL and the secret out of %s', async (_title, method, url, payload, headers) => {
      const res = await svc.app.inject({ method, url, payload, headers });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.json()).toMatchObject({ success: false, code: expect.any(String) });
      expectNoInternals(res.body);
    });
  });
});

describe('the error catalogue', () => {
  it.each(Object.entries(ERROR_CATALOGUE))('gives %s a 4xx/5xx status and a message', (code, entry) => {
    expect(code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
    expect(entry.status).toBeGreaterThanOrEqual(400);
    expect(entry.status).toBeLessThan(600);
    expect(entry.message.trim().length).toBeGreaterThan(0);
  });

  it.each<[string, number]>([
    ['HEADLESS_DISABLED', 404],
    ['FORM_NOT_FOUND', 404],
    ['MANIFEST_NOT_EXPOSED', 403],
    ['SUBMIT_NOT_ALLOWED', 403],
    ['ORIGIN_NOT_ALLOWED', 403],
    ['CSRF_INVALID', 400],
    ['INTENT_UNSUPPORTED', 400],
    ['PAYLOAD_INVALID', 400],
    ['PAYLOAD_TOO_LARGE', 413],
    ['PROFILE_NOT_FOUND', 400],
    ['PROFILE_PROPERTY_INVALID', 400],
    ['AUTH_REQUIRED', 401],
    ['PROFILE_FORBIDDEN', 403],
    ['RATE_LIMITED', 429],
    ['IDEMPOTENCY_CONFLICT', 409],
    ['PAYMENT_NOT_OWNED', 403],
    ['PAYMENT_UNVERIFIED', 403],
    ['FILE_NOT_FOUND', 404],
    ['FILE_REJECTED', 400],
    ['INTERNAL', 500],
  ])('lists the contract code %s with HTTP %i', (code, status) => {
    expect(Object.hasOwn(ERROR_CATALOGUE, code)).toBe(true);
    expect(ERROR_CATALOGUE[code as ErrorCode].status).toBe(status);
  });
});

describe('refusals found in review', () => {
  let svc: TestApp;
  beforeAll(async () => {
    svc = await createTestApp();
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('refuses a text/plain submit as an unsupported type, not as a parsed body', async () => {
    const { token, cookie } = await svc.csrf();
    const res = await svc.app.inject({
      method: 'POST',
      url: '/svc/api/forms/contact/submit',
      headers: { 'content-type': 'text/plain', 'x-csrf-token': token, cookie },
      payload: '{"intent":"submit","values":{}}',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ success: false, code: 'MEDIA_TYPE_UNSUPPORTED' });
  });

  it.each(['/svc/api/forms/%E0%A4%A/manifest', `/svc/api/forms/${'a'.repeat(120)}/manifest`])(
    'answers a malformed URL %s with the catalogue body and a request id',
    async (url) => {
      const res = await svc.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.json()).toEqual({ success: false, code: expect.any(String), message: expect.any(String) });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    },
  );
});
