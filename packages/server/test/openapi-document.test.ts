/**
 * The OpenAPI document (issue #16): valid OpenAPI 3.1 by an independent validator, listing every
 * REST route fastify registered, with a reference page that loads nothing from elsewhere; the
 * committed `schema/openapi.json` is what `svc openapi` prints; and the strict drift check that
 * every HTTP suite runs under really turns a disagreement between code and document into a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { Validator } from '@seriousme/openapi-schema-validator';
import { SvcError } from '@svc/core';
import { loadConfig } from '../src/config/config-loader.js';
import { openapiDocumentText } from '../src/cli/openapi-command.js';
import { registerErrorBoundary } from '../src/http/error-boundary.js';
import { errorResponses } from '../src/http/error-schemas.js';
import { routeSchema } from '../src/http/route-schema.js';
import { registerOpenapi } from '../src/openapi/openapi-feature.js';
import { isStrictOpenapi } from '../src/openapi/openapi-strict.js';
import { createTestApp, TEST_SECRET, testConfig, type TestApp } from './support/test-app.js';
import { REPO_ROOT } from './support/server-process.js';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

interface Document {
  readonly openapi: string;
  readonly servers?: readonly { url: string }[];
  readonly paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
}

/** fastify's `/a/:b` as OpenAPI's `/a/{b}`. */
const openapiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('the OpenAPI document', () => {
  let svc: TestApp;
  let document: Document;

  beforeAll(async () => {
    svc = await createTestApp({
      config: {
        metrics: { enabled: true, tokenSha256: createHash('sha256').update(METRICS_TOKEN).digest('hex') },
        server: { publicUrl: 'https://forms.example.test/' },
      },
    });
    const res = await svc.app.inject({ method: 'GET', url: '/svc/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    document = res.json() as Document;
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('is served as public, cacheable JSON that an independent validator accepts as OpenAPI 3.1', async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/svc/api/openapi.json' });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as unknown as Record<string, unknown>);
    expect(result.errors ?? [], JSON.stringify(result.errors ?? []).slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(document.openapi).toBe('3.1.0');
  });

  it('names the server by server.publicUrl and carries no secret', async () => {
    expect(document.servers).toEqual([{ url: 'https://forms.example.test' }]);
    const text = JSON.stringify(document);
    expect(text).not.toContain(TEST_SECRET);
    expect(text).not.toContain(METRICS_TOKEN);
  });

  it('documents every route fastify registered, except pages, GraphQL and preflights, with a schema for each', () => {
    const routes = svc.app.registeredRoutes.filter((route) => route.method !== 'HEAD');
    const kept = routes.filter((route) => !route.excluded);
    // Nothing slipped through without a schema (it would be enforced by fastify and checked by nobody).
    expect(kept.filter((route) => !route.documented).map((route) => `${route.method} ${route.url}`)).toEqual([]);
    const missing = kept
      // The classic post's catch-all is the same handler as /svc/submit, hidden as a path of its own.
      .filter((route) => route.url !== '/*')
      .filter((route) => !document.paths[openapiPath(route.url)]?.[route.method.toLowerCase()])
      .map((route) => `${route.method} ${route.url}`);
    expect(missing).toEqual([]);
    // And the other way round: nothing is documented that is not served.
    const served = new Set(kept.map((route) => `${route.method.toLowerCase()} ${openapiPath(route.url)}`));
    const extra = Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`)).filter((key) => !served.has(key));
    expect(extra).toEqual([]);
    for (const excluded of ['/graphql', '/svc/console/', '/svc/api/docs/']) expect(document.paths[excluded]).toBeUndefined();
    // Spot checks of what the suites rely on: the REST rooms and their shared error envelope.
    for (const path of ['/svc/api/forms/{handle}/manifest', '/svc/api/forms/{handle}/submit', '/svc/tokens', '/svc/submit', '/svc/api/admin/audit', '/metrics', '/readyz']) {
      expect(Object.keys(document.paths), path).toContain(path);
    }
    expect(document.paths['/svc/api/forms/{handle}/submit']?.post?.responses).toHaveProperty('422');
    expect(JSON.stringify(document.paths['/svc/api/forms/{handle}/manifest']?.get?.responses['404'])).toContain('#/components/schemas/Error404');
  });

  it('answers the reference page as HTML that loads its script from this server, allowed by hash', async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/svc/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const sources = [...res.body.matchAll(/<script[^>]*\bsrc="([^"]*)"/g)].map((match) => match[1]);
    expect(sources).toEqual(['js/scalar.js']);
    expect(res.body).not.toMatch(/https?:\/\//);
    expect(res.body).toContain('/svc/api/openapi.json');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/https?:|\*/);
    const inline = /<script type="text\/javascript">([\s\S]*?)<\/script>/.exec(res.body)?.[1] ?? '';
    expect(csp).toContain(`'sha256-${createHash('sha256').update(inline).digest('base64')}'`);
    const script = await svc.app.inject({ method: 'GET', url: '/svc/api/docs/js/scalar.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.body.length).toBeGreaterThan(100_000);
    expect(script.headers['cache-control']).toBe('public, max-age=86400');
    // Without the slash, the page's relative script path would miss: the plugin redirects.
    const bare = await svc.app.inject({ method: 'GET', url: '/svc/api/docs' });
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe('/svc/api/docs/');
    // Other routes keep their own policies: the page's hash is not handed to anyone else.
    const manifest = await svc.app.inject({ method: 'GET', url: '/svc/api/forms/contact/manifest' });
    expect(manifest.headers['content-security-policy']).toBeUndefined();
  });

  it('goes with the headless master switch, like every other /svc/api/ route', async () => {
    const off = await createTestApp({ config: { headless: { enabled: false } } });
    try {
      for (const url of ['/svc/api/openapi.json', '/svc/api/docs/']) {
        const res = await off.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(404);
        expect(res.json()).toMatchObject({ code: 'HEADLESS_DISABLED' });
      }
    } finally {
      await off.close();
    }
  });
});

describe('schema/openapi.json', () => {
  it('is what svc openapi prints for the example forms (regenerate: npm run -s svc -- openapi --demo --out schema/openapi.json)', async () => {
    const committed = readFileSync(join(REPO_ROOT, 'schema/openapi.json'), 'utf8');
    const current = await openapiDocumentText(loadConfig({ demo: true, offline: true, env: { SVC_SECRET: TEST_SECRET } }));
    expect(current.length).toBeGreaterThan(10_000);
    expect(committed === current, 'schema/openapi.json is out of date: npm run -s svc -- openapi --demo --out schema/openapi.json').toBe(true);
  });
});

describe('the strict drift check (SVC_OPENAPI_STRICT=1)', () => {
  let tiny: FastifyInstance;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-openapi-'));
    tiny = Fastify({ logger: false });
    registerErrorBoundary(tiny, () => false, { allowed: () => [] });
    await registerOpenapi(tiny, testConfig({}, dataDir));
    const answer = Type.Object({ ok: Type.Boolean() });
    const schema = (extra: Partial<Parameters<typeof routeSchema>[0]> = {}) =>
      routeSchema({ summary: 'test', tags: ['test'], response: { 200: answer, ...errorResponses(400, 500) }, ...extra });
    tiny.get('/right', { schema: schema() }, async () => ({ ok: true, unlisted: 'kept' }));
    tiny.get('/wrong-shape', { schema: schema() }, async () => ({ ok: 'yes' }));
    tiny.get('/wrong-status', { schema: schema() }, async (_request, reply) => reply.code(201).send({ ok: true }));
    tiny.get('/wrong-code', { schema: schema() }, async () => {
      throw new SvcError('FORM_NOT_FOUND');
    });
    tiny.get('/undocumented', async () => ({ ok: true }));
    tiny.post(
      '/body',
      { schema: schema({ body: Type.Object({ n: Type.Integer() }), querystring: Type.Object({ q: Type.Optional(Type.String({ pattern: '^[a-z]+$' })) }) }) },
      async (request) => {
        const { n } = request.body as { n: unknown };
        if (typeof n !== 'number') throw new SvcError('PAYLOAD_INVALID', 'n must be a number.');
        return { ok: true };
      },
    );
    await tiny.ready();
  });
  afterAll(async () => {
    await tiny?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const drift = (body: string) => (JSON.parse(body) as { message: string }).message;

  it('is on for every test run (vitest.config.ts)', () => {
    expect(isStrictOpenapi()).toBe(true);
  });

  it('lets a documented answer through untouched, keys the schema does not list included', async () => {
    const res = await tiny.inject({ method: 'GET', url: '/right' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, unlisted: 'kept' });
  });

  it('replaces an answer that does not match its schema with a 500 naming route, status and the mismatch', async () => {
    const res = await tiny.inject({ method: 'GET', url: '/wrong-shape' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ success: false, code: 'INTERNAL' });
    expect(drift(res.body)).toMatch(/^OpenAPI drift: GET \/wrong-shape answered 200: .*\/ok must be boolean/);
  });

  it('counts a status the route does not document, and a catalogue code it does not list, as drift', async () => {
    expect(drift((await tiny.inject({ method: 'GET', url: '/wrong-status' })).body)).toContain('GET /wrong-status answered 201: status 201 is not documented');
    expect(drift((await tiny.inject({ method: 'GET', url: '/wrong-code' })).body)).toContain('answered 404: status 404 is not documented');
  });

  it('counts a route without a documented schema as drift', async () => {
    const res = await tiny.inject({ method: 'GET', url: '/undocumented' });
    expect(res.statusCode).toBe(500);
    expect(drift(res.body)).toContain('GET /undocumented answered 200: the route has no documented schema');
  });

  it("leaves validation to svc's own parser (its catalogue code, not fastify's), and checks the request of a 2xx", async () => {
    const refused = await tiny.inject({ method: 'POST', url: '/body', payload: { n: 'one' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ success: false, code: 'PAYLOAD_INVALID', message: 'n must be a number.' });
    expect((await tiny.inject({ method: 'POST', url: '/body', payload: { n: 1 } })).statusCode).toBe(200);
    const undocumentedQuery = await tiny.inject({ method: 'POST', url: '/body?q=NOT', payload: { n: 1 } });
    expect(undocumentedQuery.statusCode).toBe(500);
    expect(drift(undocumentedQuery.body)).toMatch(/answered 200: the request querystring does not match: .*\/q must match pattern/);
    const fractional = await tiny.inject({ method: 'POST', url: '/body', payload: { n: 1.5 } });
    expect(drift(fractional.body)).toMatch(/the request body does not match: .*\/n must be integer/);
  });
});
