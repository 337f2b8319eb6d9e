/**
 * The pages' catalogue (page-messages-en.ts) formatted as the main one is: the language that best
 * serves a site's tag (resolveLanguage), ICU through intl-messageformat, English for a language
 * without the key. A formatter of its own rather than an entry in MESSAGE_CATALOGUES so that
 * `<svc-form>`, which imports formatMessage, does not carry the server's page words.
 */
import { IntlMessageFormat } from 'intl-messageformat';
import { resolveLanguage, type SupportedLanguage } from './message-format.js';
import { PAGE_MESSAGES_AR } from './page-messages-ar.js';
import { PAGE_MESSAGES_DE } from './page-messages-de.js';
import { PAGE_MESSAGES_EN, type PageMessageCatalogue, type PageMessageKey } from './page-messages-en.js';
import { PAGE_MESSAGES_ES } from './page-messages-es.js';
import { PAGE_MESSAGES_FR } from './page-messages-fr.js';
import { PAGE_MESSAGES_NL } from './page-messages-nl.js';

export type { PageMessageCatalogue, PageMessageKey } from './page-messages-en.js';

export const PAGE_MESSAGE_CATALOGUES: Readonly<Record<SupportedLanguage, PageMessageCatalogue>> = {
  en: PAGE_MESSAGES_EN,
  de: PAGE_MESSAGES_DE,
  fr: PAGE_MESSAGES_FR,
  es: PAGE_MESSAGES_ES,
  nl: PAGE_MESSAGES_NL,
  ar: PAGE_MESSAGES_AR,
};

const compiled = new Map<string, IntlMessageFormat>();

/**
 * One page message in the language that best serves `tag`, placeholders filled from `values`.
 *
 * @example
 * formatPageMessage('de-DE', 'page.notSent'); // 'Das Formular wurde nicht gesendet'
 */
export function formatPageMessage(tag: string | null | undefined, key: PageMessageKey, values?: Readonly<Record<string, string | number>>): string {
  const language = resolveLanguage(tag);
  const cacheKey = `${language}\u0000${key}`;
  let formatter = compiled.get(cacheKey);
  if (formatter === undefined) {
    const own = Object.hasOwn(PAGE_MESSAGE_CATALOGUES[language], key) ? PAGE_MESSAGE_CATALOGUES[language][key] : undefined;
    // ignoreTag: a `<` in a message is text, not FormatJS rich-text markup.
    formatter = new IntlMessageFormat(own ?? PAGE_MESSAGES_EN[key], own === undefined ? 'en' : language, undefined, { ignoreTag: true });
    compiled.set(cacheKey, formatter);
  }
  const output = formatter.format(values);
  return Array.isArray(output) ? output.join('') : String(output);
}
