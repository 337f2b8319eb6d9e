/**
 * What a session and the GraphQL transport need of a client, below svc-client.ts so neither
 * imports the module that creates them (issue #31 item 15: no import circles).
 */
import type { Transport } from './http-transport.js';

/**
 * @example
 * const token: CsrfToken | null = await client.csrf(); // { name: 'SVC_CSRF_TOKEN', value: '…' }
 */
export interface CsrfToken {
  readonly name: string;
  readonly value: string;
}

/**
 * The part of a client a `FormSession` sends through: its transport and its CSRF token. Every
 * `SvcClient` is one.
 *
 * @example
 * const client: SessionClient = session.client;
 * await client.withCsrf((csrf) => client.transport.json('/svc/tokens', { method: 'GET', idempotent: true }));
 */
export interface SessionClient {
  readonly baseUrl: string;
  readonly transport: Transport;
  /** The CSRF token (cached); null when the service has CSRF off. `refresh` fetches a new one. */
  csrf(refresh?: boolean): Promise<CsrfToken | null>;
  /**
   * Runs `request` with the CSRF token; when the server says it is invalid (an expired cookie),
   * fetches a fresh one and runs it once more. Safe: a CSRF refusal happens before anything is stored.
   */
  withCsrf<T>(request: (token: CsrfToken | null) => Promise<T>): Promise<T>;
}

/**
 * The site (issue #34) a request is made on: its handle as the service's config names it. The site
 * chooses the language of the manifest's labels and of the submit answer's messages; none (or
 * undefined) is the service's default site, and the request is what it was before sites existed.
 *
 * @example
 * const manifest = await client.getManifest('contact', { site: 'de' }); // manifest.site.language === 'de-DE'
 */
export interface SiteOptions {
  readonly site?: string;
}

/** `?site=<handle>` for a manifest URL, or '' when no site is named (the URL stays as it was). */
export function siteQuery(site: string | undefined | null): string {
  return site ? `?site=${encodeURIComponent(site)}` : '';
}
