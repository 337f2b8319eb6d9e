/**
 * SvcFieldInterface and one `SvcField_<Type>` object per field type (interface.md §2.4, §2.6).
 * Resolvers read the core `Field` as the REST manifest does; only shapes differ (attribute maps
 * become lists, rules and table layouts JSON strings, recipients never leave the server).
 */
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLInt,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
  type GraphQLOutputType,
} from 'graphql';
import { FIELD_TYPES, wireFieldType, type AttributeMap, type Field, type FieldType, type Form } from '@svc/core';
import { attributeList, OpinionScale, Option } from './graphql-helper-types.js';
import { deprecatedAlias } from './graphql-deprecated-names.js';
import { materialize, schemaFields, type View } from './graphql-views.js';
import type { SvcGraphqlContext } from './graphql-context.js';

/** The field plus its form, so a field can resolve references (confirmation target hash). */
export interface FieldSource {
  readonly field: Field;
  readonly form: Form;
}

type FieldConfig = GraphQLFieldConfig<FieldSource, SvcGraphqlContext>;

export function fieldTypeName(type: FieldType): string {
  return `SvcField_${type[0]?.toUpperCase()}${type.slice(1)}`;
}

function prop(name: string, type: GraphQLOutputType, description: string): FieldConfig {
  return {
    type,
    description,
    resolve: ({ field }) => (field as unknown as Record<string, unknown>)[name] ?? null,
  };
}

function attributes(map: AttributeMap | undefined) {
  return Object.entries(map ?? {}).map(([attribute, value]) => ({ attribute, value }));
}

/** interface.md types these Int; a definition may hold a decimal, which Int cannot carry. */
function intProp(name: string, description: string): FieldConfig {
  return {
    type: GraphQLInt,
    description,
    resolve: ({ field }) => {
      const value = (field as unknown as Record<string, unknown>)[name];
      return typeof value === 'number' ? Math.round(value) : null;
    },
  };
}

const baseFields = (): GraphQLFieldConfigMap<FieldSource, SvcGraphqlContext> => ({
  id: { type: GraphQLInt, description: 'ID', resolve: ({ field }) => field.id },
  type: { type: GraphQLString, description: 'Field type as Freeform 5 names it, e.g. text, dropdown, radios, file-dnd', resolve: ({ field }) => wireFieldType(field) },
  label: { type: GraphQLString, description: 'Label', resolve: ({ field }) => field.label },
  hash: { type: GraphQLString, description: 'Unique field hash', resolve: ({ field }) => field.hash },
  handle: { type: GraphQLString, description: 'Handle; null for a submit field', resolve: ({ field }) => field.handle },
  instruction: { type: GraphQLString, description: 'Instructions', resolve: ({ field }) => field.instructions ?? null },
  required: { type: GraphQLBoolean, description: 'Required', resolve: ({ field }) => field.required ?? false },
  pageIndex: { type: GraphQLInt, description: 'Index of its page', resolve: ({ field }) => field.pageIndex },
  inputAttributes: { type: attributeList, description: 'Input attributes', resolve: ({ field }) => attributes(field.inputAttributes) },
  labelAttributes: { type: attributeList, description: 'Label attributes', resolve: ({ field }) => attributes(field.labelAttributes) },
  errorAttributes: { type: attributeList, description: 'Error attributes', resolve: ({ field }) => attributes(field.errorAttributes) },
  instructionAttributes: {
    type: attributeList,
    description: 'Instruction attributes',
    resolve: ({ field }) => attributes(field.instructionAttributes),
  },
  rules: {
    type: GraphQLString,
    description: 'Conditional rules (interface.md §2.5) as a JSON string',
    resolve: ({ field }) => (field.rules ? JSON.stringify(field.rules) : null),
  },
});

const viewBaseFields = () => schemaFields(baseFields());
const typenameOf = (view: View) => view.__typename;

export const FieldInterface = new GraphQLInterfaceType({
  name: 'SvcFieldInterface',
  description: 'A field of a form; query type-specific properties with `... on SvcField_<Type>`.',
  fields: viewBaseFields,
  resolveType: typenameOf,
});
const FieldAlias = deprecatedAlias('FieldInterface', FieldInterface, viewBaseFields, typenameOf);

const S = GraphQLString;
const B = GraphQLBoolean;
const LS = new GraphQLList(GraphQLString);
const options: FieldConfig = {
  type: new GraphQLList(Option.iface),
  description: 'Assigned options',
  resolve: ({ field }) => ('options' in field ? field.options.map((o) => ({ value: o.value, label: o.label, checked: o.checked })) : []),
};

/** Type-specific fields of interface.md §2.6, per type. */
const SPECIFIC: Readonly<Record<FieldType, () => Record<string, FieldConfig>>> = {
  text: () => ({ value: prop('value', S, 'Default value'), maxLength: intProp('maxLength', 'Maximum characters'), placeholder: prop('placeholder', S, 'Placeholder') }),
  textarea: () => ({
    value: prop('value', S, 'Default value'),
    maxLength: intProp('maxLength', 'Maximum characters'),
    rows: intProp('rows', 'Rows shown'),
    placeholder: prop('placeholder', S, 'Placeholder'),
  }),
  select: () => ({ value: prop('value', S, 'Default value'), options }),
  checkbox: () => ({ value: prop('value', S, 'Value when checked'), checked: { type: B, resolve: ({ field }) => ('checked' in field ? (field.checked ?? false) : false) } }),
  multipleSelect: () => ({ values: prop('values', LS, 'Default values'), options }),
  checkboxGroup: () => ({ values: prop('values', LS, 'Default values'), oneLine: prop('oneLine', B, 'Show in one line'), options }),
  radioGroup: () => ({ value: prop('value', S, 'Default value'), options }),
  email: () => ({ notificationId: prop('notificationId', S, 'Email template'), placeholder: prop('placeholder', S, 'Placeholder') }),
  dynamicRecipients: () => ({
    values: prop('values', LS, 'Default values'),
    notificationId: prop('notificationId', S, 'Email template'),
    showAsRadio: prop('showAsRadio', B, 'Show as radios'),
    showAsCheckboxes: prop('showAsCheckboxes', B, 'Show as checkboxes'),
    oneLine: prop('oneLine', B, 'In one line'),
    options,
  }),
  number: () => ({
    value: prop('value', S, 'Default value'),
    minLength: intProp('minLength', 'Minimum length'),
    minValue: intProp('minValue', 'Minimum value'),
    maxValue: intProp('maxValue', 'Maximum value'),
    decimalCount: intProp('decimalCount', 'Number of decimals'),
    decimalSeparator: prop('decimalSeparator', S, 'Decimal separator'),
    thousandsSeparator: prop('thousandsSeparator', S, 'Thousands separator'),
    allowNegative: prop('allowNegative', B, 'Negative numbers allowed'),
    placeholder: prop('placeholder', S, 'Placeholder'),
  }),
  file: () => ({
    fileKinds: prop('fileKinds', LS, 'Allowed kinds'),
    maxFileSizeKB: intProp('maxFileSizeKB', 'Maximum size in KB'),
    fileCount: intProp('fileCount', 'Files allowed'),
  }),
  confirmation: () => ({
    targetFieldHash: {
      type: S,
      description: 'Hash of the confirmed field',
      resolve: ({ field, form }) => (field.type === 'confirmation' ? (form.fieldsByHandle.get(field.target)?.hash ?? null) : null),
    },
  }),
  datetime: () => ({
    value: prop('value', S, 'Default value'),
    dateTimeType: prop('dateTimeType', S, 'date, time or both'),
    generatePlaceholder: prop('generatePlaceholder', B, 'Generate a placeholder'),
    dateOrder: prop('dateOrder', S, 'Order of the date chunks'),
    date4DigitYear: prop('date4DigitYear', B, 'Four-digit year'),
    dateLeadingZero: prop('dateLeadingZero', B, 'Leading zeros'),
    dateSeparator: prop('dateSeparator', S, 'Date separator'),
    clock24h: prop('clock24h', B, '24-hour clock'),
    clockSeparator: prop('clockSeparator', S, 'Clock separator'),
    clockAMPMSeparate: prop('clockAMPMSeparate', B, 'Space before AM/PM'),
    useDatepicker: prop('useDatepicker', B, 'Use the datepicker'),
    minDate: prop('minDate', S, 'Earliest date'),
    maxDate: prop('maxDate', S, 'Latest date'),
  }),
  opinionScale: () => ({
    value: prop('value', S, 'Default value'),
    legends: prop('legends', LS, 'Legends'),
    scales: { type: new GraphQLList(OpinionScale.iface), description: 'Scales', resolve: ({ field }) => ('scales' in field ? field.scales : []) },
  }),
  phone: () => ({ value: prop('value', S, 'Default value'), pattern: prop('pattern', S, 'Pattern; 0 is a digit'), useJsMask: prop('useJsMask', B, 'Use the mask script') }),
  rating: () => ({
    value: prop('value', S, 'Default value'),
    maxValue: intProp('maxValue', 'Maximum rating'),
    colorIdle: prop('colorIdle', S, 'Idle colour'),
    colorHover: prop('colorHover', S, 'Hover colour'),
    colorSelected: prop('colorSelected', S, 'Selected colour'),
  }),
  regex: () => ({ value: prop('value', S, 'Default value'), pattern: prop('pattern', S, 'Pattern'), message: prop('message', S, 'Error message') }),
  signature: () => ({
    width: intProp('width', 'Width in pixels'),
    height: intProp('height', 'Height in pixels'),
    showClearButton: prop('showClearButton', B, 'Show the clear button'),
    borderColor: prop('borderColor', S, 'Border colour'),
    backgroundColor: prop('backgroundColor', S, 'Background colour'),
    penColor: prop('penColor', S, 'Pen colour'),
    penDotSize: prop('penDotSize', GraphQLFloat, 'Pen dot size'),
  }),
  table: () => ({
    useScript: prop('useScript', B, 'Use the row script'),
    maxRows: intProp('maxRows', 'Maximum rows'),
    addButtonLabel: {
      type: B,
      description: 'Boolean as typed in interface.md: whether a custom add-row label is set; the text is addButtonText',
      resolve: ({ field }) => field.type === 'table' && Boolean(field.addButtonLabel),
    },
    addButtonText: prop('addButtonLabel', S, 'Label of the add-row button'),
    addButtonMarkup: prop('addButtonMarkup', S, 'Custom add-row HTML'),
    removeButtonLabel: prop('removeButtonLabel', S, 'Label of the delete-row button'),
    removeButtonMarkup: prop('removeButtonMarkup', S, 'Custom delete-row HTML'),
    tableLayout: { type: S, description: 'Columns as JSON', resolve: ({ field }) => (field.type === 'table' ? JSON.stringify(field.columns) : null) },
  }),
  mailingList: () => ({ hidden: prop('hidden', B, 'Hidden (always opted in) or a checkbox') }),
  hidden: () => ({ value: prop('value', S, 'Value') }),
  payment: () => ({
    gateway: prop('gateway', S, 'Payment gateway, e.g. stripe'),
    currency: prop('currency', S, 'ISO 4217 currency code, lower case'),
    amount: prop('amount', GraphQLFloat, 'Fixed amount in major units'),
    amountFields: prop('amountFields', LS, 'Handles of the fields giving the amount'),
    minAmount: prop('minAmount', GraphQLFloat, 'Smallest amount'),
    maxAmount: prop('maxAmount', GraphQLFloat, 'Largest amount'),
    description: prop('description', S, 'Payment description'),
  }),
  submit: () => ({
    labelNext: prop('labelNext', S, 'Next button label'),
    labelPrev: prop('labelPrev', S, 'Previous button label'),
    disablePrev: prop('disablePrev', B, 'Previous button disabled'),
    position: prop('position', S, 'Button position'),
  }),
};

export const FIELD_OBJECT_TYPES: readonly GraphQLObjectType[] = FIELD_TYPES.map(
  (type) =>
    new GraphQLObjectType<View, SvcGraphqlContext>({
      name: fieldTypeName(type),
      interfaces: [FieldInterface, FieldAlias],
      fields: () => schemaFields({ ...baseFields(), ...SPECIFIC[type]() }),
    }),
);

const fieldViews = new WeakMap<Field, View>();
/** No field resolver reads the context; the views need none. */
const NO_CONTEXT = {} as SvcGraphqlContext;

/** The view of a field (see graphql-views.ts); a Field belongs to one form version, so it is the key. */
export function fieldView(field: Field, form: Form): View {
  let view = fieldViews.get(field);
  if (!view) {
    view = materialize(fieldTypeName(field.type), { ...baseFields(), ...SPECIFIC[field.type]() }, { field, form }, NO_CONTEXT);
    fieldViews.set(field, view);
  }
  return view;
}

export const FIELD_INTERFACES = [FieldInterface, FieldAlias];
