import type { FieldValue } from '../form-model.js';
import { FIELD_MESSAGES, type FieldMessages } from './field-messages.js';
import { normalisedDefault, withDefault, type FieldTypeChecks } from './field-type-spec.js';
import { coerceTextList, parseFlag } from './raw-value-coercion.js';
import { DEFAULT_FILE_COUNT, UPLOAD_ID } from './upload-ids.js';

export const checkboxFieldChecks: FieldTypeChecks<'checkbox'> = {
  type: 'checkbox',
  normalise: (field, raw, messages = FIELD_MESSAGES) => {
    const checkedValue = field.value || '1';
    // The configured value wins over the generic words: a checkbox whose value is "0" means checked.
    if (field.value && (raw === field.value || (typeof raw === 'number' && String(raw) === field.value))) {
      return { ok: true, value: checkedValue };
    }
    const flag = parseFlag(raw);
    if (flag === undefined) return { ok: false, error: messages.invalidCheckbox };
    return { ok: true, value: flag ? checkedValue : null };
  },
  validate: (field, value, _values, messages = FIELD_MESSAGES) => (value === (field.value || '1') ? [] : [messages.invalidCheckbox]),
};
export const checkboxFieldType = /* @__PURE__ */ withDefault(checkboxFieldChecks, (field) =>
  field.checked === true ? field.value || '1' : null,
);

export const mailingListFieldChecks: FieldTypeChecks<'mailingList'> = {
  type: 'mailingList',
  normalise: (field, raw, messages = FIELD_MESSAGES) => {
    // A hidden opt-in is the site owner's decision, not the submitter's: ignore what was sent.
    if (field.hidden === true) return { ok: true, value: true };
    const flag = parseFlag(raw);
    return flag === undefined ? { ok: false, error: messages.invalidOptIn } : { ok: true, value: flag };
  },
  validate: (_field, value, _values, messages = FIELD_MESSAGES) => (typeof value === 'boolean' ? [] : [messages.invalidOptIn]),
};
export const mailingListFieldType = /* @__PURE__ */ withDefault(mailingListFieldChecks, (field) => field.hidden === true);

export const DEFAULT_MAX_RATING = 5;
const RATING_TEXT = /^\d{1,6}$/;

function maxRating(maxValue: number | undefined): number {
  return maxValue ?? DEFAULT_MAX_RATING;
}

/** Ratings are stored as numbers: they are steps on a scale, compared numerically by rules. */
export const ratingFieldChecks: FieldTypeChecks<'rating'> = {
  type: 'rating',
  normalise: (field, raw, messages = FIELD_MESSAGES) => {
    if (raw === undefined || raw === null || raw === '') return { ok: true, value: null };
    const invalid = { ok: false, error: messages.invalidRating(maxRating(field.maxValue)) } as const;
    if (typeof raw === 'number') return Number.isInteger(raw) ? { ok: true, value: raw } : invalid;
    if (typeof raw !== 'string') return invalid;
    const text = raw.trim();
    if (text === '') return { ok: true, value: null };
    return RATING_TEXT.test(text) ? { ok: true, value: Number(text) } : invalid;
  },
  validate: (field, value, _values, messages = FIELD_MESSAGES) => {
    const max = maxRating(field.maxValue);
    return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max
      ? []
      : [messages.invalidRating(max)];
  },
};
export const ratingFieldType = /* @__PURE__ */ withDefault(ratingFieldChecks, (field) =>
  normalisedDefault(ratingFieldChecks, field, field.value, null),
);

const SIGNATURE_PREFIX = 'data:image/png;base64,';
const MAX_SIGNATURE_KIB = 512;
const MAX_SIGNATURE_BYTES = MAX_SIGNATURE_KIB * 1024;
/** The longest data URL that can still decode within the limit; longer text is refused unread. */
const MAX_SIGNATURE_CHARS = SIGNATURE_PREFIX.length + Math.ceil(MAX_SIGNATURE_BYTES / 3) * 4;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function signatureErrors(value: FieldValue, messages: FieldMessages): string[] {
  if (typeof value !== 'string' || !value.startsWith(SIGNATURE_PREFIX)) return [messages.invalidSignature];
  const payload = value.slice(SIGNATURE_PREFIX.length);
  if (payload.length % 4 !== 0 || !BASE64.test(payload)) return [messages.invalidSignature];
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  const bytes = (payload.length / 4) * 3 - padding;
  return bytes > MAX_SIGNATURE_BYTES ? [messages.signatureTooLarge(MAX_SIGNATURE_KIB)] : [];
}

export const signatureFieldChecks: FieldTypeChecks<'signature'> = {
  type: 'signature',
  normalise: (_field, raw, messages = FIELD_MESSAGES) => {
    if (raw === undefined || raw === null || raw === '') return { ok: true, value: null };
    if (typeof raw !== 'string') return { ok: false, error: messages.invalidSignature };
    return raw.length > MAX_SIGNATURE_CHARS
      ? { ok: false, error: messages.signatureTooLarge(MAX_SIGNATURE_KIB) }
      : { ok: true, value: raw };
  },
  validate: (_field, value, _values, messages = FIELD_MESSAGES) => signatureErrors(value, messages),
};
export const signatureFieldType = /* @__PURE__ */ withDefault(signatureFieldChecks, () => null);


export const fileFieldChecks: FieldTypeChecks<'file'> = {
  type: 'file',
  normalise: (_field, raw, messages = FIELD_MESSAGES) => coerceTextList(raw, messages),
  validate: (field, value, _values, messages = FIELD_MESSAGES) => {
    if (!Array.isArray(value)) return [messages.notList];
    const errors: string[] = [];
    if (!value.every((id) => typeof id === 'string' && UPLOAD_ID.test(id))) errors.push(messages.invalidUpload);
    const maxFiles = field.fileCount ?? DEFAULT_FILE_COUNT;
    if (value.length > maxFiles) errors.push(messages.tooManyFiles(maxFiles));
    return errors;
  },
};
export const fileFieldType = /* @__PURE__ */ withDefault(fileFieldChecks, () => []);

export const submitFieldChecks: FieldTypeChecks<'submit'> = {
  type: 'submit',
  normalise: () => ({ ok: true, value: null }),
  validate: () => [],
};
export const submitFieldType = /* @__PURE__ */ withDefault(submitFieldChecks, () => null);
