import { describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { assertGraphqlRequest } from './graphql-request-checks.js';

const post = (query: string, operationName?: string) => ({ method: 'POST', body: { query, operationName } }) as unknown as FastifyRequest;
const get = (query: string) => ({ method: 'GET', query: { query } }) as unknown as FastifyRequest;

/** The fingerprint reads the length and the characters at length*k/9, k = 1..8. */
function sampled(length: number): Set<number> {
  return new Set(Array.from({ length: 8 }, (_, i) => Math.floor((length * (i + 1)) / 9)));
}

describe('GraphQL request checks and the remembered documents', () => {
  it('answers a repeated document with the same text and refuses a deeper one that shares its fingerprint', () => {
    const good = `query A { svc { form(handle: "contact") { name } } }${' '.repeat(60)}`;
    const request = post(good);
    assertGraphqlRequest(request, 5);
    const again = post(`${good}`);
    assertGraphqlRequest(again, 5);
    expect((again.body as { query: string }).query).toBe(good);

    // Same length and the same characters at every sampled position, nested far deeper between them.
    const skip = sampled(good.length);
    const deep = [...good].map((c, i) => (skip.has(i) || i < 9 ? c : i < 40 ? '{' : c === '{' || c === '}' ? ' ' : c)).join('');
    expect(deep.length).toBe(good.length);
    expect(() => assertGraphqlRequest(post(deep), 5)).toThrow(expect.objectContaining({ code: 'QUERY_TOO_DEEP' }));
  });

  it('checks every document it has not seen, by GET as by POST', () => {
    expect(() => assertGraphqlRequest(get(`{ ${'a { '.repeat(40)}b${' }'.repeat(40)} }`), 5)).toThrow(expect.objectContaining({ code: 'QUERY_TOO_DEEP' }));
    const request = get('{ svc { forms { name } } }');
    assertGraphqlRequest(request, 5);
    expect((request.query as { query: string }).query).toBe('{ svc { forms { name } } }');
  });

  it('checks an operationName against the document every time, remembered or not', () => {
    const document = 'query One { svc { forms { name } } }';
    assertGraphqlRequest(post(document), 5);
    expect(() => assertGraphqlRequest(post(document, 'Two'), 5)).toThrow(expect.objectContaining({ code: 'PAYLOAD_INVALID' }));
    assertGraphqlRequest(post(document, 'One'), 5);
  });

  it('still refuses a document after many others pushed it out of memory', () => {
    for (let i = 0; i < 1_200; i += 1) assertGraphqlRequest(post(`{ svc { form(handle: "f${i}") { name } } }`), 5);
    expect(() => assertGraphqlRequest(post('{"query": "{ svc { forms { name } } }"}'), 5)).toThrow(expect.objectContaining({ code: 'PAYLOAD_INVALID' }));
  });
});
