/**
 * Bad input that once answered 500 or held connections (issue #11): deeply nested JSON, malformed
 * multipart, GraphQL documents mercurius could not take, wrong methods, oversized URLs, trickled
 * bodies. Each answers a catalogue code, stores nothing and leaks nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from './support/test-app.js';
import { tinyPng } from './support/sample-files.js';

const JOBS = { headless: { forms: { 'job-application': { exposeManifest: true, allowSubmit: true } } } };

function nested(levels: number, inner = '"x"'): string {
  return `${'{"a":'.repeat(levels)}${inner}${'}'.repeat(levels)}`;
}

function expectCatalogue(res: LightMyRequestResponse, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json() as { success: boolean; code: string; message: string };
  expect(body).toMatchObject({ success: false, code });
  expect(res.body).not.toMatch(/ at |\/work\/|node_modules|stack|SELECT|INSERT/i);
  return body;
}

describe('bad input answers a catalogue code, never a 500', () => {
  let svc: TestApp;
  let csrf: { token: string; cookie: string };
  beforeAll(async () => {
    svc = await createTestApp({ config: JOBS });
    csrf = await svc.csrf();
  });
  afterAll(async () => {
    await svc?.close();
  });

  const rows = async (table: 'svc_submissions' | 'svc_files') =>
    Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(svc.context.database.db)).rows[0]?.n);

  const post = (url: string, payload: string | Buffer, contentType: string, extra: Record<string, string> = {}) =>
    svc.app.inject({ method: 'POST', url, headers: { 'content-type': contentType, 'x-csrf-token': csrf.token, cookie: csrf.cookie, ...extra }, payload });

  describe('nesting', () => {
    it('refuses a value nested 5,000 levels deep with 400 PAYLOAD_INVALID before anything recursive runs', async () => {
      const res = await post('/svc/api/forms/contact/submit', `{"values":{"firstName":${nested(5000)}},"intent":"validate"}`, 'application/json');
      expect(expectCatalogue(res, 400, 'PAYLOAD_INVALID').message).toContain('nests deeper');
    });

    it('still takes bodies as deep as a form needs (a table of file cells)', async () => {
      const res = await post('/svc/api/forms/contact/submit', JSON.stringify({ intent: 'validate', values: { message: [[[['x']]]] }, meta: {} }), 'application/json');
      expect(res.statusCode).toBe(422);
    });

    it('refuses a deep _svc part of a multipart submit and stores no file', async () => {
      const before = await rows('svc_files');
      const boundary = 'B0undary';
      const body = [
        `--${boundary}\r\nContent-Disposition: form-data; name="_svc"\r\n\r\n{"intent":"submit","values":${nested(3000, '{}')}}\r\n`,
        `--${boundary}\r\nContent-Disposition: form-data; name="files[cv][]"; filename="cv.png"\r\nContent-Type: image/png\r\n\r\n`,
      ].join('');
      const payload = Buffer.concat([Buffer.from(body), tinyPng(1), Buffer.from(`\r\n--${boundary}--\r\n`)]);
      const res = await post('/svc/api/forms/job-application/submit', payload, `multipart/form-data; boundary=${boundary}`);
      expectCatalogue(res, 400, 'PAYLOAD_INVALID');
      expect(await rows('svc_files')).toBe(before);
    });

    it('refuses deep GraphQL variables, by POST and by GET', async () => {
      const query = 'query($v: SvcJson) { svcHeadlessManifest(handle: "contact") }';
      const posted = await post('/graphql', `{"query":${JSON.stringify(query)},"variables":{"v":${nested(4000)}}}`, 'application/json');
      expect(posted.statusCode).toBe(400);
      expect(posted.json().errors[0].extensions.code).toBe('PAYLOAD_INVALID');
      const url = `/graphql?query=${encodeURIComponent(query)}&variables=${encodeURIComponent(`{"v":${nested(100)}}`)}`;
      const got = await svc.app.inject({ method: 'GET', url });
      expect(got.statusCode).toBe(400);
      expect(got.json().errors[0].extensions.code).toBe('PAYLOAD_INVALID');
    });
  });

  it('answers a loaded draft meeting a value no field takes (an object) with field errors, not 500 (found by fuzzing)', async () => {
    const meta = await svc.meta('contact');
    const saved = await post('/svc/api/forms/contact/submit', JSON.stringify({ intent: 'saveDraft', values: { firstName: 'Ann' }, meta }), 'application/json');
    const { token, key } = saved.json().draft as { token: string; key: string };
    const res = await post(
      '/svc/api/forms/contact/submit',
      JSON.stringify({ intent: 'validate', values: { firstName: { a: 1 } }, context: { draftToken: token, draftKey: key }, meta }),
      'application/json',
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.fields.firstName).toBeDefined();
  });

  describe('malformed multipart', () => {
    const cases: ReadonlyArray<readonly [string, string, string]> = [
      ['no boundary', 'multipart/form-data', '--B\r\n'],
      ['a boundary over 256 characters', `multipart/form-data; boundary=${'b'.repeat(300)}`, 'x'],
      ['a truncated body', 'multipart/form-data; boundary=B', '--B\r\nContent-Disposition: form-data; name="_svc"\r\n\r\n{'],
      ['a part terminated early', 'multipart/form-data; boundary=B', '--B\r\nContent-Disposition: form-data; name="_svc"\r\n\r\n{"intent":"validate"}\r\n--B'],
      ['a malformed part header', 'multipart/form-data; boundary=B', '--B\r\nContent-Disposition form-data\r\n\r\nx\r\n--B--\r\n'],
      [
        'a file part cut off mid-file',
        'multipart/form-data; boundary=B',
        '--B\r\nContent-Disposition: form-data; name="_svc"\r\n\r\n{"intent":"submit","values":{"role":"Backend engineer"}}\r\n--B\r\nContent-Disposition: form-data; name="files[cv][]"; filename="a.pdf"\r\n\r\n%PDF-1.4 abc',
      ],
    ];

    it.each(cases)('answers %s on a JSON-only form\'s submit with 400 PAYLOAD_INVALID', async (_label, type, payload) => {
      expectCatalogue(await post('/svc/api/forms/contact/submit', payload, type), 400, 'PAYLOAD_INVALID');
    });

    it.each(cases)('answers %s on a file form\'s submit with 400 PAYLOAD_INVALID and stores nothing', async (_label, type, payload) => {
      const [submissions, files] = [await rows('svc_submissions'), await rows('svc_files')];
      expectCatalogue(await post('/svc/api/forms/job-application/submit', payload, type), 400, 'PAYLOAD_INVALID');
      expect([await rows('svc_submissions'), await rows('svc_files')]).toEqual([submissions, files]);
    });

    it.each(cases)('answers %s on the upload route with 400 PAYLOAD_INVALID and stores nothing', async (_label, type, payload) => {
      const files = await rows('svc_files');
      const body = payload.replace('name="_svc"', 'name="portfolio"; filename="p.png"').replace('files[cv][]', 'portfolio');
      const res = await post('/svc/api/forms/job-application/files/portfolio', body, type, { 'x-svc-upload-token': randomUUID() });
      expectCatalogue(res, 400, 'PAYLOAD_INVALID');
      expect(await rows('svc_files')).toBe(files);
    });

    it('answers a part header with a bare line feed and a long part with 400, instead of never answering (found by fuzzing)', async () => {
      const payload = `--B\r\nContent-Disposition: form-data; name="a\nb"\r\n\r\n${'a'.repeat(17_000)}\r\n--B--\r\n`;
      const started = Date.now();
      expectCatalogue(await post('/svc/api/forms/contact/submit', payload, 'multipart/form-data; boundary=B'), 400, 'PAYLOAD_INVALID');
      expect(Date.now() - started).toBeLessThan(5000);
    });

    it('answers a malformed delete with 400 PAYLOAD_INVALID', async () => {
      const res = await post('/svc/api/forms/job-application/files/portfolio/delete', '--B\r\nContent-Disposition: form-data; name="id"\r\n\r\nab', 'multipart/form-data; boundary=B', {
        'x-svc-upload-token': randomUUID(),
      });
      expectCatalogue(res, 400, 'PAYLOAD_INVALID');
    });
  });

  describe('GraphQL documents', () => {
    it('refuses an application/graphql body that is JSON instead of a document, with a code, not INTERNAL', async () => {
      const res = await svc.app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/graphql' }, payload: '{"query":"{__typename}"}' });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0].extensions.code).toBe('PAYLOAD_INVALID');
    });

    it('still answers an application/graphql document', async () => {
      const res = await svc.app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/graphql' }, payload: '{ __typename }' });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ __typename: 'Query' });
    });

    it('answers an operationName the document lacks with PAYLOAD_INVALID', async () => {
      const res = await svc.app.inject({ method: 'GET', url: '/graphql?query={__typename}&operationName=X' });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0]).toMatchObject({ extensions: { code: 'PAYLOAD_INVALID' } });
    });

    it('stops a selection nested 3,000 levels deep with QUERY_TOO_DEEP and no internal message', async () => {
      const query = `query { ${'svc { '.repeat(3000)}__typename${' }'.repeat(3000)} }`;
      const res = await post('/graphql', JSON.stringify({ query }), 'application/json');
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([{ message: expect.stringContaining('limit of 15'), extensions: { code: 'QUERY_TOO_DEEP' } }]);
      expect(res.body).not.toContain('call stack');
    });
  });

  describe('methods', () => {
    it.each([
      ['GET', '/svc/api/forms/contact/submit', 'OPTIONS, POST'],
      ['POST', '/svc/api/forms/contact/manifest', 'GET, HEAD, OPTIONS'],
      ['DELETE', '/svc/tokens', 'GET, HEAD, OPTIONS'],
      ['PUT', '/graphql', 'GET, HEAD, OPTIONS, POST'],
      ['POST', '/svc/api/admin/forms', 'GET, HEAD'],
    ] as const)('answers %s %s with 405 METHOD_NOT_ALLOWED and Allow: %s', async (method, url, allow) => {
      const bodiless = method === 'GET' || method === 'DELETE';
      const res = await svc.app.inject({ method, url, ...(bodiless ? {} : { headers: { 'content-type': 'application/json' }, payload: '{}' }) });
      expectCatalogue(res, 405, 'METHOD_NOT_ALLOWED');
      expect(res.headers.allow).toBe(allow);
    });

    it('still answers an unknown path with 404 ROUTE_NOT_FOUND', async () => {
      expectCatalogue(await svc.app.inject({ method: 'GET', url: '/svc/api/forms/contact/manifest/extra' }), 404, 'ROUTE_NOT_FOUND');
    });
  });
});

describe('what arrives before a route runs, over a real socket', () => {
  let svc: TestApp;
  let port: number;
  beforeAll(async () => {
    svc = await createTestApp({ config: { server: { requestTimeoutMs: 1000, headersTimeoutMs: 1000, maxConnectionsPerClient: 5 } } });
    await svc.app.listen({ port: 0, host: '127.0.0.1' });
    port = (svc.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await svc?.close();
  });

  /** Sends raw bytes and collects what comes back until the server closes the socket. */
  function exchange(request: string, options: { keepOpenMs?: number } = {}): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      const timer = setTimeout(() => {
        socket.destroy();
        resolve(answer);
      }, options.keepOpenMs ?? 5000);
      socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(answer);
      });
      socket.on('error', reject);
      socket.write(request);
    });
  }

  it('answers a 64 KB URL with 431 HEADERS_TOO_LARGE in the catalogue shape, and a HEAD without a body', async () => {
    const url = `/svc/api/forms/contact/manifest?x=${'a'.repeat(64 * 1024)}`;
    const got = await exchange(`GET ${url} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(got).toMatch(/^HTTP\/1\.1 431 /);
    const body = got.slice(got.indexOf('\r\n\r\n') + 4);
    expect(JSON.parse(body)).toEqual({ success: false, code: 'HEADERS_TOO_LARGE', message: expect.any(String) });
    const head = await exchange(`HEAD ${url} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head.slice(head.indexOf('\r\n\r\n') + 4)).toBe('');
  });

  it('closes a connection that trickles its body past server.requestTimeoutMs with 408 REQUEST_TIMEOUT', async () => {
    const started = Date.now();
    const got = await exchange(
      'POST /svc/api/forms/contact/submit HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"in',
      { keepOpenMs: 8000 },
    );
    expect(got).toMatch(/^HTTP\/1\.1 408 /);
    expect(got).toContain('"code":"REQUEST_TIMEOUT"');
    expect(Date.now() - started).toBeLessThan(7000);
  });

  it('closes connections past server.maxConnectionsPerClient from one address at once', async () => {
    const sockets = Array.from({ length: 7 }, () => connect(port, '127.0.0.1'));
    const closed = await Promise.all(
      sockets.map(
        (socket) =>
          new Promise<boolean>((resolve) => {
            socket.on('close', () => resolve(true));
            socket.on('error', () => undefined);
            setTimeout(() => resolve(false), 500);
          }),
      ),
    );
    for (const socket of sockets) socket.destroy();
    expect(closed.filter(Boolean).length).toBe(2);
  });
});
