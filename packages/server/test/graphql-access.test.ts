/**
 * Who may read and submit what over GraphQL (contract §11): the public schema configured by
 * `graphql.public` or, when that is null, by headless.forms; bearer-token scopes; GET is for
 * queries only; introspection by config; query cost limits; and error bodies that leak nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SvcError } from '@svc/core';
import { createAccessControl } from '../src/graphql/graphql-access.js';
import { countSubmissions } from '../src/submissions/submission-repository.js';
import { createTestApp, EXAMPLE_FORMS_DIR, TEST_SECRET, testConfig, type TestApp } from './support/test-app.js';
import { postGraphql, type GraphqlBody } from './support/graphql-client.js';

const post = postGraphql;

const codes = (body: GraphqlBody<unknown>) => (body.errors ?? []).map((e) => e.extensions?.code);

/** A CSRF token, its cookie and the empty honeypot: everything a legitimate client sends. */
async function security(svc: TestApp, handle: string) {
  const { token, cookie } = await svc.csrf();
  const form = svc.context.forms.get(handle);
  const honeypot = form ? { name: svc.context.submit.spamFields.honeypotName(form), value: '' } : { name: 'x', value: '' };
  return { variables: { csrf: { name: 'SVC_CSRF_TOKEN', value: token }, hp: honeypot }, headers: { cookie }, token };
}

const SAVE_CONTACT = `mutation ($csrf: SvcCsrfTokenInputType, $hp: SvcHoneypotInputType) {
  save_contact_Submission(csrfToken: $csrf, honeypot: $hp, firstName: "Ann", email: "ann@example.test") { id success }
}`;
const SAVE_APPLICATION = `mutation ($csrf: SvcCsrfTokenInputType, $hp: SvcHoneypotInputType) {
  save_application_Submission(csrfToken: $csrf, honeypot: $hp, fullName: "Ann Lee", email: "ann@example.test",
    applicantType: "individual", agree: true) { id success }
}`;
const HEADLESS_SUBMIT = `mutation ($handle: String!, $csrf: String) {
  svcHeadlessSubmit(handle: $handle, intent: "submit", values: { firstName: "Ann", email: "ann@example.test" }, csrfToken: $csrf)
}`;

/** The error a refusal answers, with the handle written as H, so two refusals can be compared. */
function refusal(body: GraphqlBody<Record<string, unknown>>, handle: string) {
  return {
    data: body.data,
    errors: (body.errors ?? []).map((e) => ({ message: e.message.replace(`"${handle}"`, '"H"'), extensions: e.extensions })),
  };
}

describe('the public schema configured by graphql.public', () => {
  let svc: TestApp;
  beforeAll(async () => {
    svc = await createTestApp({ config: { forms: { watch: false }, graphql: { public: { read: ['contact'], submit: [] } } } });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('lists only the forms the public may read', async () => {
    const { body } = await post<{ svc: { forms: { handle: string }[] } }>(svc, '{ svc { forms { handle } } }');
    expect(body.errors).toBeUndefined();
    expect(body.data?.svc.forms).toEqual([{ handle: 'contact' }]);
  });

  it.each([
    ['form(handle: "application")', 'form(handle: "nope")'],
    ['form(handle: ["application", "kitchen-sink"])', 'form(handle: ["nope"])'],
    ['forms(handle: "application")', 'forms(handle: "nope")'],
    ['forms(orderBy: "name", offset: 1)', 'forms(offset: 1)'],
  ])('answers %s for a form it may not read exactly like %s for one that does not exist', async (forbidden, unknown) => {
    const a = await post(svc, `{ svc { result: ${forbidden} { handle } } }`);
    const b = await post(svc, `{ svc { result: ${unknown} { handle } } }`);
    expect(a.res.statusCode).toBe(b.res.statusCode);
    expect(a.body).toEqual(b.body);
    expect(a.body.errors).toBeUndefined();
  });

  it('finds a forbidden form by neither id nor uid', async () => {
    const application = svc.context.forms.get('application');
    const { body } = await post<{ svc: { byId: unknown; byUid: unknown } }>(
      svc,
      `{ svc { byId: form(id: ${application?.id}) { handle } byUid: forms(uid: "${application?.uid}") { handle } } }`,
    );
    expect(body.data?.svc).toEqual({ byId: null, byUid: [] });
  });

  it('answers svcHeadlessManifest for a form it may not read exactly like for an unknown one', async () => {
    const forbidden = await post<Record<string, unknown>>(svc, '{ svcHeadlessManifest(handle: "application") }');
    const unknown = await post<Record<string, unknown>>(svc, '{ svcHeadlessManifest(handle: "nope") }');
    expect(codes(forbidden.body)).toEqual(['FORM_NOT_FOUND']);
    expect(refusal(forbidden.body, 'application')).toEqual(refusal(unknown.body, 'nope'));
  });

  it('refuses save_contact_Submission with FORM_NOT_FOUND exactly like svcHeadlessSubmit for an unknown handle, storing nothing', async () => {
    const contact = svc.context.forms.get('contact');
    const before = await countSubmissions(svc.context.database.db, contact?.id ?? -1);
    const sec = await security(svc, 'contact');
    const mutation = await post<Record<string, unknown>>(svc, SAVE_CONTACT, sec.variables, sec.headers);
    const unknown = await post<Record<string, unknown>>(svc, HEADLESS_SUBMIT, { handle: 'nope', csrf: sec.token }, sec.headers);
    expect(codes(mutation.body)).toEqual(['FORM_NOT_FOUND']);
    expect(mutation.body.data).toEqual({ save_contact_Submission: null });
    expect(unknown.body.data).toEqual({ svcHeadlessSubmit: null });
    expect(mutation.res.statusCode).toBe(unknown.res.statusCode);
    expect(refusal(mutation.body, 'contact').errors).toEqual(refusal(unknown.body, 'nope').errors);
    expect(await countSubmissions(svc.context.database.db, contact?.id ?? -1)).toBe(before);
  });

  it('refuses svcHeadlessSubmit for a readable form it may not submit to like an unknown one', async () => {
    const sec = await security(svc, 'contact');
    const forbidden = await post<Record<string, unknown>>(svc, HEADLESS_SUBMIT, { handle: 'contact', csrf: sec.token }, sec.headers);
    const unknown = await post<Record<string, unknown>>(svc, HEADLESS_SUBMIT, { handle: 'nope', csrf: sec.token }, sec.headers);
    expect(codes(forbidden.body)).toEqual(['FORM_NOT_FOUND']);
    expect(refusal(forbidden.body, 'contact')).toEqual(refusal(unknown.body, 'nope'));
  });
});

describe('the public schema when graphql.public is null: it follows headless.forms', () => {
  let svc: TestApp;
  beforeAll(async () => {
    svc = await createTestApp({
      config: {
        forms: { watch: false },
        headless: {
          forms: {
            contact: { exposeManifest: true, allowSubmit: false },
            application: { exposeManifest: false, allowSubmit: true },
            'kitchen-sink': { exposeManifest: false, allowSubmit: false },
          },
        },
      },
    });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('reads exactly the forms with exposeManifest', async () => {
    const { body } = await post<{ svc: { forms: { handle: string }[]; app: unknown; ks: unknown } }>(
      svc,
      '{ svc { forms { handle } app: form(handle: "application") { handle } ks: form(handle: "kitchen-sink") { handle } } }',
    );
    expect(body.data?.svc).toEqual({ forms: [{ handle: 'contact' }], app: null, ks: null });
    const manifest = await post<{ svcHeadlessManifest: { form: { handle: string } } }>(svc, '{ svcHeadlessManifest(handle: "contact") }');
    expect(manifest.body.data?.svcHeadlessManifest.form.handle).toBe('contact');
    expect(codes((await post(svc, '{ svcHeadlessManifest(handle: "application") }')).body)).toEqual(['FORM_NOT_FOUND']);
  });

  it('submits exactly to the forms with allowSubmit, even one it may not read', async () => {
    const app = await security(svc, 'application');
    const accepted = await post<{ save_application_Submission: { id: number; success: boolean } }>(svc, SAVE_APPLICATION, app.variables, app.headers);
    expect(accepted.body.errors).toBeUndefined();
    expect(accepted.body.data?.save_application_Submission.success).toBe(true);

    const contact = await security(svc, 'contact');
    const refused = await post(svc, SAVE_CONTACT, contact.variables, contact.headers);
    expect(codes(refused.body)).toEqual(['FORM_NOT_FOUND']);
    const headless = await post(svc, HEADLESS_SUBMIT, { handle: 'contact', csrf: contact.token }, contact.headers);
    expect(codes(headless.body)).toEqual(['FORM_NOT_FOUND']);
  });
});

describe('bearer-token scopes (access control)', () => {
  const TOKENS = {
    reader: 'reader-token-0123456789abcdef',
    contactReader: 'contact-reader-token-0123456789',
    contactWriter: 'contact-writer-token-0123456789',
    writer: 'writer-token-0123456789abcdef',
  };
  const hash = (token: string) => createHash('sha256').update(token).digest('hex');
  const config = testConfig(
    {
      config: {
        graphql: {
          public: { read: [], submit: [] },
          tokens: [
            { name: 'reader', sha256: hash(TOKENS.reader), scopes: ['forms:read'] },
            { name: 'contact-reader', sha256: hash(TOKENS.contactReader), scopes: ['forms:contact:read'] },
            { name: 'contact-writer', sha256: hash(TOKENS.contactWriter), scopes: ['submissions:contact:create'] },
            { name: 'writer', sha256: hash(TOKENS.writer), scopes: ['submissions:create'] },
          ],
        },
      },
    },
    join(tmpdir(), 'svc-access-unit'),
  );
  const access = createAccessControl(config);
  const HANDLES = ['contact', 'application', 'kitchen-sink'];

  it.each([
    { token: TOKENS.reader, name: 'reader', scope: 'forms:read', read: HANDLES, submit: [] },
    { token: TOKENS.contactReader, name: 'contact-reader', scope: 'forms:contact:read', read: ['contact'], submit: [] },
    { token: TOKENS.contactWriter, name: 'contact-writer', scope: 'submissions:contact:create', read: [], submit: ['contact'] },
    { token: TOKENS.writer, name: 'writer', scope: 'submissions:create', read: [], submit: HANDLES },
  ])('grants $scope exactly: read $read, submit $submit', ({ token, name, read, submit }) => {
    const principal = access.principalFor(`Bearer ${token}`);
    expect(principal.token).toBe(name);
    expect(HANDLES.filter((h) => principal.canRead(h))).toEqual(read);
    expect(HANDLES.filter((h) => principal.canSubmit(h))).toEqual(submit);
  });

  it('treats a request without an Authorization header as the public', () => {
    const principal = access.principalFor(undefined);
    expect(principal).toBe(access.publicPrincipal);
    expect(principal.token).toBeNull();
    expect(HANDLES.some((h) => principal.canRead(h) || principal.canSubmit(h))).toBe(false);
  });

  it.each([
    ['an unknown bearer token', 'Bearer unknown-token-0123456789abc'],
    ['a known token with one character changed', `Bearer ${TOKENS.reader.slice(0, -1)}X`],
    ['a bearer token that is too short', 'Bearer short'],
    ['another scheme', `Basic ${TOKENS.reader}`],
  ])('refuses %s with AUTH_REQUIRED (401) instead of falling back to the public', (_title, header) => {
    let thrown: unknown;
    try {
      access.principalFor(header);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SvcError);
    expect((thrown as SvcError).code).toBe('AUTH_REQUIRED');
    expect((thrown as SvcError).status).toBe(401);
  });
});

describe('GET, introspection and query cost', () => {
  let svc: TestApp;
  let introspective: TestApp;
  let limited: TestApp;
  beforeAll(async () => {
    svc = await createTestApp({ config: { forms: { watch: false } } });
    introspective = await createTestApp({ config: { forms: { watch: false }, graphql: { introspection: true } } });
    limited = await createTestApp({ config: { forms: { watch: false }, graphql: { maxDepth: 3, maxComplexity: 50 } } });
  });
  afterAll(async () => {
    await limited?.close();
    await introspective?.close();
    await svc?.close();
  });

  it.each(['/graphql', '/actions/graphql/api'])('refuses a mutation sent with GET to %s with 405 and runs nothing', async (path) => {
    const contact = svc.context.forms.get('contact');
    const before = await countSubmissions(svc.context.database.db, contact?.id ?? -1);
    const sec = await security(svc, 'contact');
    const mutation = `mutation { save_contact_Submission(firstName: "Get", email: "get@example.test", csrfToken: { name: "SVC_CSRF_TOKEN", value: "${sec.token}" }) { id } }`;
    const res = await svc.app.inject({ method: 'GET', url: `${path}?query=${encodeURIComponent(mutation)}`, headers: sec.headers });
    expect(res.statusCode).toBe(405);
    expect(res.json<GraphqlBody<unknown>>().errors?.length).toBeGreaterThan(0);
    expect(res.json<GraphqlBody<unknown>>().data ?? null).toBeNull();
    expect(await countSubmissions(svc.context.database.db, contact?.id ?? -1)).toBe(before);
  });

  it.each([
    '{ __schema { queryType { name } } }',
    '{ __type(name: "SvcFormInterface") { name fields { name } } }',
    '{ svc { forms { handle } } __schema { types { name } } }',
  ])('refuses introspection by default: %s', async (query) => {
    const { body } = await post<Record<string, unknown>>(svc, query);
    expect(body.errors?.length).toBeGreaterThan(0);
    expect(body.errors?.map((e) => e.message).join(' ')).toMatch(/introspection/i);
    expect(body.data ?? null).toBeNull();
  });

  it('still answers __typename with introspection off', async () => {
    const { body } = await post<{ svc: { __typename: string } }>(svc, '{ svc { __typename } }');
    expect(body).toEqual({ data: { svc: { __typename: 'Svc' } } });
  });

  it('answers introspection when graphql.introspection is true', async () => {
    const { body } = await post<{ __schema: { queryType: { name: string }; mutationType: { name: string }; types: { name: string }[] } }>(
      introspective,
      '{ __schema { queryType { name } mutationType { name } types { name } } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data?.__schema.queryType.name).toBe('Query');
    expect(body.data?.__schema.mutationType.name).toBe('Mutation');
    expect(body.data?.__schema.types.map((t) => t.name)).toEqual(expect.arrayContaining(['SvcFormInterface', 'SvcField_Text', 'contact_Submission']));
  });

  it.each([
    { title: 'nested fields', query: '{ svc { form(handle: "contact") { pages { rows { id } } } } }' },
    { title: 'a fragment', query: '{ svc { form(handle: "contact") { ...P } } } fragment P on SvcFormInterface { pages { label } }' },
    { title: 'an inline fragment', query: '{ svc { form(handle: "contact") { ... on SvcForm { honeypot { name } } } } }' },
  ])('refuses a query deeper than maxDepth 3 through $title with QUERY_TOO_DEEP', async ({ query }) => {
    const { res, body } = await post<Record<string, unknown>>(limited, query);
    expect(codes(body)).toEqual(['QUERY_TOO_DEEP']);
    expect(body.data ?? null).toBeNull();
    expect(res.statusCode).toBe(200);
  });

  it('refuses a query costlier than maxComplexity 50 with QUERY_TOO_COMPLEX', async () => {
    const aliases = Array.from({ length: 30 }, (_, i) => `f${i}: form(handle: "contact") { id handle }`).join(' ');
    const { body } = await post<Record<string, unknown>>(limited, `{ svc { ${aliases} } }`);
    expect(codes(body)).toEqual(['QUERY_TOO_COMPLEX']);
    expect(body.data ?? null).toBeNull();
  });

  it('answers a query within both limits', async () => {
    const { body } = await post<{ svc: { form: { handle: string } } }>(limited, '{ svc { form(handle: "contact") { handle name } } }');
    expect(body).toEqual({ data: { svc: { form: { handle: 'contact', name: 'Contact' } } } });
  });

  it('refuses a costlier-than-allowed mutation before anything is stored', async () => {
    const contact = limited.context.forms.get('contact');
    const before = await countSubmissions(limited.context.database.db, contact?.id ?? -1);
    const sec = await security(limited, 'contact');
    const save = (alias: string) => `${alias}: save_contact_Submission(csrfToken: $csrf, honeypot: $hp, firstName: "Many", email: "many@example.test") { id }`;
    const many = `mutation ($csrf: SvcCsrfTokenInputType, $hp: SvcHoneypotInputType) { ${Array.from({ length: 30 }, (_, i) => save(`s${i}`)).join(' ')} }`;
    const refused = await post(limited, many, sec.variables, sec.headers);
    expect(codes(refused.body)).toEqual(['QUERY_TOO_COMPLEX']);
    expect(await countSubmissions(limited.context.database.db, contact?.id ?? -1)).toBe(before);

    const one = await post(limited, `mutation ($csrf: SvcCsrfTokenInputType, $hp: SvcHoneypotInputType) { ${save('s')} }`, sec.variables, sec.headers);
    expect(one.body.errors).toBeUndefined();
    expect(await countSubmissions(limited.context.database.db, contact?.id ?? -1)).toBe(before + 1);
  });
});

describe('the forms list is capped at 100', () => {
  let dir: string;
  let svc: TestApp;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-many-forms-'));
    cpSync(EXAMPLE_FORMS_DIR, dir, { recursive: true });
    for (let i = 1; i <= 105; i++) {
      const n = String(i).padStart(3, '0');
      writeFileSync(join(dir, `form-${n}.yaml`), `name: Form ${n}\nfields:\n  - type: text\n    handle: a\n    label: A\n`);
    }
    svc = await createTestApp({ config: { forms: { dir, watch: false }, graphql: { public: { read: ['*'], submit: [] }, maxComplexity: 100_000_000 } } });
  });
  afterAll(async () => {
    await svc?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('has more than 100 forms to list', () => {
    expect(svc.context.forms.list().length).toBe(105 + readdirSync(EXAMPLE_FORMS_DIR).length);
  });

  it.each([
    { title: 'no limit', query: '{ svc { forms { handle } } }', variables: undefined },
    { title: 'limit: 1000000', query: '{ svc { forms(limit: 1000000) { handle } } }', variables: undefined },
    { title: 'limit: $n = 1000000', query: 'query ($n: Int) { svc { forms(limit: $n) { handle } } }', variables: { n: 1_000_000 } },
  ])('returns at most 100 forms, without an error, for $title', async ({ query, variables }) => {
    const { body } = await post<{ svc: { forms: { handle: string }[] } }>(svc, query, variables);
    expect(body.errors).toBeUndefined();
    expect(body.data?.svc.forms).toHaveLength(100);
  });

  it('returns the rest past offset 100', async () => {
    const { body } = await post<{ svc: { forms: { handle: string }[] } }>(svc, '{ svc { forms(offset: 100, limit: 1000000) { handle } } }');
    expect(body.data?.svc.forms).toHaveLength(svc.context.forms.list().length - 100);
  });
});

describe('error bodies leak nothing', () => {
  let svc: TestApp;
  let limited: TestApp;
  beforeAll(async () => {
    svc = await createTestApp({ config: { forms: { watch: false } } });
    limited = await createTestApp({ config: { forms: { watch: false }, graphql: { maxDepth: 3, maxComplexity: 50 } } });
  });
  afterAll(async () => {
    await limited?.close();
    await svc?.close();
  });

  type Request = { method: 'GET' | 'POST'; url?: string; body?: string; contentType?: string; limited?: boolean };
  const json = (query: string, variables?: Record<string, unknown>) => JSON.stringify({ query, variables });
  const requests: { title: string; request: Request }[] = [
    { title: 'a body that is not JSON', request: { method: 'POST', body: '{"query": "{ svc' } },
    { title: 'a JSON array (batching is off)', request: { method: 'POST', body: JSON.stringify([{ query: '{ svc { forms { id } } }' }]) } },
    { title: 'a JSON string', request: { method: 'POST', body: '"{ svc { forms { id } } }"' } },
    { title: 'no query', request: { method: 'POST', body: '{}' } },
    { title: 'a query that is not a string', request: { method: 'POST', body: '{"query": 42}' } },
    { title: 'a syntax error', request: { method: 'POST', body: json('{ svc { forms { id } ') } },
    { title: 'an unknown field', request: { method: 'POST', body: json('{ svc { forms { password } } }') } },
    { title: 'an argument of the wrong type', request: { method: 'POST', body: json('{ svc { forms(id: "one") { id } } }') } },
    { title: 'a variable of the wrong type', request: { method: 'POST', body: json('query ($n: Int) { svc { forms(limit: $n) { id } } }', { n: 'x' }) } },
    { title: 'a bad orderBy', request: { method: 'POST', body: json('{ svc { forms(orderBy: "id; DROP TABLE svc_submissions") { id } } }') } },
    { title: 'a negative limit', request: { method: 'POST', body: json('{ svc { forms(limit: -1) { id } } }') } },
    { title: 'a mutation without CSRF', request: { method: 'POST', body: json('mutation { save_contact_Submission(firstName: "A", email: "a@example.test") { id } }') } },
    { title: 'an invalid submission', request: { method: 'POST', body: json('mutation { save_contact_Submission(email: "x") { id } }') } },
    { title: 'an unknown form', request: { method: 'POST', body: json('{ svcHeadlessManifest(handle: "nope") }') } },
    { title: 'a very long handle', request: { method: 'POST', body: json(`{ svcHeadlessManifest(handle: "${'x'.repeat(5000)}") }`) } },
    { title: 'an unsupported intent', request: { method: 'POST', body: json('mutation { svcHeadlessSubmit(handle: "contact", intent: "delete", values: {}) }') } },
    { title: 'values that are not an object', request: { method: 'POST', body: json('mutation { svcHeadlessSubmit(handle: "contact", intent: "validate", values: "x") }') } },
    { title: 'a saveDraft intent', request: { method: 'POST', body: json('mutation { svcHeadlessSubmit(handle: "contact", intent: "saveDraft", values: {}) }') } },
    { title: 'two operations without operationName', request: { method: 'POST', body: json('query A { svc { __typename } } query B { svc { __typename } }') } },
    { title: 'introspection while it is off', request: { method: 'POST', body: json('{ __schema { types { name } } }') } },
    { title: 'a text/plain body', request: { method: 'POST', body: '{ svc { forms { id } } }', contentType: 'text/plain' } },
    { title: 'a mutation over GET', request: { method: 'GET', url: `/graphql?query=${encodeURIComponent('mutation { save_contact_Submission(firstName: "A") { id } }')}` } },
    { title: 'GET without a query', request: { method: 'GET', url: '/graphql' } },
    { title: 'GET with variables that are not JSON', request: { method: 'GET', url: `/graphql?query=${encodeURIComponent('{ svc { __typename } }')}&variables=%7Bnope` } },
    { title: 'a too-deep query', request: { method: 'POST', body: json('{ svc { forms { pages { rows { id } } } } }'), limited: true } },
    { title: 'a too-costly query', request: { method: 'POST', body: json(`{ svc { ${Array.from({ length: 40 }, (_, i) => `a${i}: forms { id }`).join(' ')} } }`), limited: true } },
  ];

  const LEAKS = ['    at ', '.ts:', '.js:', 'SELECT', 'node_modules', TEST_SECRET];

  it.each(requests)('answers $title with errors that carry no stack, source path, SQL or secret', async ({ request }) => {
    const app = request.limited ? limited : svc;
    const res = await app.app.inject({
      method: request.method,
      url: request.url ?? '/graphql',
      headers: request.body !== undefined ? { 'content-type': request.contentType ?? 'application/json' } : {},
      payload: request.body,
    });
    expect(res.statusCode).toBeLessThan(500);
    const body = res.json<GraphqlBody<unknown> & { message?: string }>();
    const messages = [...(body.errors ?? []).map((e) => e.message), ...(body.message !== undefined ? [body.message] : [])];
    expect(messages.length).toBeGreaterThan(0);
    for (const leak of LEAKS) expect(res.body).not.toContain(leak);
  });
});
