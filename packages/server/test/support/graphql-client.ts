/** POST a GraphQL request through app.inject, and the response shapes the GraphQL suites read. */
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './test-app.js';

export interface GraphqlError {
  readonly message: string;
  readonly path?: readonly (string | number)[];
  readonly extensions?: Readonly<Record<string, unknown>>;
}

export interface GraphqlBody<T> {
  readonly data?: T | null;
  readonly errors?: readonly GraphqlError[];
}

export interface GraphqlReply<T> {
  readonly res: LightMyRequestResponse;
  readonly body: GraphqlBody<T>;
}

export async function postGraphql<T>(
  svc: TestApp,
  query: string,
  variables?: Record<string, unknown>,
  headers: Record<string, string> = {},
  url = '/graphql',
): Promise<GraphqlReply<T>> {
  const res = await svc.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify({ query, variables }),
  });
  return { res, body: res.json<GraphqlBody<T>>() };
}
