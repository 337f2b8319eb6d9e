/**
 * The language a demo page speaks (issue #34 items 4-5): the site its `?site=` names, the demo's own
 * words from the pages' catalogue in that language, `<html lang dir>` from the site (right to left
 * for Arabic), and the query that keeps the site on every link. An English site draws the demo
 * as it always was.
 */
import { formatMessage, formatPageMessage, type MessageKey, type PageMessageKey } from '@svc/core';
import { escapeHtml } from '../http/html-page.js';
import { pageLanguage, type PageLanguage } from '../http/page-language.js';
import type { Site } from '../sites/site-registry.js';

export interface DemoLanguage {
  /** The site's language tag; null when the demo names no site (English). */
  readonly tag: string | null;
  /** `lang` and `dir` of the page; null for English (`lang="en"`). */
  readonly page: PageLanguage | null;
  /** The handle of a site other than the default, which links and `<svc-form site>` carry. */
  readonly site: string | null;
  /** `?site=<handle>` for a link to another demo page, '' on the default site. */
  readonly query: string;
  /** A demo word as plain text (escape it where it goes into HTML). */
  text(key: PageMessageKey, values?: Readonly<Record<string, string | number>>): string;
  /** A demo sentence as HTML: the words escaped, each `{name}` of `markup` put in as the markup given. */
  html(key: PageMessageKey, markup?: Readonly<Record<string, string>>): string;
  /** A word the element says too (Submit, Choose…), from the main catalogue. */
  element(key: MessageKey, values?: Readonly<Record<string, string | number>>): string;
}

/** Stands for a markup placeholder while the words around it are escaped; no message contains it. */
const MARK = '\u0001';

/**
 * @example
 * const language = demoLanguage(sites.resolve('ar'));
 * language.text('demo.allForms'); // 'كل نماذج العرض'
 * language.query; // '?site=ar'
 */
export function demoLanguage(site: Site | null): DemoLanguage {
  const tag = site?.language ?? null;
  const handle = site === null || site.isDefault ? null : site.handle;
  return {
    tag,
    page: pageLanguage(tag),
    site: handle,
    query: handle === null ? '' : `?site=${encodeURIComponent(handle)}`,
    text: (key, values) => formatPageMessage(tag, key, values),
    html(key, markup = {}) {
      const marked = Object.fromEntries(Object.keys(markup).map((name) => [name, `${MARK}${name}${MARK}`]));
      const escaped = escapeHtml(formatPageMessage(tag, key, marked));
      return escaped.replace(new RegExp(`${MARK}([^${MARK}]*)${MARK}`, 'g'), (_whole, name: string) => markup[name] ?? '');
    },
    element: (key, values) => formatMessage(tag, key, values),
  };
}

/** The demo in English, as on the default site. */
export const ENGLISH_DEMO: DemoLanguage = demoLanguage(null);
