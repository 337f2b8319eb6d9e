import type { DatetimeField, FieldValue } from '../form-model.js';
import { datetimeFormatOf, formatDatetimePlaceholder, formatIsoDate, parseDatetime, type DatetimeFormat } from './datetime-format.js';
import { localeVariantOf } from '../i18n/locale-date-format.js';
import { toAsciiDigits } from '../i18n/locale-decimal-format.js';
import { FIELD_MESSAGES, type FieldMessages } from './field-messages.js';
import { normalisedDefault, withDefault, type FieldTypeChecks } from './field-type-spec.js';
import { coerceText, MAX_TEXT_CHARS } from './raw-value-coercion.js';

export { formatDatetimePlaceholder } from './datetime-format.js';

const STORED_SHAPE = {
  date: /^\d{4}-\d{2}-\d{2}$/,
  time: /^\d{2}:\d{2}$/,
  both: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/,
} as const;

function invalidMessage(field: DatetimeField, messages: FieldMessages): string {
  const placeholder = formatDatetimePlaceholder(field);
  const kind = datetimeFormatOf(field).kind;
  if (kind === 'time') return messages.invalidTime(placeholder);
  return kind === 'both' ? messages.invalidDateTime(placeholder) : messages.invalidDate(placeholder);
}

/** Definitions are schema-checked, but a malformed limit is ignored rather than rejecting everyone. */
function isoLimit(limit: string | undefined): string | null {
  return limit !== undefined && STORED_SHAPE.date.test(limit) ? limit : null;
}

function datetimeErrors(field: DatetimeField, value: FieldValue, _values: unknown, messages: FieldMessages = FIELD_MESSAGES): string[] {
  const kind = datetimeFormatOf(field).kind;
  if (typeof value !== 'string' || !STORED_SHAPE[kind].test(value)) return [invalidMessage(field, messages)];
  if (kind === 'time') return [];
  // ISO dates compare correctly as strings, so no Date (and no time zone) is involved.
  const date = value.slice(0, 10);
  const min = isoLimit(field.minDate);
  const max = isoLimit(field.maxDate);
  const errors: string[] = [];
  if (min !== null && date < min) errors.push(messages.dateBeforeMin(formatIsoDate(field, min)));
  if (max !== null && date > max) errors.push(messages.dateAfterMax(formatIsoDate(field, max)));
  return errors;
}

/** The same date as the site's language writes it (digits and separator), when the field's order allows. */
function parseInLocale(format: DatetimeFormat, text: string, locale: string): string | null {
  const variant = localeVariantOf(format, locale);
  const digits = toAsciiDigits(text);
  if (variant !== null) return parseDatetime(variant, digits);
  return digits === text ? null : parseDatetime(format, digits);
}

export const datetimeFieldChecks: FieldTypeChecks<'datetime'> = {
  type: 'datetime',
  normalise: (field, raw, messages = FIELD_MESSAGES) => {
    // Numbers are not a datetime representation; only text is read.
    if (typeof raw !== 'string' && raw !== undefined && raw !== null) {
      return { ok: false, error: invalidMessage(field, messages) };
    }
    const text = coerceText(raw, MAX_TEXT_CHARS, messages);
    if (!text.ok || text.value === null) return text;
    const trimmed = text.value.trim();
    if (trimmed === '') return { ok: true, value: null };
    const format = datetimeFormatOf(field);
    const iso = parseDatetime(format, trimmed) ?? parseInLocale(format, trimmed, messages.locale);
    return iso === null ? { ok: false, error: invalidMessage(field, messages) } : { ok: true, value: iso };
  },
  validate: datetimeErrors,
};
export const datetimeFieldType = /* @__PURE__ */ withDefault(datetimeFieldChecks, (field) =>
  normalisedDefault(datetimeFieldChecks, field, field.value, null),
);
