/**
 * The type-specific properties of interface.md §2.6, per field type, by their interface names.
 * The manifest's `config` and the GraphQL fragments `SvcField_<Type>` both carry every one of
 * them (null when a form leaves it unset), and a table-driven test holds both to this list.
 */
import type { FieldType } from './form-model.js';

export const INTERFACE_FIELD_PROPERTIES: { readonly [T in FieldType]: readonly string[] } = {
  text: ['value', 'maxLength', 'placeholder'],
  textarea: ['value', 'maxLength', 'rows', 'placeholder'],
  select: ['value', 'options'],
  checkbox: ['value', 'checked'],
  multipleSelect: ['values', 'options'],
  checkboxGroup: ['values', 'oneLine', 'options'],
  radioGroup: ['value', 'options'],
  email: ['notificationId', 'placeholder'],
  dynamicRecipients: ['values', 'notificationId', 'showAsRadio', 'showAsCheckboxes', 'oneLine', 'options'],
  number: ['value', 'minLength', 'minValue', 'maxValue', 'decimalCount', 'decimalSeparator', 'thousandsSeparator', 'allowNegative', 'placeholder'],
  file: ['fileKinds', 'maxFileSizeKB', 'fileCount'],
  confirmation: ['targetFieldHash'],
  datetime: [
    'value', 'dateTimeType', 'generatePlaceholder', 'dateOrder', 'date4DigitYear', 'dateLeadingZero', 'dateSeparator',
    'clock24h', 'clockSeparator', 'clockAMPMSeparate', 'useDatepicker', 'minDate', 'maxDate',
  ],
  opinionScale: ['value', 'legends', 'scales'],
  phone: ['value', 'pattern', 'useJsMask'],
  rating: ['value', 'maxValue', 'colorIdle', 'colorHover', 'colorSelected'],
  regex: ['value', 'pattern', 'message'],
  signature: ['width', 'height', 'showClearButton', 'borderColor', 'backgroundColor', 'penColor', 'penDotSize'],
  table: ['useScript', 'maxRows', 'addButtonLabel', 'addButtonMarkup', 'removeButtonLabel', 'removeButtonMarkup', 'tableLayout'],
  mailingList: ['hidden'],
  hidden: ['value'],
  // Not a §2.6 type (payments are §4.5): its properties are svc's own, served all the same.
  payment: [],
  submit: ['labelNext', 'labelPrev', 'disablePrev', 'position'],
};

/** Properties the manifest carries at the top of a field rather than in `config` (contract §2). */
export const MANIFEST_TOP_LEVEL_PROPERTIES: ReadonlySet<string> = new Set(['value', 'values', 'placeholder', 'options']);
