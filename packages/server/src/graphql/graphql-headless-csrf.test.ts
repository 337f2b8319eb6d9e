import { describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { headlessCsrfToken } from './graphql-headless-csrf.js';
import type { SvcGraphqlContext } from './graphql-context.js';

const contextOf = (request: Record<string, unknown> | undefined) => ({ svc: { request: request as FastifyRequest | undefined } }) as unknown as SvcGraphqlContext;
const post = (variables: unknown, headers: Record<string, string> = {}) => contextOf({ method: 'POST', headers, body: { query: 'mutation { x }', variables } });
const get = (variables: string | undefined, headers: Record<string, string> = {}) => contextOf({ method: 'GET', headers, query: { query: '{ x }', variables } });

describe("svcHeadlessSubmit's CSRF token (contract §11)", () => {
  it('takes the argument first, then the X-CSRF-Token header, then variables.csrfToken', () => {
    const request = post({ csrfToken: 'from-variables' }, { 'x-csrf-token': 'from-header' });
    expect(headlessCsrfToken(request, 'from-argument')).toBe('from-argument');
    expect(headlessCsrfToken(request, null)).toBe('from-header');
    expect(headlessCsrfToken(post({ csrfToken: 'from-variables' }), undefined)).toBe('from-variables');
  });

  it('reads a bare string or a {name, value} object from the variables, by POST body or GET parameter', () => {
    expect(headlessCsrfToken(post({ csrfToken: { name: 'SVC_CSRF_TOKEN', value: 'object' } }), undefined)).toBe('object');
    expect(headlessCsrfToken(get(JSON.stringify({ csrfToken: 'by-get' })), undefined)).toBe('by-get');
    expect(headlessCsrfToken(get(JSON.stringify({ csrfToken: { value: 'by-get-object' } })), undefined)).toBe('by-get-object');
  });

  it('finds nothing in empty, malformed or ill-typed places, so the check refuses the request', () => {
    expect(headlessCsrfToken(post({ csrfToken: '' }, { 'x-csrf-token': '' }), '')).toBeUndefined();
    expect(headlessCsrfToken(post({ csrfToken: 42 }), undefined)).toBeUndefined();
    expect(headlessCsrfToken(post({ csrfToken: { value: ['x'] } }), undefined)).toBeUndefined();
    expect(headlessCsrfToken(post(['csrfToken']), undefined)).toBeUndefined();
    expect(headlessCsrfToken(get('{not json'), undefined)).toBeUndefined();
    expect(headlessCsrfToken(get(undefined), undefined)).toBeUndefined();
    expect(headlessCsrfToken(contextOf(undefined), undefined)).toBeUndefined();
  });
});
