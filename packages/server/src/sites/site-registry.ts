/**
 * The configured sites (issue #34) and which one a request is for. A site is what the interface's
 * manifest calls `site` (`id`, `handle`, `language`, `baseUrl`): svc serves every form on every
 * site, each in its site's language. Requests that name no site are for the default one, so the
 * official clients, which never name one, keep reading the manifest they always read.
 */
import { SvcError } from '@svc/core';
import type { Config } from '../config/config-schema.js';

export interface Site {
  /** The manifest's `site.id`: the site's place in `sites`, counted from 1. */
  readonly id: number;
  readonly handle: string;
  /** BCP 47, as configured (de-DE, ar). */
  readonly language: string;
  /** The manifest's `site.baseUrl`: the site's own, else server.publicUrl, else ''. */
  readonly baseUrl: string;
  readonly timezone: string | null;
  readonly isDefault: boolean;
}

export interface SiteRegistry {
  readonly list: readonly Site[];
  readonly defaultSite: Site;
  /** The site a request names; absent or empty is the default, an unknown handle SITE_NOT_FOUND. */
  resolve(handle: string | undefined): Site;
}

/** The one site svc served before sites existed; its manifest block is kept byte for byte. */
function builtInSite(publicUrl: string | null): Site {
  return { id: 1, handle: 'default', language: 'en-US', baseUrl: publicUrl ?? '', timezone: null, isDefault: true };
}

export function createSiteRegistry(config: Pick<Config, 'sites' | 'server'>): SiteRegistry {
  const publicUrl = config.server.publicUrl;
  const list: readonly Site[] = config.sites.length === 0
    ? [builtInSite(publicUrl)]
    : config.sites.map((site, index) => ({
        id: index + 1,
        handle: site.handle,
        language: site.language,
        baseUrl: site.baseUrl ?? publicUrl ?? '',
        timezone: site.timezone,
        isDefault: site.default,
      }));
  const byHandle = new Map(list.map((site) => [site.handle, site]));
  // The config loader refuses a list without exactly one default; the first stands in for tests
  // that build a config without the loader.
  const defaultSite = list.find((site) => site.isDefault) ?? (list[0] as Site);
  return {
    list,
    defaultSite,
    resolve(handle) {
      if (handle === undefined || handle === '') return defaultSite;
      const site = byHandle.get(handle);
      if (!site) throw new SvcError('SITE_NOT_FOUND', `Site "${handle.slice(0, 100)}" not found.`);
      return site;
    },
  };
}

/** `?site=<handle>` of a request's query; a repeated parameter counts by its first value. */
export function siteOfQuery(query: unknown): string | undefined {
  if (query === null || typeof query !== 'object') return undefined;
  const value = (query as Record<string, unknown>).site;
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}
