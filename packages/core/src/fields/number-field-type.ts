import type { FieldValue, NumberField } from '../form-model.js';
import { localeDecimalFormat, toAsciiDigits, type DecimalFormat } from '../i18n/locale-decimal-format.js';
import { FIELD_MESSAGES, type FieldMessages } from './field-messages.js';
import { normalisedDefault, withDefault, type FieldTypeChecks } from './field-type-spec.js';
import { MAX_TEXT_CHARS, type Coerced } from './raw-value-coercion.js';

// Kept below the field types, beside the locale formats that produce it (no import circle).
export type { DecimalFormat };

/** The stored form: what `normalise` produces and what clients may send back unchanged. */
export const CANONICAL_DECIMAL: DecimalFormat = { decimalSeparator: '.', thousandsSeparator: '' };

const CANONICAL_NUMBER = /^(-?)(\d+)(?:\.(\d+))?$/;
const DIGITS = /^\d*$/;
const FIRST_GROUP = /^\d{1,3}$/;
const GROUP = /^\d{3}$/;
const WIDE_SPACES = /[\u00a0\u202f]/g;

function parseWith(text: string, format: DecimalFormat): string | null {
  const decimal = format.decimalSeparator || '.';
  const thousands = format.thousandsSeparator === decimal ? '' : format.thousandsSeparator;
  // Locales that group with spaces type a no-break space as often as a plain one.
  const digits = toAsciiDigits(text);
  const body =
    thousands === ' ' ? digits.replace(WIDE_SPACES, ' ') : thousands === "'" ? digits.replace(/\u2019/g, "'") : digits;
  const negative = body.startsWith('-') || body.startsWith('\u2212');
  const unsigned = negative || body.startsWith('+') ? body.slice(1) : body;
  const at = unsigned.indexOf(decimal);
  const whole = at === -1 ? unsigned : unsigned.slice(0, at);
  const fraction = at === -1 ? '' : unsigned.slice(at + decimal.length);
  if (!DIGITS.test(fraction)) return null;
  let integer = whole;
  if (thousands !== '' && whole.includes(thousands)) {
    // Grouping must be regular, so a canonical "1234.5" is not misread as grouped thousands.
    const groups = whole.split(thousands);
    if (!FIRST_GROUP.test(groups[0] ?? '') || !groups.slice(1).every((group) => GROUP.test(group))) return null;
    integer = groups.join('');
  }
  if (!DIGITS.test(integer) || (integer === '' && fraction === '')) return null;
  const intDigits = integer.replace(/^0+/, '') || '0';
  const fracDigits = fraction.replace(/0+$/, '');
  const zero = intDigits === '0' && fracDigits === '';
  return `${negative && !zero ? '-' : ''}${intDigits}${fracDigits ? `.${fracDigits}` : ''}`;
}

/**
 * A number in the field's display format, in canonical form, or as `messages.locale` writes
 * numbers (German `1.234,5`), as a canonical string: '.' decimal point, no grouping, no leading or
 * trailing zeros. The field's format and the canonical form are tried first, so a stored value
 * always reads back as itself. Exponents, NaN and Infinity are refused because they have no
 * display form a person would type.
 */
export function parseDecimal(
  raw: unknown,
  format: DecimalFormat = CANONICAL_DECIMAL,
  messages: FieldMessages = FIELD_MESSAGES,
): Coerced<string | null> {
  const failure = { ok: false, error: messages.notNumber } as const;
  if (raw === undefined || raw === null || raw === '') return { ok: true, value: null };
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) return failure;
    const value = parseWith(String(raw), CANONICAL_DECIMAL);
    return value === null ? failure : { ok: true, value };
  }
  if (typeof raw !== 'string' || raw.length > MAX_TEXT_CHARS) return failure;
  const text = raw.trim();
  if (text === '') return { ok: true, value: null };
  const value =
    parseWith(text, format) ?? parseWith(text, CANONICAL_DECIMAL) ?? parseWith(text, localeDecimalFormat(messages.locale));
  return value === null ? failure : { ok: true, value };
}

function numberErrors(field: NumberField, value: FieldValue, _values: unknown, messages: FieldMessages = FIELD_MESSAGES): string[] {
  const match = typeof value === 'string' ? CANONICAL_NUMBER.exec(value) : null;
  if (match === null) return [messages.notNumber];
  const [, sign = '', integer = '', fraction = ''] = match;
  const errors: string[] = [];
  if (sign === '-' && field.allowNegative !== true) errors.push(messages.negative);
  if (field.decimalCount === 0 && fraction.length > 0) errors.push(messages.wholeNumber);
  else if (field.decimalCount !== undefined && fraction.length > field.decimalCount) {
    errors.push(messages.tooManyDecimals(field.decimalCount));
  }
  const number = Number(value);
  if (field.minValue !== undefined && number < field.minValue) errors.push(messages.belowMin(field.minValue));
  if (field.maxValue !== undefined && number > field.maxValue) errors.push(messages.aboveMax(field.maxValue));
  if (field.minLength !== undefined && integer.length + fraction.length < field.minLength) {
    errors.push(messages.tooFewDigits(field.minLength));
  }
  return errors;
}

export const numberFieldChecks: FieldTypeChecks<'number'> = {
  type: 'number',
  normalise: (field, raw, messages = FIELD_MESSAGES) =>
    parseDecimal(
      raw,
      { decimalSeparator: field.decimalSeparator || '.', thousandsSeparator: field.thousandsSeparator ?? '' },
      messages,
    ),
  validate: numberErrors,
};
export const numberFieldType = /* @__PURE__ */ withDefault(numberFieldChecks, (field) =>
  normalisedDefault(numberFieldChecks, field, field.value, null),
);
