/**
 * The language a classic post is answered in (issue #34 item 4): the site it names, by `?site=`
 * on the form's action (the properties JSON of a site puts it there) or a posted `site` entry.
 * The plain page svc may answer a browser with is worded in that language, with its `lang` and
 * `dir`; a refusal says the catalogue's message in it. English keeps every word as it was.
 */
import { SvcError, errorMessage, formatPageMessage, resolveLanguage, type Form } from '@svc/core';
import { pageLanguage, type PageLanguage } from '../http/page-language.js';
import { siteOfQuery, type Site, type SiteRegistry } from '../sites/site-registry.js';
import { entryValue, type Entries } from './classic-entries.js';

/**
 * The site handle a post names: `?site=` first; else a posted `site` entry, unless the form has a
 * field of that handle (then the entry is that field's answer, not a site).
 */
export function classicSiteHandle(query: unknown, entries: Entries, form: Form | null): string | undefined {
  const fromQuery = siteOfQuery(query);
  if (fromQuery !== undefined) return fromQuery;
  if (form !== null && form.fields.some((field) => field.handle === 'site')) return undefined;
  return entryValue(entries, 'site');
}

/** The language of a known site handle, null for none or an unknown one (never throws: used on refusals). */
export function siteLanguageOf(sites: SiteRegistry, handle: string | undefined): string | null {
  if (handle === undefined || handle === '') return sites.defaultSite.language;
  return sites.list.find((site) => site.handle === handle)?.language ?? null;
}

/** Where a page drawn for `site` posts: `path` itself for the default site, as before sites. */
export function classicActionUrl(path: string, site: Site): string {
  return site.isDefault ? path : `${path}?site=${encodeURIComponent(site.handle)}`;
}

export interface ClassicPageWords {
  readonly done: string;
  readonly refused: string;
  readonly goBack: string;
  readonly language: PageLanguage | null;
}

/** The plain page's words and attributes in `tag`'s language (English when null). */
export function classicPageWords(tag: string | null): ClassicPageWords {
  return {
    done: formatPageMessage(tag, 'page.thankYou'),
    refused: formatPageMessage(tag, 'page.notSent'),
    goBack: formatPageMessage(tag, 'page.goBack'),
    language: pageLanguage(tag),
  };
}

/**
 * A refusal in `tag`'s language: the catalogue's message for its code. English, or no language,
 * keeps the error as thrown, details in its message included; INTERNAL keeps its request id.
 */
export function localizedRefusal(error: SvcError, tag: string | null): SvcError {
  if (tag === null || resolveLanguage(tag) === 'en' || error.code === 'INTERNAL') return error;
  return new SvcError(error.code, errorMessage(tag, error.code), { details: error.details, headers: { ...error.headers } });
}
