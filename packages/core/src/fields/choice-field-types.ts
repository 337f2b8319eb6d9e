import type {
  CheckboxGroupField,
  FieldOption,
  FieldValue,
  MultipleSelectField,
  RadioGroupField,
  SelectField,
} from '../form-model.js';
import { FIELD_MESSAGES } from './field-messages.js';
import type { FieldTypeSpec } from './field-type-spec.js';
import { coerceText, coerceTextList } from './raw-value-coercion.js';

function isAllowed(value: FieldValue, allowed: readonly { readonly value: string }[]): boolean {
  return typeof value === 'string' && allowed.some((option) => option.value === value);
}

function listErrors(value: FieldValue, options: readonly FieldOption[]): string[] {
  if (!Array.isArray(value)) return [FIELD_MESSAGES.notList];
  return value.every((item) => isAllowed(item, options)) ? [] : [FIELD_MESSAGES.invalidOption];
}

function firstChecked(options: readonly FieldOption[]): string | null {
  return options.find((option) => option.checked)?.value ?? null;
}

function allChecked(options: readonly FieldOption[]): readonly string[] {
  return options.filter((option) => option.checked).map((option) => option.value);
}

const singleChoice = {
  normalise: (_field: unknown, raw: unknown) => coerceText(raw),
  validate: (field: SelectField | RadioGroupField, value: FieldValue) =>
    isAllowed(value, field.options) ? [] : [FIELD_MESSAGES.invalidOption],
  defaultValue: (field: SelectField | RadioGroupField) => field.value || firstChecked(field.options),
};

export const selectFieldType: FieldTypeSpec<'select'> = { type: 'select', ...singleChoice };
export const radioGroupFieldType: FieldTypeSpec<'radioGroup'> = { type: 'radioGroup', ...singleChoice };

export const opinionScaleFieldType: FieldTypeSpec<'opinionScale'> = {
  type: 'opinionScale',
  normalise: (_field, raw) => coerceText(raw),
  validate: (field, value) => (isAllowed(value, field.scales) ? [] : [FIELD_MESSAGES.invalidOption]),
  defaultValue: (field) => field.value || null,
};

const multiChoice = {
  normalise: (_field: unknown, raw: unknown) => coerceTextList(raw),
  validate: (field: MultipleSelectField | CheckboxGroupField, value: FieldValue) => listErrors(value, field.options),
  defaultValue: (field: MultipleSelectField | CheckboxGroupField) => field.values ?? allChecked(field.options),
};

export const multipleSelectFieldType: FieldTypeSpec<'multipleSelect'> = { type: 'multipleSelect', ...multiChoice };
export const checkboxGroupFieldType: FieldTypeSpec<'checkboxGroup'> = { type: 'checkboxGroup', ...multiChoice };

/**
 * Options carry `recipients` (server-only addresses): nothing here may copy an option object
 * into a value or message, only its `value`.
 */
export const dynamicRecipientsFieldType: FieldTypeSpec<'dynamicRecipients'> = {
  type: 'dynamicRecipients',
  normalise: (_field, raw) => coerceTextList(raw),
  validate: (field, value) => {
    const errors = listErrors(value, field.options);
    if (field.showAsCheckboxes !== true && Array.isArray(value) && value.length > 1) {
      errors.push(FIELD_MESSAGES.chooseOne);
    }
    return errors;
  },
  defaultValue: (field) => {
    const values = field.values ?? allChecked(field.options);
    return field.showAsCheckboxes === true ? values : values.slice(0, 1);
  },
};
