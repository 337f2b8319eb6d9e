/**
 * The language an email is written in (issue #34 item 4, DESIGN principle 10): the language of the
 * site the submission was made on. svc's own words in its built-in layout (the subject, "Files:",
 * a file's size, yes and no) come from the @svc/core catalogue in that language, and the html part
 * says which language it is in (`lang`, and `dir="rtl"` for Arabic), so mail clients and screen
 * readers read it right.
 */
import { formatMessage, textDirection } from '@svc/core';
import { escapeHtml } from '../http/html-page.js';

/** svc's own words for one email, formatted in its language; templates read them as `words`. */
export interface EmailWords {
  /** The built-in subject: "New submission: <form>" (and the submission's title when it has one). */
  readonly subject: string;
  readonly files: string;
  readonly download: string;
}

/** What does not change from one email to the next in a language. */
interface FixedWords {
  readonly files: string;
  readonly download: string;
  readonly yes: string;
  readonly no: string;
  readonly dir: 'ltr' | 'rtl';
}

/**
 * Per language tag, formatted once: resolving a tag (Intl's canonicalisation) cost about 100 µs a
 * call on the shared test machine, more than the rest of an email's words. The tags are the
 * configured sites' (and those of jobs queued before a config change), so the map stays small; it
 * is emptied should it ever grow past any real config.
 */
const FIXED = new Map<string, FixedWords>();

function fixedWords(language: string): FixedWords {
  let words = FIXED.get(language);
  if (words === undefined) {
    if (FIXED.size >= 64) FIXED.clear();
    words = {
      files: formatMessage(language, 'email.files'),
      download: formatMessage(language, 'email.download'),
      yes: formatMessage(language, 'email.yes'),
      no: formatMessage(language, 'email.no'),
      dir: textDirection(language),
    };
    FIXED.set(language, words);
  }
  return words;
}

/** Which way the language runs, for templates' `{{ dir }}`. */
export function emailDirection(language: string): 'ltr' | 'rtl' {
  return fixedWords(language).dir;
}

export function emailWords(language: string, formName: string, title: string): EmailWords {
  const { files, download } = fixedWords(language);
  return {
    subject: title === '' ? formatMessage(language, 'email.subject', { form: formName }) : formatMessage(language, 'email.subjectTitled', { form: formName, title }),
    files,
    download,
  };
}

/** A file's size for people ("12 bytes", "12 Byte") and its line in the text part ("File: a.pdf (12 bytes)"). */
export function fileWords(language: string, name: string, size: number): { readonly sizeText: string; readonly caption: string } {
  const sizeText = formatMessage(language, 'email.fileSize', { size });
  return { sizeText, caption: formatMessage(language, 'email.fileLine', { name, size: sizeText }) };
}

/** A yes/no value as the language writes it. */
export function booleanWord(language: string, value: boolean): string {
  const { yes, no } = fixedWords(language);
  return value ? yes : no;
}

const HTML_TAG = /<html\b[^>]*>/i;
const BODY_TAG = /<body\b[^>]*>/i;

/**
 * The html part marked with its language: a template that writes its own `<html>` (or `<body>`)
 * gets `lang` and `dir` on it unless it names a `lang` itself; a fragment (svc's built-in layout,
 * most templates) is wrapped in one `<div lang dir>`. An empty part stays empty (text-only mail).
 */
export function markHtmlLanguage(html: string, language: string): string {
  if (html === '') return html;
  const attributes = `lang="${escapeHtml(language)}" dir="${emailDirection(language)}"`;
  for (const pattern of [HTML_TAG, BODY_TAG]) {
    const match = pattern.exec(html);
    if (!match) continue;
    if (/\slang\s*=/i.test(match[0])) return html;
    const open = match[0].replace(/^<(html|body)\b/i, (tag) => `${tag} ${attributes}`);
    return html.slice(0, match.index) + open + html.slice(match.index + match[0].length);
  }
  return `<div ${attributes}>\n${html}\n</div>`;
}
