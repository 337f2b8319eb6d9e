/** GraphQL over HTTP: bearer tokens, CORS, body checks and error shapes at the transport. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { findSubmission } from '../src/submissions/submission-repository.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const TOKEN = 'transport-test-bearer-token-0123456789';
const READER = 'transport-test-reader-token-0123456789';
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('GraphQL over HTTP', () => {
  let svc: TestApp;
  beforeAll(async () => {
    svc = await createTestApp({
      config: {
        forms: { watch: false },
        graphql: {
          tokens: [
            { name: 'writer', sha256: sha(TOKEN), scopes: ['submissions:create', 'forms:read'] },
            { name: 'reader', sha256: sha(READER), scopes: ['forms:contact:read'] },
          ],
        },
      },
    });
  });
  afterAll(async () => {
    await svc?.close();
  });

  const post = (body: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> =>
    svc.app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(body) });

  it('lets a valid bearer token submit without a CSRF token', async () => {
    const honeypot = (await svc.manifest('contact')).security.honeypot?.name;
    const res = await post(
      { query: `mutation { save_contact_Submission(firstName: "Tok", email: "tok@example.test", honeypot: {name: "${honeypot}", value: ""}) { success submissionId } }` },
      { authorization: `Bearer ${TOKEN}` },
    );
    expect(res.json()).toEqual({ data: { save_contact_Submission: { success: true, submissionId: expect.any(Number) } } });
  });

  it('limits a token to its scopes: forms:contact:read sees only contact and cannot submit', async () => {
    const read = await post({ query: '{ svc { forms { handle } } }' }, { authorization: `Bearer ${READER}` });
    expect(read.json()).toEqual({ data: { svc: { forms: [{ handle: 'contact' }] } } });
    const write = await post({ query: 'mutation { save_contact_Submission(firstName: "x") { id } }' }, { authorization: `Bearer ${READER}` });
    expect(write.json().errors[0].extensions.code).toBe('FORM_NOT_FOUND');
  });

  it('refuses an unknown bearer token with 401 AUTH_REQUIRED instead of serving the public', async () => {
    const res = await post({ query: '{ svc { forms { handle } } }' }, { authorization: 'Bearer wrongwrongwrongwrong' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.json().errors).toEqual([expect.objectContaining({ extensions: { code: 'AUTH_REQUIRED' } })]);
    expect(res.json().data ?? null).toBeNull();
  });

  it('answers CORS for an allowed origin and refuses a POST from another one', async () => {
    const allowed = await post({ query: '{ __typename }' }, { origin: 'http://localhost:5173' });
    expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');
    const refused = await post({ query: '{ __typename }' }, { origin: 'https://evil.test' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errors[0].extensions.code).toBe('ORIGIN_NOT_ALLOWED');
    const preflight = await svc.app.inject({
      method: 'OPTIONS',
      url: '/graphql',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, authorization' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toBe('content-type, authorization');
  });

  it.each([
    ['a number query', { query: 42 }],
    ['a list body', [{ query: '{ __typename }' }]],
    ['list variables', { query: '{ __typename }', variables: [1] }],
  ])('refuses %s with 400 PAYLOAD_INVALID', async (_label, body) => {
    const res = await post(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].extensions.code).toBe('PAYLOAD_INVALID');
  });

  it('refuses a mutation over GET with 405, METHOD_NOT_ALLOWED and Allow: POST', async () => {
    const res = await svc.app.inject({ method: 'GET', url: `/graphql?query=${encodeURIComponent('mutation { svcHeadlessSubmit(handle: "contact", intent: "validate") }')}` });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.json().errors[0].extensions.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('keeps path and locations on a refusal raised by a resolver', async () => {
    const res = await post({ query: '{ svc { forms(orderBy: "password") { id } } }' });
    const [error] = res.json().errors;
    expect(error).toMatchObject({ path: ['svc', 'forms'], locations: [expect.any(Object)], extensions: { code: 'PAYLOAD_INVALID' } });
  });

  it('costs forms(limit) at most at the number of forms, as the resolver returns', async () => {
    const res = await post({ query: '{ svc { forms(limit: 1000000) { handle pages { rows { fields { handle } } } } } }' });
    expect(res.json().errors).toBeUndefined();
    expect(res.json().data.svc.forms).toHaveLength(3);
  });

  it('answers svcPayload and dateCreated with exactly what was stored', async () => {
    const { token, cookie } = await svc.csrf();
    const res = await post(
      {
        query: `mutation($t: String!) { save_application_Submission(fullName: "Ann", email: "ann@example.test", applicantType: "individual",
          heardFrom: "search", heardFromOther: "tv", companyName: "Acme", age: 30, agree: true, csrfToken: {name: "SVC_CSRF_TOKEN", value: $t},
          honeypot: {name: "${(await svc.manifest('application')).security.honeypot?.name}", value: ""}) { submissionId svcPayload dateCreated } }`,
        variables: { t: token },
      },
      { cookie },
    );
    const answer = res.json().data.save_application_Submission;
    const stored = await findSubmission(svc.context.database.db, answer.submissionId, svc.context.sealer);
    expect(JSON.parse(answer.svcPayload)).toEqual(stored?.values);
    expect(stored?.values).not.toHaveProperty('companyName');
    expect(stored?.values).not.toHaveProperty('heardFromOther');
    expect(stored?.values).toMatchObject({ age: '30', agree: 'yes' });
    expect(answer.dateCreated).toBe(stored?.createdAt);
  });
});
