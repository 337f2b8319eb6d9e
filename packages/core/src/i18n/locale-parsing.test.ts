/** Numbers and dates typed the way a site's language writes them (issue #34 item 3). */
import { describe, expect, it } from 'vitest';
import { datetimeFieldChecks } from '../fields/datetime-field-type.js';
import { FIELD_MESSAGES, fieldMessages } from '../fields/field-messages.js';
import { numberFieldChecks } from '../fields/number-field-type.js';
import type { DatetimeField, NumberField } from '../form-model.js';
import { validateValues } from '../field-registry.js';
import { formatLocaleNumber, parseLocaleNumber } from './locale-numbers.js';

describe('parseLocaleNumber', () => {
  it.each([
    ['de-DE', '1.234,5', 1234.5],
    ['de', '-0,25', -0.25],
    ['de', '1.234.567', 1234567],
    ['de', '12,5', 12.5],
    ['fr', '1 234,5', 1234.5],
    ['fr', '1\u202f234,5', 1234.5],
    ['es', '1.234,5', 1234.5],
    ['nl', '1.234,5', 1234.5],
    ['de-CH', '1’234.5', 1234.5],
    ['en-US', '1,234.5', 1234.5],
    ['ar-EG', '١٢٣٫٥', 123.5],
    ['ar', '123.5', 123.5],
    ['de', '1.5', 1.5],
    ['de', '1,2,3', null],
    ['de', 'zwölf', null],
    ['de', '', null],
  ])('%s reads %j as %j', (tag, text, expected) => {
    expect(parseLocaleNumber(tag, text)).toBe(expected);
  });

  it('prints numbers and amounts the way the language writes them', () => {
    expect(formatLocaleNumber('de-DE', 1234.5)).toBe('1.234,5');
    expect(formatLocaleNumber('en', 1234.5)).toBe('1,234.5');
    expect(formatLocaleNumber('de-DE', 12.5, { style: 'currency', currency: 'EUR' })).toBe('12,50\u00a0€');
  });
});

const plain: NumberField = { type: 'number', handle: 'n', label: 'N', allowNegative: true };

describe('a number field on a site with a language', () => {
  it.each([
    ['de-DE', '1.234,5', '1234.5'],
    ['de-DE', '1234.5', '1234.5'],
    // The canonical form wins, so a stored value reads back as itself whatever the site.
    ['de-DE', '1.234', '1.234'],
    ['fr-FR', '1 234,5', '1234.5'],
    ['ar-EG', '١٬٢٣٤٫٥', '1234.5'],
    ['en', '1,234.5', '1234.5'],
  ])('%s: %j normalises to %j', (tag, raw, expected) => {
    expect(numberFieldChecks.normalise(plain, raw, fieldMessages(tag))).toEqual({ ok: true, value: expected });
  });

  it('refuses what is no number in the language, in its words', () => {
    expect(numberFieldChecks.normalise(plain, '1,2,3', fieldMessages('de'))).toEqual({ ok: false, error: 'Geben Sie eine Zahl ein' });
    expect(numberFieldChecks.normalise(plain, '1,5', FIELD_MESSAGES)).toEqual({ ok: false, error: 'Enter a number' });
  });

  it('validates with the messages given', () => {
    const field: NumberField = { ...plain, maxValue: 10 };
    expect(validateValues([field], { n: '12,5' }, {}, fieldMessages('de-DE')).errors).toEqual({ n: ['Darf höchstens 10 sein'] });
    expect(validateValues([{ ...field, required: true }], {}, {}, fieldMessages('ar')).errors).toEqual({ n: ['هذا الحقل مطلوب'] });
    expect(validateValues([field], { n: '12' }).errors).toEqual({ n: ['Must be at most 10'] });
  });
});

const dayFirst: DatetimeField = { type: 'datetime', handle: 'd', label: 'D', dateOrder: 'dmy', dateSeparator: '/' };
const isoField: DatetimeField = { type: 'datetime', handle: 'd', label: 'D' };

describe('a date field on a site with a language', () => {
  it.each([
    ['de-DE', dayFirst, '31.12.2026', '2026-12-31'],
    ['de-DE', dayFirst, '31/12/2026', '2026-12-31'],
    ['nl-NL', dayFirst, '31-12-2026', '2026-12-31'],
    ['ar-EG', dayFirst, '٣١/١٢/٢٠٢٦', '2026-12-31'],
    ['de-DE', { ...dayFirst, dateTimeType: 'both' }, '31.12.2026 14:30', '2026-12-31T14:30'],
  ] as const)('%s: %j reads %j as %s', (tag, field, raw, expected) => {
    expect(datetimeFieldChecks.normalise(field, raw, fieldMessages(tag))).toEqual({ ok: true, value: expected });
  });

  it.each([
    // The field's own order decides: a year-first field does not start reading day-first dates.
    ['de-DE', isoField, '31.12.2026', 'Geben Sie ein gültiges Datum im Format YYYY-MM-DD ein'],
    // English (US) writes month first, so a day-first field gains nothing from it.
    ['en-US', dayFirst, '31.12.2026', 'Enter a valid date in the format DD/MM/YYYY'],
    ['de-DE', dayFirst, '31.13.2026', 'Geben Sie ein gültiges Datum im Format DD/MM/YYYY ein'],
  ] as const)('%s: %j refuses %j', (tag, field, raw, error) => {
    expect(datetimeFieldChecks.normalise(field, raw, fieldMessages(tag))).toEqual({ ok: false, error });
  });
});
