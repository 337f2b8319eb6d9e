import { describe, expect, it } from 'vitest';
import type { NumberField } from '../form-model.js';
import { FIELD_MESSAGES } from './field-messages.js';
import { numberFieldType, parseDecimal } from './number-field-type.js';

const plain: NumberField = { type: 'number', handle: 'n', label: 'N' };
const european: NumberField = { ...plain, decimalSeparator: ',', thousandsSeparator: '.' };
const english: NumberField = { ...plain, thousandsSeparator: ',' };
const spaced: NumberField = { ...plain, decimalSeparator: ',', thousandsSeparator: ' ' };
const swiss: NumberField = { ...plain, thousandsSeparator: "'" };

const fields = { plain, european, english, spaced, swiss } as const;

describe('number normalise', () => {
  it.each([
    ['plain', 42, '42'],
    ['plain', -3, '-3'],
    ['plain', 1.5, '1.5'],
    ['plain', -0, '0'],
    ['plain', '1234.5', '1234.5'],
    ['plain', '  7  ', '7'],
    ['plain', '+7', '7'],
    ['plain', '-3', '-3'],
    ['plain', '\u22123', '-3'],
    ['plain', '007', '7'],
    ['plain', '1.50', '1.5'],
    ['plain', '2.000', '2'],
    ['plain', '-0.0', '0'],
    ['plain', '.5', '0.5'],
    ['plain', '5.', '5'],
    ['plain', '', null],
    ['plain', '   ', null],
    ['plain', undefined, null],
    ['plain', null, null],
    ['european', '1.234,5', '1234.5'],
    ['european', '1.234.567,89', '1234567.89'],
    ['european', '-12,75', '-12.75'],
    ['european', '1234,5', '1234.5'],
    ['european', '1234.5', '1234.5'],
    ['european', 1234.5, '1234.5'],
    ['european', '1.234', '1234'],
    ['english', '1,234.5', '1234.5'],
    ['english', '1,234,567', '1234567'],
    ['english', '1234567', '1234567'],
    ['spaced', '1 234,5', '1234.5'],
    ['spaced', '1\u00a0234,5', '1234.5'],
    ['spaced', '12\u202f345', '12345'],
    ['swiss', "1'234.5", '1234.5'],
  ] as const)('%s format reads %j', (format, raw, want) => {
    expect(numberFieldType.normalise(fields[format], raw)).toEqual({ ok: true, value: want });
  });

  it.each([
    ['plain', 'abc'],
    ['plain', '1e5'],
    ['plain', '1E5'],
    ['plain', 1e21],
    ['plain', 1e-7],
    ['plain', Number.NaN],
    ['plain', Number.POSITIVE_INFINITY],
    ['plain', 'NaN'],
    ['plain', 'Infinity'],
    ['plain', '0x10'],
    ['plain', '1.2.3'],
    ['plain', '--1'],
    ['plain', '-'],
    ['plain', '.'],
    ['plain', '1 000'],
    ['plain', true],
    ['plain', { value: 1 }],
    ['plain', ['1']],
    ['plain', '1'.repeat(100_001)],
    ['european', '1,2,3'],
    ['european', '1.23,4'],
    ['english', '1,23'],
    ['english', '12,34,567'],
    ['english', ',123'],
  ] as const)('%s format rejects %j', (format, raw) => {
    expect(numberFieldType.normalise(fields[format], raw)).toEqual({ ok: false, error: FIELD_MESSAGES.notNumber });
  });

  it('is idempotent: a normalised value normalises to itself', () => {
    for (const raw of ['1.234,5', '-0,25', '1.000.000']) {
      const once = numberFieldType.normalise(european, raw);
      expect(once.ok).toBe(true);
      if (once.ok) expect(numberFieldType.normalise(european, once.value)).toEqual(once);
    }
  });

  it('parseDecimal defaults to the canonical format', () => {
    expect(parseDecimal('1,5')).toEqual({ ok: false, error: FIELD_MESSAGES.notNumber });
    expect(parseDecimal('-1.5')).toEqual({ ok: true, value: '-1.5' });
  });
});

describe('number validate', () => {
  it.each([
    ['negative refused by default', {}, '-3', [FIELD_MESSAGES.negative]],
    ['negative refused when disallowed', { allowNegative: false }, '-0.5', [FIELD_MESSAGES.negative]],
    ['negative allowed', { allowNegative: true }, '-3', []],
    ['zero is not negative', {}, '0', []],
    ['integer-only accepts integers', { decimalCount: 0 }, '12', []],
    ['integer-only refuses decimals', { decimalCount: 0 }, '12.5', [FIELD_MESSAGES.wholeNumber]],
    ['decimalCount allows fewer', { decimalCount: 2 }, '1.5', []],
    ['decimalCount allows exactly', { decimalCount: 2 }, '1.25', []],
    ['decimalCount refuses more', { decimalCount: 2 }, '1.255', [FIELD_MESSAGES.tooManyDecimals(2)]],
    ['decimalCount 1 message', { decimalCount: 1 }, '1.25', ['Must have at most 1 decimal place']],
    ['any decimals without decimalCount', {}, '3.14159265', []],
    ['minValue inclusive', { minValue: 10 }, '10', []],
    ['below minValue', { minValue: 10 }, '9.99', [FIELD_MESSAGES.belowMin(10)]],
    ['negative minValue', { minValue: -5, allowNegative: true }, '-6', ['Must be at least -5']],
    ['maxValue inclusive', { maxValue: 100 }, '100', []],
    ['above maxValue', { maxValue: 100 }, '100.01', ['Must be at most 100']],
    ['huge value above maxValue', { maxValue: 100 }, '9'.repeat(400), [FIELD_MESSAGES.aboveMax(100)]],
    ['minLength met', { minLength: 3 }, '100', []],
    ['minLength counts decimals', { minLength: 3 }, '1.25', []],
    ['minLength not met', { minLength: 3 }, '99', [FIELD_MESSAGES.tooFewDigits(3)]],
    ['minLength ignores the sign', { minLength: 3, allowNegative: true }, '-12', ['Must have at least 3 digits']],
    [
      'every broken constraint',
      { minValue: 0, decimalCount: 0, minLength: 4 },
      '-1.5',
      [FIELD_MESSAGES.negative, FIELD_MESSAGES.wholeNumber, FIELD_MESSAGES.belowMin(0), FIELD_MESSAGES.tooFewDigits(4)],
    ],
    ['a non-canonical value', {}, '1,5', [FIELD_MESSAGES.notNumber]],
    ['a non-string value', {}, 5, [FIELD_MESSAGES.notNumber]],
  ] as const)('%s', (_name, props: Partial<NumberField>, value, want) => {
    expect(numberFieldType.validate({ ...plain, ...props }, value, {})).toEqual(want);
  });

  it.each([
    [{}, null],
    [{ value: '5' }, '5'],
    [{ value: '1.234,5', decimalSeparator: ',', thousandsSeparator: '.' }, '1234.5'],
    [{ value: 'many' }, null],
  ] as const)('default of %j is %j', (props, want) => {
    expect(numberFieldType.defaultValue({ ...plain, ...props })).toEqual(want);
  });
});
