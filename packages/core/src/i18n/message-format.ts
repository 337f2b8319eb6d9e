/**
 * The one message catalogue's entry points (DESIGN.md principle 10, issue #34 item 3): a language
 * chosen from a BCP 47 tag, ICU MessageFormat through FormatJS's intl-messageformat (plural
 * categories from Intl.PluralRules, so Arabic gets its six forms), English as the fallback.
 */
import { IntlMessageFormat } from 'intl-messageformat';
import type { ErrorCode } from '../error-catalogue.js';
import { MESSAGES_AR } from './messages-ar.js';
import { MESSAGES_DE } from './messages-de.js';
import { MESSAGES_EN, type MessageCatalogue, type MessageKey } from './messages-en.js';
import { MESSAGES_ES } from './messages-es.js';
import { MESSAGES_FR } from './messages-fr.js';
import { MESSAGES_NL } from './messages-nl.js';

export type { MessageCatalogue, MessageKey } from './messages-en.js';

export const SUPPORTED_LANGUAGES = ['en', 'de', 'fr', 'es', 'nl', 'ar'] as const;
export type SupportedLanguage = (typeof SUPPORTED_LANGUAGES)[number];

export const MESSAGE_CATALOGUES: Readonly<Record<SupportedLanguage, MessageCatalogue>> = {
  en: MESSAGES_EN,
  de: MESSAGES_DE,
  fr: MESSAGES_FR,
  es: MESSAGES_ES,
  nl: MESSAGES_NL,
  ar: MESSAGES_AR,
};

function isSupported(language: string): language is SupportedLanguage {
  return (SUPPORTED_LANGUAGES as readonly string[]).includes(language);
}

/** The tag in canonical case (`de-DE`), or null when it is no BCP 47 tag at all. */
export function canonicalTag(tag: string | null | undefined): string | null {
  if (typeof tag !== 'string' || tag.trim() === '') return null;
  try {
    return Intl.getCanonicalLocales(tag.trim())[0] ?? null;
  } catch {
    return null;
  }
}

/**
 * The supported language that best serves `tag`: its primary language subtag (`de-AT` -> de,
 * `ar-EG` -> ar). Also reads an Accept-Language list (`fr-CH, de;q=0.8`), best weight first.
 * Anything unknown, empty or malformed gets English, the catalogue every key exists in.
 */
export function resolveLanguage(tag: string | null | undefined): SupportedLanguage {
  if (typeof tag !== 'string') return 'en';
  return remembered(resolved, tag, rankLanguage);
}

/**
 * Answers per tag, kept because Intl canonicalisation costs about 100 µs a call on a slow machine
 * and every localized message and email asks it again; tags can come from requests, so the map is
 * bounded (cleared when full) rather than growing with whatever clients send.
 */
const resolved = new Map<string, SupportedLanguage>();
const directions = new Map<string, 'ltr' | 'rtl'>();

function remembered<T>(memo: Map<string, T>, tag: string, compute: (tag: string) => T): T {
  const known = memo.get(tag);
  if (known !== undefined) return known;
  const value = compute(tag);
  if (memo.size >= 512) memo.clear();
  memo.set(tag, value);
  return value;
}

function rankLanguage(tag: string): SupportedLanguage {
  const ranked = tag
    .split(',')
    .map((entry, index) => {
      const [range = '', ...params] = entry.split(';').map((part) => part.trim());
      const q = params.find((param) => param.startsWith('q='));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { range, weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { range } of ranked) {
    const canonical = canonicalTag(range);
    if (canonical === null) continue;
    const language = new Intl.Locale(canonical).language;
    if (isSupported(language)) return language;
  }
  return 'en';
}

const RTL_LANGUAGES = new Set(['ar', 'he', 'iw', 'fa', 'ur', 'ps', 'sd', 'ug', 'yi', 'dv', 'ckb', 'syr']);
const RTL_SCRIPTS = new Set(['Arab', 'Hebr', 'Thaa', 'Syrc', 'Nkoo', 'Adlm', 'Rohg', 'Mand', 'Samr']);

/** Which way text in `tag` runs; an explicit script subtag wins (`az-Arab` is rtl, `ku-Latn` ltr). */
export function textDirection(tag: string | null | undefined): 'ltr' | 'rtl' {
  return typeof tag === 'string' ? remembered(directions, tag, directionOf) : 'ltr';
}

function directionOf(tag: string): 'ltr' | 'rtl' {
  const canonical = canonicalTag(tag.split(',')[0]?.split(';')[0]);
  if (canonical === null) return 'ltr';
  const locale = new Intl.Locale(canonical);
  if (locale.script !== undefined) return RTL_SCRIPTS.has(locale.script) ? 'rtl' : 'ltr';
  return RTL_LANGUAGES.has(locale.language) ? 'rtl' : 'ltr';
}

/** Compiled once per language and key: validation formats on every keystroke and every submit. */
const compiled = new Map<string, IntlMessageFormat>();

function formatterFor(language: SupportedLanguage, key: MessageKey): IntlMessageFormat {
  const cacheKey = `${language}\u0000${key}`;
  let formatter = compiled.get(cacheKey);
  if (formatter === undefined) {
    const own = Object.hasOwn(MESSAGE_CATALOGUES[language], key) ? MESSAGE_CATALOGUES[language][key] : undefined;
    const pattern = own ?? MESSAGES_EN[key];
    // A fallback to English is formatted with English plural rules, which its forms were written for.
    const locale = own === undefined ? 'en' : language;
    // ignoreTag: a `<` in a message is text, not FormatJS rich-text markup.
    formatter = new IntlMessageFormat(pattern, locale, undefined, { ignoreTag: true });
    compiled.set(cacheKey, formatter);
  }
  return formatter;
}

/**
 * One catalogue message in the language that best serves `tag`, placeholders filled from
 * `values` (inserted as given: a value is never parsed as ICU).
 *
 * @example
 * formatMessage('de-DE', 'field.tooManyFiles', { max: 3 }); // 'Laden Sie höchstens 3 Dateien hoch'
 */
export function formatMessage(
  tag: string | null | undefined,
  key: MessageKey,
  values?: Readonly<Record<string, string | number>>,
): string {
  const output = formatterFor(resolveLanguage(tag), key).format(values);
  return Array.isArray(output) ? output.join('') : String(output);
}

/**
 * The people-facing message of an error code in `tag`'s language; English is
 * ERROR_CATALOGUE's own message.
 *
 * @example
 * errorMessage('fr', 'FORM_NOT_FOUND'); // 'Formulaire introuvable.'
 */
export function errorMessage(tag: string | null | undefined, code: ErrorCode): string {
  return formatMessage(tag, `error.${code}`);
}
