/** The catalogue's shape in every language, its plurals, and English unchanged (issue #34 item 3). */
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, type ErrorCode } from '../error-catalogue.js';
import { FIELD_MESSAGES, fieldMessages } from '../fields/field-messages.js';
import { errorMessage, formatMessage, MESSAGE_CATALOGUES, resolveLanguage, SUPPORTED_LANGUAGES, textDirection } from './message-format.js';
import { MESSAGES_EN } from './messages-en.js';

// FormatJS's element types (its TYPE enum): argument 1, number 2, date 3, time 4, select 5, plural 6.
interface AstElement {
  readonly type: number;
  readonly value?: string;
  readonly options?: Readonly<Record<string, { readonly value: readonly AstElement[] }>>;
}

/** Every argument a message names, and the plural branches it offers, as `name` and `name:branch`. */
function shapeOf(pattern: string, language: string): { args: Set<string>; plurals: Map<string, Set<string>> } {
  const args = new Set<string>();
  const plurals = new Map<string, Set<string>>();
  const walk = (elements: readonly AstElement[]) => {
    for (const element of elements) {
      if (element.type >= 1 && element.type <= 6 && element.value !== undefined) args.add(element.value);
      if (element.type === 6 && element.value !== undefined) {
        plurals.set(element.value, new Set(Object.keys(element.options ?? {})));
      }
      for (const option of Object.values(element.options ?? {})) walk(option.value);
    }
  };
  walk(new IntlMessageFormat(pattern, language, undefined, { ignoreTag: true }).getAst() as readonly AstElement[]);
  return { args, plurals };
}

const ENGLISH_KEYS = Object.keys(MESSAGES_EN).sort();

describe.each(SUPPORTED_LANGUAGES)('the %s catalogue', (language) => {
  const catalogue = MESSAGE_CATALOGUES[language];
  const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;

  it('has exactly the English keys, none missing and none extra', () => {
    expect(Object.keys(catalogue).sort()).toEqual(ENGLISH_KEYS);
  });

  it.each(ENGLISH_KEYS)('%s parses as ICU with the same placeholders as English and every plural form of the language', (key) => {
    const pattern = catalogue[key as keyof typeof catalogue];
    expect(pattern.trim()).not.toBe('');
    const own = shapeOf(pattern, language);
    const english = shapeOf(MESSAGES_EN[key as keyof typeof MESSAGES_EN], 'en');
    expect([...own.args].sort()).toEqual([...english.args].sort());
    expect([...own.plurals.keys()].sort()).toEqual([...english.plurals.keys()].sort());
    for (const branches of own.plurals.values()) {
      for (const category of categories) expect(branches, `plural form "${category}"`).toContain(category);
    }
  });
});

describe('English stays as it was written before the catalogue', () => {
  it.each([
    [FIELD_MESSAGES.required, 'This field is required'],
    [FIELD_MESSAGES.tooManyItems(1000), 'Choose at most 1000 items'],
    [FIELD_MESSAGES.tooManyItems(1), 'Choose at most 1 item'],
    [FIELD_MESSAGES.textTooLong(100000), 'Must be at most 100000 characters'],
    [FIELD_MESSAGES.textTooLong(1), 'Must be at most 1 character'],
    [FIELD_MESSAGES.phoneFormat('(000) 000-0000'), 'Enter a phone number in the format (000) 000-0000'],
    [FIELD_MESSAGES.tooManyDecimals(0), 'Must have at most 0 decimal places'],
    [FIELD_MESSAGES.tooManyDecimals(1), 'Must have at most 1 decimal place'],
    [FIELD_MESSAGES.belowMin(0.5), 'Must be at least 0.5'],
    [FIELD_MESSAGES.aboveMax(-12), 'Must be at most -12'],
    [FIELD_MESSAGES.tooFewDigits(2), 'Must have at least 2 digits'],
    [FIELD_MESSAGES.invalidRating(5), 'Choose a rating from 1 to 5'],
    [FIELD_MESSAGES.invalidDateTime('DD/MM/YYYY hh:mm AM'), 'Enter a valid date and time in the format DD/MM/YYYY hh:mm AM'],
    [FIELD_MESSAGES.dateBeforeMin('2026-01-01'), 'Must be on or after 2026-01-01'],
    [FIELD_MESSAGES.signatureTooLarge(512), 'The signature must be at most 512 KB'],
    [FIELD_MESSAGES.tooManyFiles(1), 'Upload at most 1 file'],
    [FIELD_MESSAGES.tooManyFiles(3), 'Upload at most 3 files'],
    [FIELD_MESSAGES.tooManyRows(500), 'Must have at most 500 rows'],
    [FIELD_MESSAGES.rowInvalid(2), 'Row 2 must be a list of cells'],
    [FIELD_MESSAGES.cellRequired(1, 'Name {x}'), 'Row 1: Name {x} is required'],
    [FIELD_MESSAGES.cellTooManyFiles(3, "O'Brien's <b>", 1), "Row 3: O'Brien's <b> takes at most 1 file"],
    [FIELD_MESSAGES.cellNotCheckbox(1, 'Done'), 'Row 1: Done must be checked or unchecked'],
  ])('%j', (actual, expected) => {
    expect(actual).toBe(expected);
  });

  it('FIELD_MESSAGES is the object fieldMessages("en") returns', () => {
    expect(fieldMessages('en')).toBe(FIELD_MESSAGES);
    for (let i = 0; i < 150; i += 1) fieldMessages(`en-x-${i}`);
    expect(fieldMessages('en')).toBe(FIELD_MESSAGES);
  });

  it.each(Object.keys(ERROR_CATALOGUE) as ErrorCode[])('error %s keeps the error catalogue\'s message', (code) => {
    expect(errorMessage('en-US', code)).toBe(ERROR_CATALOGUE[code].message);
  });
});

describe('plurals', () => {
  it.each([
    ['en', 0, 'Upload at most 0 files'],
    ['en', 1, 'Upload at most 1 file'],
    ['en', 2, 'Upload at most 2 files'],
    ['de', 1, 'Laden Sie höchstens 1 Datei hoch'],
    ['de', 3, 'Laden Sie höchstens 3 Dateien hoch'],
    ['de-AT', 0, 'Laden Sie höchstens 0 Dateien hoch'],
    ['ar', 0, 'ارفع 0 ملف على الأكثر'],
    ['ar', 1, 'ارفع ملفًا واحدًا على الأكثر'],
    ['ar', 2, 'ارفع ملفين على الأكثر'],
    ['ar', 3, 'ارفع 3 ملفات على الأكثر'],
    ['ar', 10, 'ارفع 10 ملفات على الأكثر'],
    ['ar', 11, 'ارفع 11 ملفًا على الأكثر'],
    ['ar', 99, 'ارفع 99 ملفًا على الأكثر'],
    ['ar', 100, 'ارفع 100 ملف على الأكثر'],
    ['ar-EG', 103, 'ارفع 103 ملفات على الأكثر'],
  ])('%s, %d files', (tag, max, expected) => {
    expect(fieldMessages(tag).tooManyFiles(max)).toBe(expected);
    expect(formatMessage(tag, 'field.tooManyFiles', { max })).toBe(expected);
  });

  it('inserts values as text, never as ICU', () => {
    expect(formatMessage('fr', 'field.cellRequired', { row: 2, column: '{row} # <i>' })).toBe('Ligne 2 : {row} # <i> est obligatoire');
  });
});

describe('languages', () => {
  it.each([
    ['de-DE', 'de'],
    ['DE-at', 'de'],
    ['ar-EG', 'ar'],
    ['nl-BE', 'nl'],
    ['fr-CA', 'fr'],
    ['es-419', 'es'],
    ['en-US', 'en'],
    ['pt-BR', 'en'],
    ['', 'en'],
    [null, 'en'],
    [undefined, 'en'],
    ['not a tag!', 'en'],
    ['pt-BR, nl;q=0.5, de;q=0.8', 'de'],
    ['*;q=0.1, ar;q=0', 'en'],
  ])('resolveLanguage(%j) is %s', (tag, language) => {
    expect(resolveLanguage(tag)).toBe(language);
  });

  it.each([
    ['ar', 'rtl'],
    ['ar-EG', 'rtl'],
    ['he-IL', 'rtl'],
    ['fa', 'rtl'],
    ['ur-PK', 'rtl'],
    ['az-Arab', 'rtl'],
    ['ku-Latn', 'ltr'],
    ['de-DE', 'ltr'],
    ['en', 'ltr'],
    ['', 'ltr'],
    [null, 'ltr'],
  ])('textDirection(%j) is %s', (tag, direction) => {
    expect(textDirection(tag)).toBe(direction);
  });

  it('words a bad email in each language', () => {
    expect(SUPPORTED_LANGUAGES.map((language) => fieldMessages(language).invalidEmail)).toEqual([
      'Enter a valid email address',
      'Geben Sie eine gültige E-Mail-Adresse ein',
      'Saisissez une adresse e-mail valide',
      'Introduzca un correo electrónico válido',
      'Vul een geldig e-mailadres in',
      'أدخل عنوان بريد إلكتروني صالحًا',
    ]);
  });

  it('falls back to English for a language it does not have, and keeps the tag as the locale', () => {
    expect(fieldMessages('pt-BR').required).toBe('This field is required');
    expect(fieldMessages('pt-BR').locale).toBe('pt-BR');
    expect(errorMessage('de-CH', 'FORM_NOT_FOUND')).toBe('Formular nicht gefunden.');
  });
});
