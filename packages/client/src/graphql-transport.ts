/**
 * The GraphQL transport: the same manifest and submit object as REST, through the
 * `svcHeadlessManifest` query and the `svcHeadlessSubmit` mutation, for front ends that speak only
 * GraphQL. CSRF goes in the `csrfToken` argument.
 */
import { SvcClientError } from './client-error.js';
import type { Transport } from './http-transport.js';
import type { Manifest, SubmitResponse } from './manifest-types.js';
import type { CsrfToken, SiteOptions } from './client-types.js';

/**
 * The REST submit body, sent through `svcHeadlessSubmit`.
 *
 * @example
 * const body: GraphqlSubmitBody = { intent: 'submit', values: { email: 'ann@example.test' } };
 */
export interface GraphqlSubmitBody {
  readonly intent: string;
  readonly values?: Readonly<Record<string, unknown>>;
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly context?: Readonly<Record<string, unknown>>;
}

/**
 * `client.graphql`: manifest and submit over GraphQL.
 *
 * @example
 * const { status } = await client.graphql.submit('contact', { intent: 'validate', values: {} });
 */
export interface GraphqlTransport {
  /**
   * The manifest on the client's site or `options.site` (`svcHeadlessManifest(site:)`).
   *
   * @example
   * const manifest = await client.graphql.getManifest('contact', { site: 'de' });
   */
  getManifest(handle: string, options?: SiteOptions): Promise<Manifest>;
  /**
   * A submit on the client's site or `options.site`, sent as `context.site` unless the body's
   * context names one.
   *
   * @example
   * const result = await client.graphql.submit('contact', { intent: 'submit', values: { email: 'a@b.test' } });
   */
  submit(handle: string, body: GraphqlSubmitBody, options?: SiteOptions): Promise<SubmitResponse>;
}

interface GraphqlAnswer<T> {
  readonly data?: T | null;
  readonly errors?: readonly { readonly message: string; readonly extensions?: { readonly code?: string } }[];
}

export function createGraphqlTransport(
  url: string,
  transport: Transport,
  withCsrf: <T>(request: (token: CsrfToken | null) => Promise<T>) => Promise<T>,
  defaultSite?: string,
): GraphqlTransport {
  async function run<T>(query: string, variables: Record<string, unknown>, idempotent: boolean): Promise<T> {
    const { status, body } = await transport.json<GraphqlAnswer<T>>(url, {
      method: 'POST',
      idempotent,
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' },
      body: JSON.stringify({ query, variables }),
      accept: [400, 401, 403, 404, 422, 429],
    });
    const first = body.errors?.[0];
    if (first || !body.data) {
      throw new SvcClientError(first?.extensions?.code ?? 'GRAPHQL_ERROR', first?.message ?? 'The GraphQL request failed.', status, body.errors);
    }
    return body.data;
  }
  return {
    async getManifest(handle, { site = defaultSite } = {}) {
      // Without a site the query is the one sent before sites existed, word for word.
      const data = site
        ? await run<{ svcHeadlessManifest: Manifest }>('query ($h: String!, $s: String) { svcHeadlessManifest(handle: $h, site: $s) }', { h: handle, s: site }, true)
        : await run<{ svcHeadlessManifest: Manifest }>('query ($h: String!) { svcHeadlessManifest(handle: $h) }', { h: handle }, true);
      return data.svcHeadlessManifest;
    },
    async submit(handle, body, { site = defaultSite } = {}) {
      const context = site && body.context?.site === undefined ? { ...body.context, site } : (body.context ?? null);
      const data = await withCsrf((token) =>
        run<{ svcHeadlessSubmit: SubmitResponse }>(
          'mutation ($h: String!, $i: String, $v: SvcJson, $m: SvcJson, $c: SvcJson, $t: String) { svcHeadlessSubmit(handle: $h, intent: $i, values: $v, meta: $m, context: $c, csrfToken: $t) }',
          { h: handle, i: body.intent, v: body.values ?? {}, m: body.meta ?? null, c: context, t: token?.value ?? null },
          false,
        ),
      );
      return data.svcHeadlessSubmit;
    },
  };
}
