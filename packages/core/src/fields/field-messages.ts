/**
 * Every message a field constraint produces, in one language. Clients show them as they are, so
 * they are plain sentences without internals; English `required` is quoted by contract §4's
 * example. The words live in the catalogue (i18n/messages-*.ts); this is their typed shape.
 */
import { canonicalTag, formatMessage, resolveLanguage } from '../i18n/message-format.js';

function buildFieldMessages(locale: string) {
  const say = formatMessage.bind(null, locale);
  return {
    /** The BCP 47 tag these messages are for; the number and date normalisers read numbers and dates in it. */
    locale,
    required: say('field.required'),
    notText: say('field.notText'),
    notList: say('field.notList'),
    tooManyItems: (max: number) => say('field.tooManyItems', { max }),
    textTooLong: (max: number) => say('field.textTooLong', { max }),
    invalidEmail: say('field.invalidEmail'),
    invalidPhone: say('field.invalidPhone'),
    phoneFormat: (pattern: string) => say('field.phoneFormat', { pattern }),
    patternMismatch: say('field.patternMismatch'),
    mismatch: say('field.mismatch'),
    notNumber: say('field.notNumber'),
    negative: say('field.negative'),
    wholeNumber: say('field.wholeNumber'),
    tooManyDecimals: (max: number) => say('field.tooManyDecimals', { max }),
    belowMin: (min: number) => say('field.belowMin', { min }),
    aboveMax: (max: number) => say('field.aboveMax', { max }),
    tooFewDigits: (min: number) => say('field.tooFewDigits', { min }),
    invalidOption: say('field.invalidOption'),
    chooseOne: say('field.chooseOne'),
    invalidCheckbox: say('field.invalidCheckbox'),
    invalidOptIn: say('field.invalidOptIn'),
    invalidRating: (max: number) => say('field.invalidRating', { max }),
    invalidDate: (format: string) => say('field.invalidDate', { format }),
    invalidTime: (format: string) => say('field.invalidTime', { format }),
    invalidDateTime: (format: string) => say('field.invalidDateTime', { format }),
    dateBeforeMin: (min: string) => say('field.dateBeforeMin', { min }),
    dateAfterMax: (max: string) => say('field.dateAfterMax', { max }),
    invalidSignature: say('field.invalidSignature'),
    signatureTooLarge: (maxKiB: number) => say('field.signatureTooLarge', { max: maxKiB }),
    invalidUpload: say('field.invalidUpload'),
    invalidPayment: say('field.invalidPayment'),
    paymentRequired: say('field.paymentRequired'),
    tooManyFiles: (max: number) => say('field.tooManyFiles', { max }),
    notTable: say('field.notTable'),
    tooManyRows: (max: number) => say('field.tooManyRows', { max }),
    rowInvalid: (row: number) => say('field.rowInvalid', { row }),
    cellRequired: (row: number, column: string) => say('field.cellRequired', { row, column }),
    cellNotText: (row: number, column: string) => say('field.cellNotText', { row, column }),
    cellNotNumber: (row: number, column: string) => say('field.cellNotNumber', { row, column }),
    cellNotCheckbox: (row: number, column: string) => say('field.cellNotCheckbox', { row, column }),
    cellNotFiles: (row: number, column: string) => say('field.cellNotFiles', { row, column }),
    cellTooManyFiles: (row: number, column: string, max: number) => say('field.cellTooManyFiles', { row, column, max }),
    cellInvalidOption: (row: number, column: string) => say('field.cellInvalidOption', { row, column }),
    /** A table column without a label, numbered from 1. */
    column: (number: number) => say('field.column', { number }),
  } as const;
}

export type FieldMessages = ReturnType<typeof buildFieldMessages>;

const byTag = new Map<string, FieldMessages>();
const MAX_CACHED_TAGS = 100;

/**
 * The field messages for `tag` (its best supported language; English for anything unknown),
 * built once per tag. `locale` keeps the tag itself, so `de-CH` reads numbers the Swiss way.
 *
 * @example
 * fieldMessages('de-DE').tooManyFiles(3); // 'Laden Sie höchstens 3 Dateien hoch'
 */
export function fieldMessages(tag: string | null | undefined): FieldMessages {
  const locale = canonicalTag(tag) ?? resolveLanguage(tag);
  let messages = byTag.get(locale);
  if (messages === undefined) {
    // Tags can come from a page's `lang` attribute: bound the cache rather than trust them.
    // English stays: FIELD_MESSAGES must remain the object fieldMessages('en') returns.
    if (byTag.size >= MAX_CACHED_TAGS) {
      const english = byTag.get('en');
      byTag.clear();
      if (english !== undefined) byTag.set('en', english);
    }
    messages = buildFieldMessages(locale);
    byTag.set(locale, messages);
  }
  return messages;
}

/** The English messages: what every caller that names no language gets. */
export const FIELD_MESSAGES: FieldMessages = /* @__PURE__ */ fieldMessages('en');
