/**
 * The `lang` and `dir` of a page svc draws itself (issue #34 item 4), from the language of the
 * site it is drawn for. English keeps the pages exactly as they were before sites (`lang="en"`,
 * no `dir`), so a deployment with one English site sees no byte change.
 */
import { resolveLanguage, textDirection } from '@svc/core';

export interface PageLanguage {
  /** The site's BCP 47 tag, as configured (de-DE, ar). */
  readonly lang: string;
  readonly dir: 'ltr' | 'rtl';
}

/**
 * @example
 * pageLanguage('ar'); // { lang: 'ar', dir: 'rtl' }
 * pageLanguage('en-US'); // null: the English page as it always was
 */
export function pageLanguage(tag: string | null | undefined): PageLanguage | null {
  if (typeof tag !== 'string' || resolveLanguage(tag) === 'en') return null;
  return { lang: tag, dir: textDirection(tag) };
}

/** The attributes of `<html>`: `lang="en"` for English, else the site's tag and direction. */
export function htmlLanguageAttributes(language: PageLanguage | null, escape: (text: string) => string): string {
  return language === null ? 'lang="en"' : `lang="${escape(language.lang)}" dir="${language.dir}"`;
}
