/**
 * `createClient`: the entry point of @svc/client. Every REST URL is resolved against `baseUrl`;
 * CSRF tokens are fetched once and attached; manifests are checked for compatibility.
 */
import { SvcClientError } from './client-error.js';
import { CLIENT_VERSION, SCHEMA_MAJOR, compareVersions } from './client-version.js';
import { createTransport } from './http-transport.js';
import type { Manifest } from './manifest-types.js';
import { FormSession } from './form-session.js';
import { ProfileAccess, type ProfileOptions } from './profile-access.js';
import { createGraphqlTransport, type GraphqlTransport } from './graphql-transport.js';
import { siteQuery, type CsrfToken, type SessionClient, type SiteOptions } from './client-types.js';

/**
 * @example
 * const options: ClientOptions = { baseUrl: 'https://forms.example.com', retries: 3 };
 */
export interface ClientOptions {
  /** Where svc runs, e.g. `https://forms.example.com`. */
  readonly baseUrl: string;
  /**
   * A fetch implementation. The default is the global one; outside a browser (no `document`) the
   * client then keeps the service's cookies itself, as a browser would. One passed here is used
   * as it is (bring its own cookie jar).
   */
  readonly fetch?: typeof fetch;
  /** Defaults to `include`, which the CSRF cookie needs across origins. */
  readonly credentials?: RequestCredentials;
  /** GraphQL endpoint; defaults to `/graphql` on `baseUrl`. */
  readonly graphqlUrl?: string;
  /** Retries of idempotent requests after a network failure (default 2). */
  readonly retries?: number;
  /**
   * The site (issue #34) every form is read and submitted on, by its handle in the service's
   * config: its manifest GET carries `?site=<handle>` and every submit `context.site`, so labels
   * and the server's validation messages come in the site's language. A `{ site }` given to one
   * call wins. Unset: the default site, and requests exactly as before sites existed.
   *
   * @example
   * const german = createClient({ baseUrl: 'https://forms.example.com', site: 'de' });
   * const form = await german.session('contact'); // form.manifest.site.language === 'de-DE'
   */
  readonly site?: string;
}

/**
 * @example
 * const client: SvcClient = createClient({ baseUrl: 'https://forms.example.com' });
 */
export interface SvcClient extends SessionClient {
  /**
   * The form's manifest, on the client's site or `options.site`; throws SvcClientError
   * `INCOMPATIBLE_SERVER` when this client is too old, `SITE_NOT_FOUND` for a site not configured.
   */
  getManifest(handle: string, options?: SiteOptions): Promise<Manifest>;
  /**
   * A named profile's manifest with typed properties (`properties[name]=value`); `credentials`
   * adds a signed link's token or the signed-in person's bearer token.
   */
  getProfileManifest(
    profile: string,
    properties?: Readonly<Record<string, string | number | boolean>>,
    credentials?: Pick<ProfileOptions, 'token' | 'auth'>,
  ): Promise<Manifest>;
  /**
   * A session for filling and submitting one form, on the client's site or `options.site`: the
   * manifest is read on that site and every step sends it as `context.site`. A manifest passed in
   * is used as it is; give the site it was read on so the steps are answered in its language.
   *
   * @example
   * const form = await client.session('contact', { site: 'ar' }); // labels and answers in Arabic
   */
  session(handleOrManifest: string | Manifest, options?: SiteOptions): Promise<FormSession>;
  /**
   * A session on a named profile (contract §9): its manifest (locked fields `readOnly`, hidden ones
   * absent), and every step sent to the profile's submit with its properties and credentials.
   * Always on the default site: a profile's routes take no site (the client's `site` is not sent).
   */
  profileSession(profile: string, options?: ProfileOptions): Promise<FormSession>;
  /** The same operations over GraphQL (`svcHeadlessManifest`, `svcHeadlessSubmit`). */
  readonly graphql: GraphqlTransport;
}

/**
 * Throws unless this client can talk to the server that made `manifest`.
 *
 * @example
 * assertCompatible(cachedManifest); // SvcClientError INCOMPATIBLE_SERVER when too old
 */
export function assertCompatible(manifest: Manifest): void {
  const major = Number.parseInt(String(manifest.schemaVersion ?? '').split('.')[0] ?? '', 10);
  if (major !== SCHEMA_MAJOR) {
    throw new SvcClientError('INCOMPATIBLE_SERVER', `This client understands manifest schema ${SCHEMA_MAJOR}.x, not ${manifest.schemaVersion}.`);
  }
  if (manifest.minimumClientVersion && compareVersions(CLIENT_VERSION, manifest.minimumClientVersion) < 0) {
    throw new SvcClientError(
      'INCOMPATIBLE_SERVER',
      `The form service needs @svc/client ${manifest.minimumClientVersion} or newer; this is ${CLIENT_VERSION}.`,
    );
  }
}

/**
 * @example
 * import { createClient } from '@svc/client';
 * const client = createClient({ baseUrl: 'https://forms.example.com' });
 * const form = await client.session('contact');
 * form.setValue('email', 'ann@example.test');
 * const result = await form.submit(); // result.status === 'submitted'
 */
export function createClient(options: ClientOptions): SvcClient {
  const transport = createTransport({
    baseUrl: options.baseUrl,
    fetch: options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args)),
    credentials: options.credentials ?? 'include',
    retries: options.retries ?? 2,
    retryDelayMs: 200,
    keepCookies: options.fetch === undefined && typeof document === 'undefined',
  });
  let token: Promise<CsrfToken | null> | null = null;
  const client: SvcClient = {
    baseUrl: options.baseUrl,
    transport,
    async getManifest(handle, { site = options.site } = {}) {
      const path = `/svc/api/forms/${encodeURIComponent(handle)}/manifest${siteQuery(site)}`;
      const { body } = await transport.json<{ data: Manifest }>(path, { method: 'GET', idempotent: true });
      assertCompatible(body.data);
      return body.data;
    },
    async getProfileManifest(profile, properties = {}, credentials = {}) {
      const access = new ProfileAccess(profile, { ...credentials, properties });
      const { body } = await transport.json<{ data: Manifest }>(access.manifestPath(), { method: 'GET', idempotent: true, headers: await access.headers() });
      assertCompatible(body.data);
      return body.data;
    },
    csrf(refresh = false) {
      if (!token || refresh) {
        token = transport
          .json<{ csrf?: CsrfToken }>('/svc/tokens', { method: 'GET', idempotent: true, headers: { accept: 'application/json' } })
          .then(({ body }) => body.csrf ?? null);
        // A failed fetch is not cached: the next call tries again.
        token.catch(() => {
          token = null;
        });
      }
      return token;
    },
    async session(handleOrManifest, { site = options.site } = {}) {
      const manifest = typeof handleOrManifest === 'string' ? await client.getManifest(handleOrManifest, { site }) : handleOrManifest;
      assertCompatible(manifest);
      return new FormSession(client, manifest, null, site ?? null);
    },
    async profileSession(profile, options = {}) {
      const manifest = await client.getProfileManifest(profile, options.properties, options);
      return new FormSession(client, manifest, new ProfileAccess(profile, options));
    },
    graphql: createGraphqlTransport(options.graphqlUrl ?? '/graphql', transport, (request) => client.withCsrf(request), options.site),
    async withCsrf(request) {
      try {
        return await request(await client.csrf());
      } catch (error) {
        if (!(error instanceof SvcClientError) || error.code !== 'CSRF_INVALID') throw error;
        return request(await client.csrf(true));
      }
    },
  };
  return client;
}
