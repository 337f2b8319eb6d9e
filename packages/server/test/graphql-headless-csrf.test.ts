/**
 * svcHeadlessSubmit's CSRF token over HTTP (contract §11): from its `csrfToken` argument, else the
 * `X-CSRF-Token` header, else `variables.csrfToken` of the body, always checked against the cookie
 * that binds it. The official demo adapter's exact request is in official-client-graphql.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countSubmissions } from '../src/submissions/submission-repository.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { postGraphql } from './support/graphql-client.js';

const UNDECLARED = 'mutation ($values: SvcJson, $meta: SvcJson) { svcHeadlessSubmit(handle: "contact", values: $values, meta: $meta) }';
const DECLARED = 'mutation ($values: SvcJson, $meta: SvcJson, $csrf: String) { svcHeadlessSubmit(handle: "contact", values: $values, meta: $meta, csrfToken: $csrf) }';
const VALUES = { firstName: 'Hea', email: 'hea@example.test' };

describe('svcHeadlessSubmit CSRF sources', () => {
  let svc: TestApp;
  beforeAll(async () => {
    svc = await createTestApp();
  });
  afterAll(async () => {
    await svc?.close();
  });

  const count = () => countSubmissions(svc.context.database.db, svc.context.forms.get('contact')!.id);
  const codes = (body: { errors?: readonly { extensions?: Readonly<Record<string, unknown>> }[] }) => body.errors?.map((e) => e.extensions?.code);

  it('accepts the token from the X-CSRF-Token header when neither the argument nor the variables carry one', async () => {
    const { token, cookie } = await svc.csrf();
    const meta = await svc.meta('contact');
    const { body } = await postGraphql<{ svcHeadlessSubmit: { status: string } }>(svc, UNDECLARED, { values: VALUES, meta }, { cookie, 'x-csrf-token': token });
    expect(body.errors).toBeUndefined();
    expect(body.data?.svcHeadlessSubmit.status).toBe('submitted');
  });

  it('checks the header token against its cookie: another browser, or none, is CSRF_INVALID and stores nothing', async () => {
    const mine = await svc.csrf();
    const other = await svc.csrf();
    const meta = await svc.meta('contact');
    const before = await count();
    const foreign = await postGraphql(svc, UNDECLARED, { values: VALUES, meta }, { cookie: other.cookie, 'x-csrf-token': mine.token });
    expect(codes(foreign.body)).toEqual(['CSRF_INVALID']);
    const uncookied = await postGraphql(svc, UNDECLARED, { values: VALUES, meta }, { 'x-csrf-token': mine.token });
    expect(codes(uncookied.body)).toEqual(['CSRF_INVALID']);
    expect(await count()).toBe(before);
  });

  it('takes the argument before the header and the variables: a bad argument is refused whatever they carry', async () => {
    const { token, cookie } = await svc.csrf();
    const meta = await svc.meta('contact');
    const before = await count();
    const { body } = await postGraphql(svc, DECLARED, { values: VALUES, meta, csrf: 'forged', csrfToken: token }, { cookie, 'x-csrf-token': token });
    expect(codes(body)).toEqual(['CSRF_INVALID']);
    expect(await count()).toBe(before);
  });
});
