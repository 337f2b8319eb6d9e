import { describe, expect, it } from 'vitest';
import type { CheckboxField, FileField, MailingListField, RatingField, SignatureField } from '../form-model.js';
import { FIELD_MESSAGES } from './field-messages.js';
import {
  checkboxFieldType,
  fileFieldType,
  mailingListFieldType,
  ratingFieldType,
  signatureFieldType,
  submitFieldType,
} from './misc-field-types.js';

const base = { handle: 'f', label: 'F' } as const;
const checkbox: CheckboxField = { ...base, type: 'checkbox' };
const agree: CheckboxField = { ...base, type: 'checkbox', value: 'agreed' };
const zeroValued: CheckboxField = { ...base, type: 'checkbox', value: '0' };

describe('checkbox', () => {
  it.each([
    ['true', checkbox, true, '1'],
    ['1', checkbox, 1, '1'],
    ["'1'", checkbox, '1', '1'],
    ["'true'", checkbox, 'true', '1'],
    ["'on'", checkbox, 'on', '1'],
    ["'yes'", checkbox, 'yes', '1'],
    ["'YES'", checkbox, 'YES', '1'],
    ['its own value', agree, 'agreed', 'agreed'],
    ['a generic truthy word with a configured value', agree, true, 'agreed'],
    ['a numeric value equal to the configured one', { ...checkbox, value: '5' }, 5, '5'],
    ['its own value even when it looks falsy', zeroValued, '0', '0'],
    ['false', checkbox, false, null],
    ['0', checkbox, 0, null],
    ["'0'", checkbox, '0', null],
    ["'false'", checkbox, 'false', null],
    ["''", checkbox, '', null],
    ['null', checkbox, null, null],
    ['undefined', checkbox, undefined, null],
  ] as const)('normalises %s', (_name, field, raw, want) => {
    expect(checkboxFieldType.normalise(field, raw)).toEqual({ ok: true, value: want });
  });

  it.each([
    ['another word', checkbox, 'maybe'],
    ['another value', agree, 'disagreed'],
    ['the number 2', checkbox, 2],
    ['an object', checkbox, { checked: true }],
    ['a list', checkbox, ['1']],
  ] as const)('rejects %s', (_name, field, raw) => {
    expect(checkboxFieldType.normalise(field, raw)).toEqual({ ok: false, error: FIELD_MESSAGES.invalidCheckbox });
  });

  it.each([
    [checkbox, '1', []],
    [agree, 'agreed', []],
    [agree, '1', [FIELD_MESSAGES.invalidCheckbox]],
    [checkbox, true, [FIELD_MESSAGES.invalidCheckbox]],
  ] as const)('validates %j with %j', (field, value, want) => {
    expect(checkboxFieldType.validate(field, value, {})).toEqual(want);
  });

  it.each([
    [checkbox, null],
    [{ ...checkbox, checked: true }, '1'],
    [{ ...agree, checked: true }, 'agreed'],
    [{ ...agree, checked: false }, null],
  ] as const)('default of %j is %j', (field, want) => {
    expect(checkboxFieldType.defaultValue(field)).toEqual(want);
  });
});

describe('mailingList', () => {
  const optIn: MailingListField = { ...base, type: 'mailingList' };
  const hidden: MailingListField = { ...optIn, hidden: true };
  it.each([
    [optIn, true, true],
    [optIn, 1, true],
    [optIn, '1', true],
    [optIn, 'true', true],
    [optIn, 'on', true],
    [optIn, 'yes', true],
    [optIn, false, false],
    [optIn, 0, false],
    [optIn, '0', false],
    [optIn, 'false', false],
    [optIn, '', false],
    [optIn, undefined, false],
    [hidden, false, true],
    [hidden, undefined, true],
    [hidden, { nonsense: true }, true],
  ] as const)('%j reads %j as %j', (field, raw, want) => {
    expect(mailingListFieldType.normalise(field, raw)).toEqual({ ok: true, value: want });
  });

  it.each([['maybe'], [2], [{}], [['1']]] as const)('rejects %j', (raw) => {
    expect(mailingListFieldType.normalise(optIn, raw)).toEqual({ ok: false, error: FIELD_MESSAGES.invalidOptIn });
  });

  it.each([
    [true, []],
    ['1', [FIELD_MESSAGES.invalidOptIn]],
  ] as const)('validates %j', (value, want) => {
    expect(mailingListFieldType.validate(optIn, value, {})).toEqual(want);
  });

  it.each([
    [optIn, false],
    [hidden, true],
  ] as const)('default of %j is %j', (field, want) => {
    expect(mailingListFieldType.defaultValue(field)).toBe(want);
  });
});

describe('rating', () => {
  const rating: RatingField = { ...base, type: 'rating' };
  const ten: RatingField = { ...rating, maxValue: 10 };
  it.each([
    [4, 4],
    ['4', 4],
    [' 3 ', 3],
    ['', null],
    [null, null],
    [undefined, null],
  ] as const)('normalises %j to %j', (raw, want) => {
    expect(ratingFieldType.normalise(rating, raw)).toEqual({ ok: true, value: want });
  });

  it.each([[2.5], ['2.5'], ['four'], ['-1'], [true], [[3]], ['1'.repeat(7)]] as const)('rejects %j', (raw) => {
    expect(ratingFieldType.normalise(rating, raw)).toEqual({ ok: false, error: FIELD_MESSAGES.invalidRating(5) });
  });

  it.each([
    [rating, 1, []],
    [rating, 5, []],
    [rating, 0, ['Choose a rating from 1 to 5']],
    [rating, 6, [FIELD_MESSAGES.invalidRating(5)]],
    [ten, 10, []],
    [ten, 11, [FIELD_MESSAGES.invalidRating(10)]],
    [rating, '3', [FIELD_MESSAGES.invalidRating(5)]],
  ] as const)('%j validates %j', (field, value, want) => {
    expect(ratingFieldType.validate(field, value, {})).toEqual(want);
  });

  it.each([
    [rating, null],
    [{ ...rating, value: '3' }, 3],
    [{ ...rating, value: 'x' }, null],
  ] as const)('default of %j is %j', (field, want) => {
    expect(ratingFieldType.defaultValue(field)).toEqual(want);
  });
});

describe('signature', () => {
  const signature: SignatureField = { ...base, type: 'signature' };
  const prefix = 'data:image/png;base64,';
  const png = `${prefix}iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==`;
  /** Exactly 512 KiB decoded: 524288 bytes = 174762 full groups + 2 bytes (one '=' of padding). */
  const atLimit = `${prefix}${'A'.repeat(174_762 * 4)}AAA=`;
  const overLimit = `${prefix}${'A'.repeat(174_763 * 4)}`;

  it.each([
    ['a PNG data URL', png, png],
    ['empty', '', null],
    ['null', null, null],
  ] as const)('normalises %s', (_name, raw, want) => {
    expect(signatureFieldType.normalise(signature, raw)).toEqual({ ok: true, value: want });
  });

  it.each([
    ['a number', 5, FIELD_MESSAGES.invalidSignature],
    ['an object', { data: png }, FIELD_MESSAGES.invalidSignature],
    ['an oversized string', `${overLimit}AAAA`, FIELD_MESSAGES.signatureTooLarge(512)],
  ] as const)('rejects %s', (_name, raw, error) => {
    expect(signatureFieldType.normalise(signature, raw)).toEqual({ ok: false, error });
  });

  it.each([
    ['a PNG data URL', png, []],
    ['exactly 512 KiB', atLimit, []],
    ['over 512 KiB', overLimit, [FIELD_MESSAGES.signatureTooLarge(512)]],
    ['another image type', png.replace('image/png', 'image/svg+xml'), [FIELD_MESSAGES.invalidSignature]],
    ['plain text', 'my name', [FIELD_MESSAGES.invalidSignature]],
    ['no payload', prefix, [FIELD_MESSAGES.invalidSignature]],
    ['bad base64 characters', `${prefix}iVBO*w0K`, [FIELD_MESSAGES.invalidSignature]],
    ['bad base64 length', `${prefix}iVBORw0`, [FIELD_MESSAGES.invalidSignature]],
    ['padding in the middle', `${prefix}iV==Rw0K`, [FIELD_MESSAGES.invalidSignature]],
    ['three padding characters', `${prefix}iV===`, [FIELD_MESSAGES.invalidSignature]],
    ['a list', [png], [FIELD_MESSAGES.invalidSignature]],
  ] as const)('validates %s', (_name, value, want) => {
    expect(signatureFieldType.validate(signature, value, {})).toEqual(want);
  });

  it('starts empty', () => {
    expect(signatureFieldType.defaultValue(signature)).toBeNull();
  });
});

describe('file', () => {
  const file: FileField = { ...base, type: 'file' };
  const three: FileField = { ...file, fileCount: 3 };
  it.each([
    ['one id', 'abc_123', ['abc_123']],
    ['a list', ['a', 'b'], ['a', 'b']],
    ['duplicates', ['a', 'a'], ['a']],
    ['nothing', undefined, []],
    ['an empty list', [], []],
  ] as const)('normalises %s', (_name, raw, want) => {
    expect(fileFieldType.normalise(file, raw)).toEqual({ ok: true, value: want });
  });

  it('rejects an object', () => {
    expect(fileFieldType.normalise(file, { id: 'a' })).toEqual({ ok: false, error: FIELD_MESSAGES.notList });
  });

  it.each([
    [file, ['Ab-9_z'], []],
    [file, ['x'.repeat(64)], []],
    [file, ['x'.repeat(65)], [FIELD_MESSAGES.invalidUpload]],
    [file, ['../etc/passwd'], [FIELD_MESSAGES.invalidUpload]],
    [file, ['has space'], [FIELD_MESSAGES.invalidUpload]],
    [file, ['a', 'b'], ['Upload at most 1 file']],
    [three, ['a', 'b', 'c'], []],
    [three, ['a', 'b', 'c', 'd'], [FIELD_MESSAGES.tooManyFiles(3)]],
    [three, ['a', 'b', 'c', 'd/'], [FIELD_MESSAGES.invalidUpload, FIELD_MESSAGES.tooManyFiles(3)]],
    [file, 'a', [FIELD_MESSAGES.notList]],
  ] as const)('%j validates %j', (field, value, want) => {
    expect(fileFieldType.validate(field, value, {})).toEqual(want);
  });

  it('starts empty', () => {
    expect(fileFieldType.defaultValue(file)).toEqual([]);
  });
});

describe('submit', () => {
  const submit = { type: 'submit', handle: null, label: 'Send' } as const;
  it.each([[undefined], ['clicked'], [{ any: 'thing' }]] as const)('takes no value from %j', (raw) => {
    expect(submitFieldType.normalise(submit, raw)).toEqual({ ok: true, value: null });
    expect(submitFieldType.validate(submit, 'x', {})).toEqual([]);
    expect(submitFieldType.defaultValue(submit)).toBeNull();
  });
});
