import { describe, expect, it } from 'vitest';
import {
  defaultFieldValue,
  FIELD_MESSAGES,
  formatDatetimePlaceholder,
  getFieldType,
  isEmptyValue,
  normaliseFieldValue,
  validateFieldValue,
  validateValues,
} from './field-registry.js';
import { FIELD_TYPES, type FieldDefinition, type FieldType, type FieldValue } from './form-model.js';

const option = (value: string, checked = false) => ({ value, label: value.toUpperCase(), checked });
const options = [option('a'), option('b', true)];

/** One representative definition per type, each with a value that passes and one that fails. */
const SAMPLES: Record<
  Exclude<FieldType, 'submit'>,
  { field: FieldDefinition; good: unknown; stored: FieldValue; bad: unknown; badError: string; fallback: FieldValue }
> = {
  text: { field: { type: 'text', handle: 'text', label: 'T', maxLength: 3 }, good: 'abc', stored: 'abc', bad: 'abcd', badError: FIELD_MESSAGES.textTooLong(3), fallback: null },
  textarea: { field: { type: 'textarea', handle: 'textarea', label: 'T', maxLength: 3, value: 'hi' }, good: 7, stored: '7', bad: { a: 1 }, badError: FIELD_MESSAGES.notText, fallback: 'hi' },
  select: { field: { type: 'select', handle: 'select', label: 'S', options }, good: 'a', stored: 'a', bad: 'z', badError: FIELD_MESSAGES.invalidOption, fallback: 'b' },
  checkbox: { field: { type: 'checkbox', handle: 'checkbox', label: 'C', value: 'yes' }, good: true, stored: 'yes', bad: 'maybe', badError: FIELD_MESSAGES.invalidCheckbox, fallback: null },
  multipleSelect: { field: { type: 'multipleSelect', handle: 'multipleSelect', label: 'M', options }, good: 'a', stored: ['a'], bad: ['a', 'z'], badError: FIELD_MESSAGES.invalidOption, fallback: ['b'] },
  checkboxGroup: { field: { type: 'checkboxGroup', handle: 'checkboxGroup', label: 'C', options }, good: ['b', 'a', 'b'], stored: ['b', 'a'], bad: [['a']], badError: FIELD_MESSAGES.notList, fallback: ['b'] },
  radioGroup: { field: { type: 'radioGroup', handle: 'radioGroup', label: 'R', options }, good: 'b', stored: 'b', bad: 'B', badError: FIELD_MESSAGES.invalidOption, fallback: 'b' },
  email: { field: { type: 'email', handle: 'email', label: 'E' }, good: ' ann@example.com ', stored: 'ann@example.com', bad: 'ann@', badError: FIELD_MESSAGES.invalidEmail, fallback: null },
  dynamicRecipients: {
    field: { type: 'dynamicRecipients', handle: 'dynamicRecipients', label: 'D', options: [{ ...option('sales'), recipients: ['s@example.com'] }, { ...option('hr'), recipients: ['h@example.com'] }] },
    good: ['hr'],
    stored: ['hr'],
    bad: ['sales', 'hr'],
    badError: FIELD_MESSAGES.chooseOne,
    fallback: [],
  },
  number: { field: { type: 'number', handle: 'number', label: 'N', maxValue: 10 }, good: '9.5', stored: '9.5', bad: '11', badError: FIELD_MESSAGES.aboveMax(10), fallback: null },
  file: { field: { type: 'file', handle: 'file', label: 'F' }, good: 'upload_1', stored: ['upload_1'], bad: ['a', 'b'], badError: FIELD_MESSAGES.tooManyFiles(1), fallback: [] },
  confirmation: { field: { type: 'confirmation', handle: 'confirmation', label: 'C', target: 'email' }, good: 'ann@example.com', stored: 'ann@example.com', bad: 'bob@example.com', badError: FIELD_MESSAGES.mismatch, fallback: null },
  datetime: { field: { type: 'datetime', handle: 'datetime', label: 'D', dateOrder: 'dmy', dateSeparator: '/' }, good: '01/02/2025', stored: '2025-02-01', bad: '30/02/2025', badError: FIELD_MESSAGES.invalidDate('DD/MM/YYYY'), fallback: null },
  opinionScale: { field: { type: 'opinionScale', handle: 'opinionScale', label: 'O', scales: [{ value: '1', label: 'Meh' }], value: '1' }, good: 1, stored: '1', bad: '2', badError: FIELD_MESSAGES.invalidOption, fallback: '1' },
  phone: { field: { type: 'phone', handle: 'phone', label: 'P', pattern: '000-0000' }, good: '555-1234', stored: '555-1234', bad: '5551234', badError: FIELD_MESSAGES.phoneFormat('000-0000'), fallback: null },
  rating: { field: { type: 'rating', handle: 'rating', label: 'R', maxValue: 3 }, good: '3', stored: 3, bad: 4, badError: FIELD_MESSAGES.invalidRating(3), fallback: null },
  regex: { field: { type: 'regex', handle: 'regex', label: 'R', pattern: '^[a-z]+$', message: 'Lower case only' }, good: 'abc', stored: 'abc', bad: 'ABC', badError: 'Lower case only', fallback: null },
  signature: { field: { type: 'signature', handle: 'signature', label: 'S' }, good: 'data:image/png;base64,AAAA', stored: 'data:image/png;base64,AAAA', bad: 'data:image/png;base64,A', badError: FIELD_MESSAGES.invalidSignature, fallback: null },
  table: {
    field: { type: 'table', handle: 'table', label: 'T', columns: [{ label: 'Name', type: 'string', required: true }, { label: 'Qty', type: 'number' }] },
    good: [['Ann', '2'], ['', '']],
    stored: [['Ann', '2']],
    bad: [['', '3']],
    badError: FIELD_MESSAGES.cellRequired(1, 'Name'),
    fallback: [],
  },
  mailingList: { field: { type: 'mailingList', handle: 'mailingList', label: 'M' }, good: 'yes', stored: true, bad: 'perhaps', badError: FIELD_MESSAGES.invalidOptIn, fallback: false },
  hidden: { field: { type: 'hidden', handle: 'hidden', label: 'H', value: 'src' }, good: 'utm', stored: 'utm', bad: ['x'], badError: FIELD_MESSAGES.notText, fallback: 'src' },
  payment: { field: { type: 'payment', handle: 'payment', label: 'P', gateway: 'stripe', currency: 'usd', amount: 5 }, good: 'pi_123abc', stored: 'pi_123abc', bad: 'pi 1;drop', badError: FIELD_MESSAGES.invalidPayment, fallback: null },
};
const sampleTypes = Object.keys(SAMPLES) as (keyof typeof SAMPLES)[];
const submit: FieldDefinition = { type: 'submit', handle: null, label: 'Send' };
const known = { email: 'ann@example.com' };

describe('getFieldType', () => {
  it.each(FIELD_TYPES.map((type) => [type]))('registers %s under its own name', (type) => {
    expect(getFieldType(type).type).toBe(type);
  });

  it('has a sample for every input type', () => {
    expect([...sampleTypes, 'submit'].sort()).toEqual([...FIELD_TYPES].sort());
  });

  it.each([['stripe'], ['toString'], ['__proto__']])('refuses the unknown type %s', (type) => {
    expect(() => getFieldType(type as FieldType)).toThrow(/Unknown field type/);
  });
});

describe('every type through the public API', () => {
  it.each(sampleTypes)('%s accepts and stores a good value', (type) => {
    const { field, good, stored } = SAMPLES[type];
    expect(normaliseFieldValue(field, good)).toEqual({ ok: true, value: stored });
    expect(validateFieldValue(field, stored, known)).toEqual([]);
    const handle = field.handle ?? '';
    expect(validateValues([field], { [handle]: good }, known)).toEqual({ values: { [handle]: stored }, errors: {} });
  });

  it.each(sampleTypes)('%s reports a bad value', (type) => {
    const { field, bad, badError } = SAMPLES[type];
    const handle = field.handle ?? '';
    const result = validateValues([field], { [handle]: bad }, known);
    expect(result.errors).toEqual({ [handle]: [badError] });
  });

  it.each(sampleTypes)('%s is optional unless required', (type) => {
    const { field } = SAMPLES[type];
    const handle = field.handle ?? '';
    expect(validateValues([field], {}).errors).toEqual({});
    expect(validateValues([{ ...field, required: true }], {}, known).errors).toEqual({ [handle]: ['This field is required'] });
  });

  it.each(sampleTypes)('%s starts with its default', (type) => {
    expect(defaultFieldValue(SAMPLES[type].field)).toEqual(SAMPLES[type].fallback);
  });

  it('submit takes no value and is never validated', () => {
    expect(normaliseFieldValue(submit, 'x')).toEqual({ ok: true, value: null });
    expect(validateFieldValue({ ...submit, required: true }, null, {})).toEqual([]);
    expect(defaultFieldValue(submit)).toBeNull();
  });
});

describe('isEmptyValue', () => {
  it.each([
    [null, true],
    [undefined, true],
    ['', true],
    ['  \n\t', true],
    [[], true],
    [false, true],
    [[[null, '', false], ['  ']], true],
    ['0', false],
    [' a ', false],
    [0, false],
    [true, false],
    [['a'], false],
    [[''], false],
    [[[null, 'x']], false],
    [[[true]], false],
  ] as const)('%j -> %s', (value, want) => {
    expect(isEmptyValue(value)).toBe(want);
  });

  it('treats a raw object (a wire value no field takes) as not empty instead of throwing', () => {
    expect(isEmptyValue({ a: 1 } as never)).toBe(false);
  });
});

describe('validateFieldValue', () => {
  const text: FieldDefinition = { type: 'text', handle: 'name', label: 'Name', required: true, maxLength: 2 };
  it.each([
    ['required and blank', text, '   ', ['This field is required']],
    ['required and filled', text, 'ab', []],
    ['constraint checked when filled', text, 'abc', [FIELD_MESSAGES.textTooLong(2)]],
    ['optional and empty skips constraints', { ...text, required: false, maxLength: 0 }, '', []],
    ['required checkbox unchecked', { type: 'checkbox', handle: 'c', label: 'C', required: true }, null, [FIELD_MESSAGES.required]],
    ['required opt-in refused', { type: 'mailingList', handle: 'm', label: 'M', required: true }, false, [FIELD_MESSAGES.required]],
    ['required table with only blank rows', { type: 'table', handle: 't', label: 'T', required: true, columns: [] }, [[null]], [FIELD_MESSAGES.required]],
    ['blank confirmation of a filled target', { type: 'confirmation', handle: 'c', label: 'C', target: 'email' }, null, [FIELD_MESSAGES.mismatch]],
    ['blank confirmation of a blank target', { type: 'confirmation', handle: 'c', label: 'C', target: 'other' }, null, []],
  ] as const)('%s', (_name, field: FieldDefinition, value: FieldValue, want) => {
    expect(validateFieldValue(field, value, known)).toEqual(want);
  });
});

describe('validateValues', () => {
  const email: FieldDefinition = { type: 'email', handle: 'email', label: 'Email', required: true };
  const confirm: FieldDefinition = { type: 'confirmation', handle: 'confirm', label: 'Confirm', target: 'email' };
  const age: FieldDefinition = { type: 'number', handle: 'age', label: 'Age' };

  it('normalises, merges and validates a whole form', () => {
    const result = validateValues([email, confirm, age, submit], { email: ' a@b.co ', confirm: 'a@b.co', age: '41', extra: 'ignored' });
    expect(result).toEqual({ values: { email: 'a@b.co', confirm: 'a@b.co', age: '41' }, errors: {} });
  });

  it('puts a normalise failure in errors and stores null', () => {
    const result = validateValues([email, age], { email: 'a@b.co', age: 'forty' });
    expect(result).toEqual({ values: { email: 'a@b.co', age: null }, errors: { age: [FIELD_MESSAGES.notNumber] } });
  });

  it('treats an absent handle as empty', () => {
    expect(validateValues([email, age], {})).toEqual({
      values: { email: null, age: null },
      errors: { email: ['This field is required'] },
    });
  });

  it('confirms against known values of other pages', () => {
    expect(validateValues([confirm], { confirm: 'a@b.co' }, { email: 'a@b.co' }).errors).toEqual({});
    expect(validateValues([confirm], { confirm: 'a@b.co' }, { email: 'x@b.co' }).errors).toEqual({ confirm: [FIELD_MESSAGES.mismatch] });
  });

  it('prefers values submitted now over known ones', () => {
    const result = validateValues([email, confirm], { email: 'new@b.co', confirm: 'new@b.co' }, { email: 'old@b.co' });
    expect(result.errors).toEqual({});
  });

  it('does not read or write inherited properties for awkward handles', () => {
    const proto: FieldDefinition = { type: 'text', handle: '__proto__', label: 'P', required: true };
    const ctor: FieldDefinition = { type: 'text', handle: 'constructor', label: 'C', required: true };
    const raw = JSON.parse('{"__proto__": "x"}') as Record<string, unknown>;
    const result = validateValues([proto, ctor], raw);
    expect(Object.getPrototypeOf(result.values)).toBe(Object.prototype);
    expect(Object.hasOwn(result.values, '__proto__')).toBe(true);
    expect(result.values['__proto__']).toBe('x');
    expect(result.values['constructor']).toBeNull();
    expect(result.errors['constructor']).toEqual([FIELD_MESSAGES.required]);
  });
});

describe('re-exports', () => {
  it('exposes the datetime placeholder formatter', () => {
    expect(formatDatetimePlaceholder({ type: 'datetime', handle: 'd', label: 'D', dateTimeType: 'both', clock24h: false, clockAMPMSeparate: true })).toBe('YYYY-MM-DD hh:mm AM');
  });

  it('uses the contract wording for required', () => {
    expect(FIELD_MESSAGES.required).toBe('This field is required');
  });
});
