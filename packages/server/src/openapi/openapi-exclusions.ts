/**
 * What the OpenAPI document leaves out (issue #16), and so what the strict drift check leaves
 * alone: pages for people (console, demo, this reference page), GraphQL (its schema is published
 * as SDL: `svc graphql schema`) and CORS preflights, which a browser sends, not a client.
 */
import { GRAPHQL_PATH } from '../graphql/graphql-routes.js';

export const OPENAPI_PATH = '/svc/api/openapi.json';
export const DOCS_PATH = '/svc/api/docs';

const PAGE_PREFIXES = ['/svc/console', '/demo', DOCS_PATH] as const;

/** `configured`: page prefixes the config chooses (the hosted pages' `hosted.prefix`, issue #36). */
export function isExcludedRoute(method: string | readonly string[], url: string, configured: readonly string[] = []): boolean {
  if ([method].flat().every((m) => m === 'OPTIONS')) return true;
  if (url === GRAPHQL_PATH) return true;
  return [...PAGE_PREFIXES, ...configured].some((prefix) => url === prefix || url.startsWith(`${prefix}/`));
}
