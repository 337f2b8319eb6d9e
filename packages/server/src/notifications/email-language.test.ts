import { describe, expect, it } from 'vitest';
import { booleanWord, emailWords, fileWords, markHtmlLanguage } from './email-language.js';
import { pickVariant } from './email-template-files.js';

describe('markHtmlLanguage', () => {
  it.each([
    ['a fragment is wrapped in one div', '<p>Hi</p>', 'de-DE', '<div lang="de-DE" dir="ltr">\n<p>Hi</p>\n</div>'],
    ['Arabic runs right to left', '<p>مرحبًا</p>', 'ar', '<div lang="ar" dir="rtl">\n<p>مرحبًا</p>\n</div>'],
    ['a template writing <html> gets the attributes there', '<!doctype html><html><body>x</body></html>', 'ar', '<!doctype html><html lang="ar" dir="rtl"><body>x</body></html>'],
    ['<body> when there is no <html>', '<body class="m">x</body>', 'fr-FR', '<body lang="fr-FR" dir="ltr" class="m">x</body>'],
    ['a template that names its own lang keeps it', '<html lang="en"><body>x</body></html>', 'de', '<html lang="en"><body>x</body></html>'],
    ['an empty part (text-only mail) stays empty', '', 'ar', ''],
  ])('%s', (_what, html, language, expected) => {
    expect(markHtmlLanguage(html, language)).toBe(expected);
  });
});

describe('the built-in words', () => {
  it('come from the catalogue in the language, English for one it lacks', () => {
    expect(emailWords('de-DE', 'Kontakt', '')).toEqual({ subject: 'Neue Einsendung: Kontakt', files: 'Dateien:', download: 'herunterladen' });
    expect(emailWords('en-US', 'Contact', 'Ann Lee').subject).toBe('New submission: Contact (Ann Lee)');
    expect(emailWords('ja', 'Contact', '').subject).toBe('New submission: Contact');
    expect(booleanWord('nl', true)).toBe('Ja');
    expect(booleanWord('ar', false)).toBe('لا');
  });

  it('count bytes with plurals and leave the digits as written', () => {
    expect(fileWords('en', 'a.pdf', 1)).toEqual({ sizeText: '1 byte', caption: 'File: a.pdf (1 byte)' });
    expect(fileWords('en', 'a.pdf', 12345).sizeText).toBe('12345 bytes');
    expect(fileWords('ar', 'a.pdf', 2).sizeText).toBe('بايتان');
  });
});

describe('pickVariant', () => {
  it('picks the exact tag, else a shorter one, else none (the template\'s own files)', () => {
    expect(pickVariant(['de', 'de-CH', 'ar'], 'de-CH')).toBe('de-CH');
    expect(pickVariant(['de', 'de-CH', 'ar'], 'de-AT')).toBe('de');
    expect(pickVariant(['DE'], 'de-de')).toBe('DE');
    expect(pickVariant(['de', 'ar'], 'fr-FR')).toBeNull();
    expect(pickVariant([], 'de')).toBeNull();
  });
});
