/**
 * The field-type registry (DESIGN.md principle 1): one normaliser and validator per field type,
 * shared by the server's submit pipeline and the browser client so both report the same errors.
 */
import type { FieldDefinition, FieldType, FieldValue, Values } from './form-model.js';
import {
  checkboxGroupFieldChecks,
  checkboxGroupFieldType,
  dynamicRecipientsFieldChecks,
  dynamicRecipientsFieldType,
  multipleSelectFieldChecks,
  multipleSelectFieldType,
  opinionScaleFieldChecks,
  opinionScaleFieldType,
  radioGroupFieldChecks,
  radioGroupFieldType,
  selectFieldChecks,
  selectFieldType,
} from './fields/choice-field-types.js';
import { datetimeFieldChecks, datetimeFieldType } from './fields/datetime-field-type.js';
import { isEmptyValue } from './fields/empty-value-check.js';
import { FIELD_MESSAGES, type FieldMessages } from './fields/field-messages.js';
import type { FieldTypeChecks, FieldTypeSpec, NormaliseOutcome } from './fields/field-type-spec.js';
import {
  checkboxFieldChecks,
  checkboxFieldType,
  fileFieldChecks,
  fileFieldType,
  mailingListFieldChecks,
  mailingListFieldType,
  ratingFieldChecks,
  ratingFieldType,
  signatureFieldChecks,
  signatureFieldType,
  submitFieldChecks,
  submitFieldType,
} from './fields/misc-field-types.js';
import { numberFieldChecks, numberFieldType } from './fields/number-field-type.js';
import { tableFieldChecks, tableFieldType } from './fields/table-field-type.js';
import { paymentFieldChecks, paymentFieldType } from './fields/payment-field-type.js';
import {
  confirmationFieldChecks,
  confirmationFieldType,
  confirmationTargetText,
  emailFieldChecks,
  emailFieldType,
  hiddenFieldChecks,
  hiddenFieldType,
  phoneFieldChecks,
  phoneFieldType,
  regexFieldChecks,
  regexFieldType,
  textareaFieldChecks,
  textareaFieldType,
  textFieldChecks,
  textFieldType,
} from './fields/text-field-types.js';

export type { FieldTypeChecks, FieldTypeSpec, NormaliseOutcome } from './fields/field-type-spec.js';
export { FIELD_MESSAGES, fieldMessages, type FieldMessages } from './fields/field-messages.js';
export { formatDatetimePlaceholder } from './fields/datetime-format.js';
export { isEmptyValue } from './fields/empty-value-check.js';

/**
 * What normalise and validate read, which is all the browser client loads. A mapped type rather
 * than a plain Record, so an entry registered under the wrong type fails to compile.
 */
const FIELD_TYPE_CHECKS: { readonly [T in FieldType]: FieldTypeChecks<T> } = {
  text: textFieldChecks,
  textarea: textareaFieldChecks,
  select: selectFieldChecks,
  checkbox: checkboxFieldChecks,
  multipleSelect: multipleSelectFieldChecks,
  checkboxGroup: checkboxGroupFieldChecks,
  radioGroup: radioGroupFieldChecks,
  email: emailFieldChecks,
  dynamicRecipients: dynamicRecipientsFieldChecks,
  number: numberFieldChecks,
  file: fileFieldChecks,
  confirmation: confirmationFieldChecks,
  datetime: datetimeFieldChecks,
  opinionScale: opinionScaleFieldChecks,
  phone: phoneFieldChecks,
  rating: ratingFieldChecks,
  regex: regexFieldChecks,
  signature: signatureFieldChecks,
  table: tableFieldChecks,
  mailingList: mailingListFieldChecks,
  hidden: hiddenFieldChecks,
  payment: paymentFieldChecks,
  submit: submitFieldChecks,
};

/** The same types with their defaults, which only the server reads (clients get them in the manifest). */
const FIELD_TYPE_REGISTRY: { readonly [T in FieldType]: FieldTypeSpec<T> } = {
  text: textFieldType,
  textarea: textareaFieldType,
  select: selectFieldType,
  checkbox: checkboxFieldType,
  multipleSelect: multipleSelectFieldType,
  checkboxGroup: checkboxGroupFieldType,
  radioGroup: radioGroupFieldType,
  email: emailFieldType,
  dynamicRecipients: dynamicRecipientsFieldType,
  number: numberFieldType,
  file: fileFieldType,
  confirmation: confirmationFieldType,
  datetime: datetimeFieldType,
  opinionScale: opinionScaleFieldType,
  phone: phoneFieldType,
  rating: ratingFieldType,
  regex: regexFieldType,
  signature: signatureFieldType,
  table: tableFieldType,
  mailingList: mailingListFieldType,
  hidden: hiddenFieldType,
  payment: paymentFieldType,
  submit: submitFieldType,
};

function assertRegistered(registry: object, type: FieldType): void {
  // Definitions come from files: an unknown type is a loader bug and must not validate as "no rules".
  if (!Object.hasOwn(registry, type)) throw new Error(`Unknown field type "${String(type)}"`);
}

export function getFieldType<T extends FieldType>(type: T): FieldTypeSpec<T> {
  assertRegistered(FIELD_TYPE_REGISTRY, type);
  return FIELD_TYPE_REGISTRY[type];
}

function fieldChecks<T extends FieldType>(type: T): FieldTypeChecks<T> {
  assertRegistered(FIELD_TYPE_CHECKS, type);
  return FIELD_TYPE_CHECKS[type];
}

/** `messages` choose the language of refusals (and of typed numbers and dates); English by default. */
export function normaliseFieldValue(
  field: FieldDefinition,
  raw: unknown,
  messages: FieldMessages = FIELD_MESSAGES,
): NormaliseOutcome {
  return fieldChecks(field.type).normalise(field, raw, messages);
}

/** Required check + the type's validate. Empty and not required -> []. Empty and required -> [REQUIRED message]. */
export function validateFieldValue(
  field: FieldDefinition,
  value: FieldValue,
  values: Values,
  messages: FieldMessages = FIELD_MESSAGES,
): string[] {
  if (field.type === 'submit') return [];
  if (isEmptyValue(value)) {
    if (field.required === true) return [messages.required];
    // A blank confirmation of a filled-in target is a mismatch, not an unanswered optional field.
    if (field.type === 'confirmation' && confirmationTargetText(field.target, values) !== '') {
      return [messages.mismatch];
    }
    return [];
  }
  return fieldChecks(field.type).validate(field, value, values, messages);
}

export function defaultFieldValue(field: FieldDefinition): FieldValue {
  return getFieldType(field.type).defaultValue(field);
}

/**
 * Normalise every listed field from `raw` (absent handle = empty), then validate each against
 * `{...known, ...normalised}`. Only fields with errors appear in `errors`, worded in `messages`'s
 * language (`fieldMessages(site.language)`; English when omitted).
 */
export function validateValues(
  fields: readonly FieldDefinition[],
  raw: Readonly<Record<string, unknown>>,
  known: Values = {},
  messages: FieldMessages = FIELD_MESSAGES,
): { values: Record<string, FieldValue>; errors: Record<string, string[]> } {
  // Handles are user data ("constructor", "__proto__"): read own properties only, write via entries.
  const normalised: [string, FieldValue][] = [];
  const failures = new Map<string, string>();
  for (const field of fields) {
    if (field.handle === null) continue;
    const outcome = normaliseFieldValue(field, Object.hasOwn(raw, field.handle) ? raw[field.handle] : undefined, messages);
    normalised.push([field.handle, outcome.ok ? outcome.value : null]);
    if (!outcome.ok) failures.set(field.handle, outcome.error);
  }
  const values: Record<string, FieldValue> = Object.fromEntries(normalised);
  const merged: Values = { ...known, ...values };
  const errors: [string, string[]][] = [];
  for (const field of fields) {
    if (field.handle === null) continue;
    const failure = failures.get(field.handle);
    const found =
      failure !== undefined ? [failure] : validateFieldValue(field, values[field.handle] ?? null, merged, messages);
    if (found.length > 0) errors.push([field.handle, found]);
  }
  return { values, errors: Object.fromEntries(errors) };
}
