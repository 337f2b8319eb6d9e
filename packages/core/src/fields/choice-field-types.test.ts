import { describe, expect, it } from 'vitest';
import type { FieldOption, FieldValue, RecipientOption } from '../form-model.js';
import {
  checkboxGroupFieldType,
  dynamicRecipientsFieldType,
  multipleSelectFieldType,
  opinionScaleFieldType,
  radioGroupFieldType,
  selectFieldType,
} from './choice-field-types.js';
import { FIELD_MESSAGES } from './field-messages.js';

const options: FieldOption[] = [
  { value: 'red', label: 'Red', checked: false },
  { value: 'green', label: 'Green', checked: true },
  { value: 'blue', label: 'Blue', checked: true },
  { value: '1', label: 'One', checked: false },
];
const base = { handle: 'f', label: 'F' } as const;
const select = { ...base, type: 'select', options } as const;
const radio = { ...base, type: 'radioGroup', options } as const;
const scale = {
  ...base,
  type: 'opinionScale',
  scales: [
    { value: 'bad', label: 'Bad' },
    { value: 'good', label: 'Good' },
  ],
} as const;
const multi = { ...base, type: 'multipleSelect', options } as const;
const group = { ...base, type: 'checkboxGroup', options } as const;
const recipientOptions: RecipientOption[] = [
  { value: 'sales', label: 'Sales', checked: false, recipients: ['sales@example.com'] },
  { value: 'support', label: 'Support', checked: true, recipients: ['help@example.com'] },
  { value: 'press', label: 'Press', checked: true, recipients: ['press@example.com'] },
];
const recipients = { ...base, type: 'dynamicRecipients', options: recipientOptions } as const;
const recipientBoxes = { ...recipients, showAsCheckboxes: true } as const;

describe('single choice', () => {
  it.each([
    ['select', 'red', { ok: true, value: 'red' }],
    ['select', 1, { ok: true, value: '1' }],
    ['select', '', { ok: true, value: null }],
    ['select', undefined, { ok: true, value: null }],
    ['select', ['red'], { ok: false, error: FIELD_MESSAGES.notText }],
    ['radioGroup', 'green', { ok: true, value: 'green' }],
    ['radioGroup', { value: 'green' }, { ok: false, error: FIELD_MESSAGES.notText }],
    ['opinionScale', 'good', { ok: true, value: 'good' }],
    ['opinionScale', null, { ok: true, value: null }],
  ] as const)('%s normalises %j', (type, raw, want) => {
    const spec = { select: selectFieldType, radioGroup: radioGroupFieldType, opinionScale: opinionScaleFieldType }[type];
    const field = { select, radioGroup: radio, opinionScale: scale }[type];
    expect(spec.normalise(field as never, raw)).toEqual(want);
  });

  it.each([
    ['select', 'red', []],
    ['select', '1', []],
    ['select', 'purple', [FIELD_MESSAGES.invalidOption]],
    ['select', 'Red', [FIELD_MESSAGES.invalidOption]],
    ['select', ['red'], [FIELD_MESSAGES.invalidOption]],
    ['radioGroup', 'blue', []],
    ['radioGroup', 'Blue', [FIELD_MESSAGES.invalidOption]],
    ['opinionScale', 'bad', []],
    ['opinionScale', 'terrible', [FIELD_MESSAGES.invalidOption]],
    ['opinionScale', 'Bad', [FIELD_MESSAGES.invalidOption]],
  ] as const)('%s validates %j', (type, value: FieldValue, want) => {
    const spec = { select: selectFieldType, radioGroup: radioGroupFieldType, opinionScale: opinionScaleFieldType }[type];
    const field = { select, radioGroup: radio, opinionScale: scale }[type];
    expect(spec.validate(field as never, value, {})).toEqual(want);
  });

  it.each([
    ['select with value', selectFieldType.defaultValue({ ...select, value: 'red' }), 'red'],
    ['select from the first checked option', selectFieldType.defaultValue(select), 'green'],
    ['select with nothing checked', selectFieldType.defaultValue({ ...select, options: options.slice(0, 1) }), null],
    ['radio from the first checked option', radioGroupFieldType.defaultValue(radio), 'green'],
    ['radio with value', radioGroupFieldType.defaultValue({ ...radio, value: 'blue' }), 'blue'],
    ['opinion scale with value', opinionScaleFieldType.defaultValue({ ...scale, value: 'good' }), 'good'],
    ['opinion scale without value', opinionScaleFieldType.defaultValue(scale), null],
  ] as const)('default: %s', (_name, got, want) => {
    expect(got).toEqual(want);
  });
});

describe('multiple choice', () => {
  const specs = { multipleSelect: multipleSelectFieldType, checkboxGroup: checkboxGroupFieldType, dynamicRecipients: dynamicRecipientsFieldType };
  const fields = { multipleSelect: multi, checkboxGroup: group, dynamicRecipients: recipientBoxes };
  const types = Object.keys(specs) as (keyof typeof specs)[];

  const normaliseCases: [string, unknown, unknown][] = [
    ['a list', ['a', 'b'], { ok: true, value: ['a', 'b'] }],
    ['a single string', 'a', { ok: true, value: ['a'] }],
    ['a single number', 7, { ok: true, value: ['7'] }],
    ['numbers in a list', [1, 2], { ok: true, value: ['1', '2'] }],
    ['duplicates, keeping order', ['b', 'a', 'b', 'a'], { ok: true, value: ['b', 'a'] }],
    ['blank placeholders', ['', 'a', null], { ok: true, value: ['a'] }],
    ['items as typed', [' a ', 'a'], { ok: true, value: [' a ', 'a'] }],
    ['undefined', undefined, { ok: true, value: [] }],
    ['null', null, { ok: true, value: [] }],
    ['the empty string', '', { ok: true, value: [] }],
    ['an empty list', [], { ok: true, value: [] }],
    ['an object', { 0: 'a' }, { ok: false, error: FIELD_MESSAGES.notList }],
    ['a nested list', [['a']], { ok: false, error: FIELD_MESSAGES.notList }],
    ['a list holding an object', ['a', {}], { ok: false, error: FIELD_MESSAGES.notList }],
    ['an oversized list', Array.from({ length: 1001 }, (_, i) => String(i)), { ok: false, error: FIELD_MESSAGES.tooManyItems(1000) }],
  ];
  it.each(types.flatMap((type) => normaliseCases.map(([name, raw, want]) => [type, name, raw, want] as const)))(
    '%s normalises %s',
    (type, _name, raw, want) => {
      expect(specs[type].normalise(fields[type] as never, raw)).toEqual(want);
    },
  );

  it.each([
    ['multipleSelect', ['red', 'blue'], []],
    ['multipleSelect', ['red', 'purple'], [FIELD_MESSAGES.invalidOption]],
    ['multipleSelect', 'red', [FIELD_MESSAGES.notList]],
    ['checkboxGroup', ['green'], []],
    ['checkboxGroup', ['GREEN'], [FIELD_MESSAGES.invalidOption]],
    ['dynamicRecipients', ['sales', 'press'], []],
    ['dynamicRecipients', ['sales@example.com'], [FIELD_MESSAGES.invalidOption]],
  ] as const)('%s validates %j', (type, value: FieldValue, want) => {
    expect(specs[type].validate(fields[type] as never, value, {})).toEqual(want);
  });

  it.each([
    [{ ...recipients }, ['sales'], []],
    [{ ...recipients }, ['sales', 'press'], [FIELD_MESSAGES.chooseOne]],
    [{ ...recipients, showAsRadio: true }, ['sales', 'press'], [FIELD_MESSAGES.chooseOne]],
    [{ ...recipients, showAsCheckboxes: false }, ['sales', 'nope'], [FIELD_MESSAGES.invalidOption, FIELD_MESSAGES.chooseOne]],
    [recipientBoxes, ['sales', 'press', 'support'], []],
  ] as const)('dynamicRecipients %j accepts one value unless shown as checkboxes: %j', (field, value, want) => {
    expect(dynamicRecipientsFieldType.validate(field, value, {})).toEqual(want);
  });

  it('never puts recipient addresses into values or messages', () => {
    const outcome = dynamicRecipientsFieldType.normalise(recipients, ['support']);
    const errors = dynamicRecipientsFieldType.validate(recipients, ['help@example.com', 'x'], {});
    expect(JSON.stringify([outcome, errors, dynamicRecipientsFieldType.defaultValue(recipients)])).not.toContain('@example.com');
  });

  it.each([
    ['multipleSelect from checked options', multipleSelectFieldType.defaultValue(multi), ['green', 'blue']],
    ['multipleSelect from values', multipleSelectFieldType.defaultValue({ ...multi, values: ['red'] }), ['red']],
    ['checkboxGroup from checked options', checkboxGroupFieldType.defaultValue(group), ['green', 'blue']],
    ['checkboxGroup from explicit empty values', checkboxGroupFieldType.defaultValue({ ...group, values: [] }), []],
    ['dynamicRecipients as a single choice', dynamicRecipientsFieldType.defaultValue(recipients), ['support']],
    ['dynamicRecipients as checkboxes', dynamicRecipientsFieldType.defaultValue(recipientBoxes), ['support', 'press']],
    ['dynamicRecipients from values', dynamicRecipientsFieldType.defaultValue({ ...recipients, values: ['sales'] }), ['sales']],
  ] as const)('default: %s', (_name, got, want) => {
    expect(got).toEqual(want);
  });
});
