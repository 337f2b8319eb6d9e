import type {
  CheckboxGroupField,
  FieldOption,
  FieldValue,
  MultipleSelectField,
  RadioGroupField,
  SelectField,
} from '../form-model.js';
import { FIELD_MESSAGES, type FieldMessages } from './field-messages.js';
import { withDefault, type FieldTypeChecks } from './field-type-spec.js';
import { coerceText, coerceTextList, MAX_TEXT_CHARS } from './raw-value-coercion.js';

function isAllowed(value: FieldValue, allowed: readonly { readonly value: string }[]): boolean {
  return typeof value === 'string' && allowed.some((option) => option.value === value);
}

function listErrors(value: FieldValue, options: readonly FieldOption[], messages: FieldMessages): string[] {
  if (!Array.isArray(value)) return [messages.notList];
  return value.every((item) => isAllowed(item, options)) ? [] : [messages.invalidOption];
}

function firstChecked(options: readonly FieldOption[]): string | null {
  return options.find((option) => option.checked)?.value ?? null;
}

function allChecked(options: readonly FieldOption[]): readonly string[] {
  return options.filter((option) => option.checked).map((option) => option.value);
}

const singleChoice = {
  normalise: (_field: unknown, raw: unknown, messages: FieldMessages = FIELD_MESSAGES) =>
    coerceText(raw, MAX_TEXT_CHARS, messages),
  validate: (field: SelectField | RadioGroupField, value: FieldValue, _values: unknown, messages: FieldMessages = FIELD_MESSAGES) =>
    isAllowed(value, field.options) ? [] : [messages.invalidOption],
};
const singleChoiceDefault = (field: SelectField | RadioGroupField) => field.value || firstChecked(field.options);

export const selectFieldChecks: FieldTypeChecks<'select'> = { type: 'select', ...singleChoice };
export const selectFieldType = /* @__PURE__ */ withDefault(selectFieldChecks, singleChoiceDefault);
export const radioGroupFieldChecks: FieldTypeChecks<'radioGroup'> = { type: 'radioGroup', ...singleChoice };
export const radioGroupFieldType = /* @__PURE__ */ withDefault(radioGroupFieldChecks, singleChoiceDefault);

export const opinionScaleFieldChecks: FieldTypeChecks<'opinionScale'> = {
  type: 'opinionScale',
  normalise: (_field, raw, messages = FIELD_MESSAGES) => coerceText(raw, MAX_TEXT_CHARS, messages),
  validate: (field, value, _values, messages = FIELD_MESSAGES) => (isAllowed(value, field.scales) ? [] : [messages.invalidOption]),
};
export const opinionScaleFieldType = /* @__PURE__ */ withDefault(opinionScaleFieldChecks, (field) => field.value || null);

const multiChoice = {
  normalise: (_field: unknown, raw: unknown, messages: FieldMessages = FIELD_MESSAGES) => coerceTextList(raw, messages),
  validate: (field: MultipleSelectField | CheckboxGroupField, value: FieldValue, _values: unknown, messages: FieldMessages = FIELD_MESSAGES) =>
    listErrors(value, field.options, messages),
};
const multiChoiceDefault = (field: MultipleSelectField | CheckboxGroupField) => field.values ?? allChecked(field.options);

export const multipleSelectFieldChecks: FieldTypeChecks<'multipleSelect'> = { type: 'multipleSelect', ...multiChoice };
export const multipleSelectFieldType = /* @__PURE__ */ withDefault(multipleSelectFieldChecks, multiChoiceDefault);
export const checkboxGroupFieldChecks: FieldTypeChecks<'checkboxGroup'> = { type: 'checkboxGroup', ...multiChoice };
export const checkboxGroupFieldType = /* @__PURE__ */ withDefault(checkboxGroupFieldChecks, multiChoiceDefault);

/**
 * Options carry `recipients` (server-only addresses): nothing here may copy an option object
 * into a value or message, only its `value`.
 */
export const dynamicRecipientsFieldChecks: FieldTypeChecks<'dynamicRecipients'> = {
  type: 'dynamicRecipients',
  normalise: (_field, raw, messages = FIELD_MESSAGES) => coerceTextList(raw, messages),
  validate: (field, value, _values, messages = FIELD_MESSAGES) => {
    const errors = listErrors(value, field.options, messages);
    if (field.showAsCheckboxes !== true && Array.isArray(value) && value.length > 1) {
      errors.push(messages.chooseOne);
    }
    return errors;
  },
};
export const dynamicRecipientsFieldType = /* @__PURE__ */ withDefault(dynamicRecipientsFieldChecks, (field) => {
  const values = field.values ?? allChecked(field.options);
  return field.showAsCheckboxes === true ? values : values.slice(0, 1);
});
