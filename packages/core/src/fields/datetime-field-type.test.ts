import { describe, expect, it } from 'vitest';
import type { DatetimeField } from '../form-model.js';
import { datetimeFieldType, formatDatetimePlaceholder } from './datetime-field-type.js';
import { FIELD_MESSAGES } from './field-messages.js';

const base: DatetimeField = { type: 'datetime', handle: 'd', label: 'D' };
const make = (props: Partial<DatetimeField>): DatetimeField => ({ ...base, ...props });

const us12 = make({ dateTimeType: 'both', dateOrder: 'mdy', dateSeparator: '/', clock24h: false, clockAMPMSeparate: true });

describe('datetime normalise', () => {
  it.each([
    ['ISO date', {}, '2025-02-28', '2025-02-28'],
    ['ISO date with spaces around', {}, ' 2025-02-28 ', '2025-02-28'],
    ['leap day', {}, '2024-02-29', '2024-02-29'],
    ['leap day of a 400th year', {}, '2000-02-29', '2000-02-29'],
    ['leap day of an early year', {}, '0004-02-29', '0004-02-29'],
    ['ISO time', { dateTimeType: 'time' }, '09:05', '09:05'],
    ['ISO time with seconds', { dateTimeType: 'time' }, '23:59:59', '23:59'],
    ['ISO date-time', { dateTimeType: 'both' }, '2025-03-01T14:30', '2025-03-01T14:30'],
    ['ISO date-time with seconds', { dateTimeType: 'both' }, '2025-03-01T14:30:15', '2025-03-01T14:30'],
    ['ISO date-time with a space', { dateTimeType: 'both' }, '2025-03-01 14:30', '2025-03-01T14:30'],
    ['dmy with slashes', { dateOrder: 'dmy', dateSeparator: '/' }, '31/12/2025', '2025-12-31'],
    ['dmy still takes ISO', { dateOrder: 'dmy', dateSeparator: '/' }, '2025-12-31', '2025-12-31'],
    ['mdy with dots', { dateOrder: 'mdy', dateSeparator: '.' }, '12.31.2025', '2025-12-31'],
    ['ymd with slashes', { dateSeparator: '/' }, '2025/01/02', '2025-01-02'],
    ['two-digit year', { dateOrder: 'dmy', dateSeparator: '/', date4DigitYear: false }, '05/06/25', '2025-06-05'],
    ['no leading zero', { dateOrder: 'dmy', dateSeparator: '.', dateLeadingZero: false }, '5.6.2025', '2025-06-05'],
    ['no leading zero, two digits', { dateOrder: 'dmy', dateSeparator: '.', dateLeadingZero: false }, '15.11.2025', '2025-11-15'],
    ['no separator', { dateOrder: 'dmy', dateSeparator: '' }, '31122025', '2025-12-31'],
    ['24h display time', { dateTimeType: 'time' }, '9:05', '09:05'],
    ['custom clock separator', { dateTimeType: 'time', clockSeparator: '.' }, '14.30', '14:30'],
    ['12h PM', { dateTimeType: 'time', clock24h: false }, '2:30pm', '14:30'],
    ['12h PM with a space', { dateTimeType: 'time', clock24h: false, clockAMPMSeparate: true }, '02:30 PM', '14:30'],
    ['12h midnight', { dateTimeType: 'time', clock24h: false }, '12:00AM', '00:00'],
    ['12h noon', { dateTimeType: 'time', clock24h: false }, '12:15PM', '12:15'],
    ['12h takes ISO 24h', { dateTimeType: 'time', clock24h: false }, '18:45', '18:45'],
    ['US both', us12, '12/31/2025 11:59 PM', '2025-12-31T23:59'],
    ['US both, no leading zeros', us12, '1/2/2025 9:05 am', '2025-01-02T09:05'],
    ['empty', {}, '', null],
    ['blank', {}, '   ', null],
    ['null', {}, null, null],
    ['undefined', {}, undefined, null],
  ] as const)('%s: %j', (_name, props, raw, want) => {
    expect(datetimeFieldType.normalise(make(props as Partial<DatetimeField>), raw)).toEqual({ ok: true, value: want });
  });

  it.each([
    ['an impossible day', {}, '2025-02-30', FIELD_MESSAGES.invalidDate('YYYY-MM-DD')],
    ['29 February outside a leap year', {}, '2025-02-29', FIELD_MESSAGES.invalidDate('YYYY-MM-DD')],
    ['29 February of a century', {}, '2100-02-29', FIELD_MESSAGES.invalidDate('YYYY-MM-DD')],
    ['31 April', {}, '2025-04-31', FIELD_MESSAGES.invalidDate('YYYY-MM-DD')],
    ['month 13', {}, '2025-13-01', FIELD_MESSAGES.invalidDate('YYYY-MM-DD')],
    ['day zero', {}, '2025-01-00', FIELD_MESSAGES.invalidDate('YYYY-MM-DD')],
    ['year zero', {}, '0000-01-01', FIELD_MESSAGES.invalidDate('YYYY-MM-DD')],
    ['free text', {}, 'tomorrow', FIELD_MESSAGES.invalidDate('YYYY-MM-DD')],
    ['a time for a date field', {}, '2025-01-01T10:00', FIELD_MESSAGES.invalidDate('YYYY-MM-DD')],
    ['a zoned timestamp', { dateTimeType: 'both' }, '2025-01-01T10:00:00.000Z', FIELD_MESSAGES.invalidDateTime('YYYY-MM-DD HH:mm')],
    ['a date for a both field', { dateTimeType: 'both' }, '2025-01-01', FIELD_MESSAGES.invalidDateTime('YYYY-MM-DD HH:mm')],
    ['the wrong order', { dateOrder: 'dmy', dateSeparator: '/' }, '12/31/2025', FIELD_MESSAGES.invalidDate('DD/MM/YYYY')],
    ['the wrong separator', { dateOrder: 'dmy', dateSeparator: '/' }, '31.12.2025', FIELD_MESSAGES.invalidDate('DD/MM/YYYY')],
    ['hour 24', { dateTimeType: 'time' }, '24:00', FIELD_MESSAGES.invalidTime('HH:mm')],
    ['minute 60', { dateTimeType: 'time' }, '10:60', FIELD_MESSAGES.invalidTime('HH:mm')],
    ['second 60', { dateTimeType: 'time' }, '10:00:60', FIELD_MESSAGES.invalidTime('HH:mm')],
    ['12h hour 13', { dateTimeType: 'time', clock24h: false }, '13:00pm', FIELD_MESSAGES.invalidTime('hh:mmAM')],
    ['12h hour 0', { dateTimeType: 'time', clock24h: false }, '0:30am', FIELD_MESSAGES.invalidTime('hh:mmAM')],
    ['a meridiem on a 24h clock', { dateTimeType: 'time' }, '2:30pm', FIELD_MESSAGES.invalidTime('HH:mm')],
    ['a number', {}, 20250101, FIELD_MESSAGES.invalidDate('YYYY-MM-DD')],
    ['an object', {}, { date: '2025-01-01' }, FIELD_MESSAGES.invalidDate('YYYY-MM-DD')],
  ] as const)('rejects %s', (_name, props, raw, error) => {
    expect(datetimeFieldType.normalise(make(props as Partial<DatetimeField>), raw)).toEqual({ ok: false, error });
  });
});

describe('datetime validate', () => {
  const limited = make({ minDate: '2025-01-01', maxDate: '2025-12-31' });
  it.each([
    ['on minDate', limited, '2025-01-01', []],
    ['on maxDate', limited, '2025-12-31', []],
    ['inside the range', limited, '2025-06-15', []],
    ['before minDate', limited, '2024-12-31', [FIELD_MESSAGES.dateBeforeMin('2025-01-01')]],
    ['after maxDate', limited, '2026-01-01', [FIELD_MESSAGES.dateAfterMax('2025-12-31')]],
    ['limits shown in the display format', make({ ...limited, dateOrder: 'dmy', dateSeparator: '/' }), '2024-05-01', ['Must be on or after 01/01/2025']],
    ['limits shown without leading zeros', make({ minDate: '2025-03-04', dateOrder: 'mdy', dateSeparator: '/', dateLeadingZero: false, date4DigitYear: false }), '2025-03-03', ['Must be on or after 3/4/25']],
    ['date part of a date-time on maxDate', make({ ...limited, dateTimeType: 'both' }), '2025-12-31T23:59', []],
    ['date part of a date-time after maxDate', make({ ...limited, dateTimeType: 'both' }), '2026-01-01T00:00', [FIELD_MESSAGES.dateAfterMax('2025-12-31')]],
    ['limits ignored for a time', make({ ...limited, dateTimeType: 'time' }), '00:00', []],
    ['a malformed limit is ignored', make({ minDate: 'soon' }), '1999-01-01', []],
    ['a value of the wrong shape', limited, '2025-01-01T10:00', [FIELD_MESSAGES.invalidDate('YYYY-MM-DD')]],
    ['a time of the wrong shape', make({ dateTimeType: 'time' }), '9:00', [FIELD_MESSAGES.invalidTime('HH:mm')]],
    ['a non-string', limited, 20250101, [FIELD_MESSAGES.invalidDate('YYYY-MM-DD')]],
  ] as const)('%s', (_name, field, value, want) => {
    expect(datetimeFieldType.validate(field, value, {})).toEqual(want);
  });

  it.each([
    [{}, null],
    [{ value: '2025-05-06' }, '2025-05-06'],
    [{ value: '06/05/2025', dateOrder: 'dmy', dateSeparator: '/' }, '2025-05-06'],
    [{ value: 'now' }, null],
  ] as const)('default of %j is %j', (props, want) => {
    expect(datetimeFieldType.defaultValue(make(props as Partial<DatetimeField>))).toEqual(want);
  });
});

describe('formatDatetimePlaceholder', () => {
  it.each([
    [{}, 'YYYY-MM-DD'],
    [{ dateOrder: 'dmy', dateSeparator: '/' }, 'DD/MM/YYYY'],
    [{ dateOrder: 'mdy', dateSeparator: '.', date4DigitYear: false, dateLeadingZero: false }, 'M.D.YY'],
    [{ dateTimeType: 'time' }, 'HH:mm'],
    [{ dateTimeType: 'time', clockSeparator: '.' }, 'HH.mm'],
    [{ dateTimeType: 'time', clock24h: false }, 'hh:mmAM'],
    [{ dateTimeType: 'both', dateOrder: 'dmy', dateSeparator: '/', clock24h: false, clockAMPMSeparate: true }, 'DD/MM/YYYY hh:mm AM'],
    [{ dateTimeType: 'both' }, 'YYYY-MM-DD HH:mm'],
  ] as const)('%j -> %s', (props, want) => {
    expect(formatDatetimePlaceholder(make(props as Partial<DatetimeField>))).toBe(want);
  });
});
