import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
import type { FieldValue, TextareaField, TextField, Values } from '../form-model.js';
import { FIELD_MESSAGES, type FieldMessages } from './field-messages.js';
import { withDefault, type FieldTypeChecks } from './field-type-spec.js';
import { coerceText, countCodePoints, MAX_TEXT_CHARS } from './raw-value-coercion.js';

/** Validators receive FieldValue; anything but a string here means a caller skipped normalise. */
function textOf(value: FieldValue): string | null {
  return typeof value === 'string' ? value : null;
}

function maxLengthErrors(text: string, maxLength: number | undefined, messages: FieldMessages): string[] {
  return maxLength !== undefined && countCodePoints(text) > maxLength ? [messages.textTooLong(maxLength)] : [];
}

const plainText = {
  normalise: (_field: unknown, raw: unknown, messages: FieldMessages = FIELD_MESSAGES) =>
    coerceText(raw, MAX_TEXT_CHARS, messages),
  validate: (field: TextField | TextareaField, value: FieldValue, _values: Values, messages: FieldMessages = FIELD_MESSAGES) => {
    const text = textOf(value);
    return text === null ? [messages.notText] : maxLengthErrors(text, field.maxLength, messages);
  },
};
/** The default of the types whose definition may give one `value`. */
const valueDefault = (field: { readonly value?: string }) => field.value || null;

export const textFieldChecks: FieldTypeChecks<'text'> = { type: 'text', ...plainText };
export const textFieldType = /* @__PURE__ */ withDefault(textFieldChecks, valueDefault);
export const textareaFieldChecks: FieldTypeChecks<'textarea'> = { type: 'textarea', ...plainText };
export const textareaFieldType = /* @__PURE__ */ withDefault(textareaFieldChecks, valueDefault);

export const hiddenFieldChecks: FieldTypeChecks<'hidden'> = {
  type: 'hidden',
  normalise: (_field, raw, messages = FIELD_MESSAGES) => coerceText(raw, MAX_TEXT_CHARS, messages),
  validate: (_field, value, _values, messages = FIELD_MESSAGES) => (textOf(value) === null ? [messages.notText] : []),
};
export const hiddenFieldType = /* @__PURE__ */ withDefault(hiddenFieldChecks, valueDefault);

/** WHATWG input[type=email]: what browsers accept, so server and client never disagree. */
const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
/** RFC 5321 path limit; longer addresses cannot be delivered to. */
const EMAIL_MAX_CHARS = 254;

export const emailFieldChecks: FieldTypeChecks<'email'> = {
  type: 'email',
  normalise: (_field, raw, messages = FIELD_MESSAGES) => {
    const text = coerceText(raw, MAX_TEXT_CHARS, messages);
    if (!text.ok || text.value === null) return text;
    const trimmed = text.value.trim();
    return { ok: true, value: trimmed === '' ? null : trimmed };
  },
  validate: (field, value, _values, messages = FIELD_MESSAGES) => {
    const text = textOf(value);
    if (text === null) return [messages.notText];
    const errors = maxLengthErrors(text, field.maxLength, messages);
    if (text.length > EMAIL_MAX_CHARS || !EMAIL_PATTERN.test(text)) errors.unshift(messages.invalidEmail);
    return errors;
  },
};
export const emailFieldType = /* @__PURE__ */ withDefault(emailFieldChecks, () => null);

/** What people type in a phone number: digits, one leading `+`, and the usual separators. */
const PHONE_CHARACTERS = /^\+?[0-9 ().\-/]+$/;
const FALLBACK_COUNTRY = 'US';
const DIGIT = /^[0-9]$/;

/** interface.md §2.6 phone pattern: `0` is any digit, every other character is literal. */
function matchesPhonePattern(text: string, pattern: string): boolean {
  const want = [...pattern];
  const got = [...text];
  return (
    want.length === got.length &&
    want.every((char, i) => (char === '0' ? DIGIT.test(got[i] ?? '') : char === got[i]))
  );
}

/**
 * The number in E.164 (`+15551234567`), or null when `text` is not one. The country of a number
 * typed without `+` is the field's `defaultCountry` (US unless the form says otherwise). Possible
 * rather than valid: the small `min` metadata (kept small for the browser bundle) knows each
 * country's lengths, not its every number range, and people test with 555 numbers.
 */
export function canonicalPhoneNumber(text: string, defaultCountry: string | undefined): string | null {
  const trimmed = text.trim();
  if (!PHONE_CHARACTERS.test(trimmed)) return null;
  const country = defaultCountry && isSupportedCountry(defaultCountry) ? defaultCountry : FALLBACK_COUNTRY;
  const parsed = parsePhoneNumberFromString(trimmed, country as CountryCode);
  return parsed?.isPossible() ? parsed.number : null;
}

export const phoneFieldChecks: FieldTypeChecks<'phone'> = {
  type: 'phone',
  // Without a `pattern`, what was typed is stored as its one canonical form (E.164), so the same
  // number written two ways is one value; text that is no number stays as typed for validate.
  normalise: (field, raw, messages = FIELD_MESSAGES) => {
    const text = coerceText(raw, MAX_TEXT_CHARS, messages);
    if (!text.ok || text.value === null || field.pattern) return text;
    if (text.value.trim() === '') return { ok: true, value: null };
    return { ok: true, value: canonicalPhoneNumber(text.value, field.defaultCountry) ?? text.value };
  },
  validate: (field, value, _values, messages = FIELD_MESSAGES) => {
    const text = textOf(value);
    if (text === null) return [messages.notText];
    if (field.pattern) {
      return matchesPhonePattern(text, field.pattern) ? [] : [messages.phoneFormat(field.pattern)];
    }
    return canonicalPhoneNumber(text, field.defaultCountry) === null ? [messages.invalidPhone] : [];
  },
};
export const phoneFieldType = /* @__PURE__ */ withDefault(phoneFieldChecks, valueDefault);

/** Validation runs on every keystroke in clients and every submit on the server: compile once. */
const compiledPatterns = new Map<string, RegExp | null>();
const MAX_CACHED_PATTERNS = 500;

export function compileFieldPattern(pattern: string): RegExp | null {
  const cached = compiledPatterns.get(pattern);
  if (cached !== undefined) return cached;
  let compiled: RegExp | null;
  try {
    compiled = new RegExp(pattern, 'u');
  } catch {
    compiled = null;
  }
  if (compiledPatterns.size >= MAX_CACHED_PATTERNS) compiledPatterns.clear();
  compiledPatterns.set(pattern, compiled);
  return compiled;
}

export const regexFieldChecks: FieldTypeChecks<'regex'> = {
  type: 'regex',
  normalise: (_field, raw, messages = FIELD_MESSAGES) => coerceText(raw, MAX_TEXT_CHARS, messages),
  validate: (field, value, _values, messages = FIELD_MESSAGES) => {
    const text = textOf(value);
    if (text === null) return [messages.notText];
    // An uncompilable pattern fails closed: accepting everything would silently drop the constraint.
    const pattern = compileFieldPattern(field.pattern);
    return pattern !== null && pattern.test(text) ? [] : [field.message ?? messages.patternMismatch];
  },
};
export const regexFieldType = /* @__PURE__ */ withDefault(regexFieldChecks, valueDefault);

/** The target's value as the confirmation compares it; own properties only, handles are user data. */
export function confirmationTargetText(target: string, values: Values): string {
  const targetValue = Object.hasOwn(values, target) ? values[target] : undefined;
  return String(targetValue ?? '');
}

export const confirmationFieldChecks: FieldTypeChecks<'confirmation'> = {
  type: 'confirmation',
  normalise: (_field, raw, messages = FIELD_MESSAGES) => coerceText(raw, MAX_TEXT_CHARS, messages),
  validate: (field, value, values, messages = FIELD_MESSAGES) =>
    textOf(value) === confirmationTargetText(field.target, values) ? [] : [messages.mismatch],
};
export const confirmationFieldType = /* @__PURE__ */ withDefault(confirmationFieldChecks, () => null);
