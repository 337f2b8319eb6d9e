import { describe, expect, it } from 'vitest';
import type { FieldOfType, FieldType, FieldValue, Values } from '../form-model.js';
import { FIELD_MESSAGES } from './field-messages.js';
import type { FieldTypeSpec } from './field-type-spec.js';
import {
  compileFieldPattern,
  confirmationFieldType,
  emailFieldType,
  hiddenFieldType,
  phoneFieldType,
  regexFieldType,
  textareaFieldType,
  textFieldType,
} from './text-field-types.js';

type Props<T extends FieldType> = Omit<FieldOfType<T>, 'type' | 'handle' | 'label'>;
function make<T extends FieldType>(type: T, props: Partial<Props<T>> = {}): FieldOfType<T> {
  return { type, handle: 'f', label: 'F', ...props } as FieldOfType<T>;
}

const specs = {
  text: textFieldType,
  textarea: textareaFieldType,
  hidden: hiddenFieldType,
  email: emailFieldType,
  phone: phoneFieldType,
  regex: regexFieldType,
  confirmation: confirmationFieldType,
} as const;
type TextType = keyof typeof specs;

function specOf<T extends TextType>(type: T): FieldTypeSpec<T> {
  return specs[type] as FieldTypeSpec<T>;
}

const fieldOf = (type: TextType) =>
  type === 'regex' ? make('regex', { pattern: '.*' }) : type === 'confirmation' ? make('confirmation', { target: 'x' }) : make(type);

describe('text-like normalise', () => {
  const types = Object.keys(specs) as TextType[];
  const cases: [string, unknown, FieldValue][] = [
    ['a string as typed', 'hello', 'hello'],
    ['a JSON number as text', 42, '42'],
    ['a decimal number as text', 1.5, '1.5'],
    ['a boolean as text', true, 'true'],
    ['undefined as empty', undefined, null],
    ['null as empty', null, null],
    ['the empty string as empty', '', null],
    ['a string at the hard limit', 'x'.repeat(100_000), 'x'.repeat(100_000)],
  ];
  it.each(types.flatMap((type) => cases.map(([name, raw, want]) => [type, name, raw, want] as const)))(
    '%s: %s',
    (type, _name, raw, want) => {
      expect(specOf(type).normalise(fieldOf(type) as never, raw)).toEqual({ ok: true, value: want });
    },
  );

  const failures: [string, unknown, string][] = [
    ['an object', { a: 1 }, FIELD_MESSAGES.notText],
    ['an array', ['a'], FIELD_MESSAGES.notText],
    ['NaN', Number.NaN, FIELD_MESSAGES.notText],
    ['a string over the hard limit', 'x'.repeat(100_001), FIELD_MESSAGES.textTooLong(100_000)],
  ];
  it.each(types.flatMap((type) => failures.map(([name, raw, error]) => [type, name, raw, error] as const)))(
    '%s rejects %s',
    (type, _name, raw, error) => {
      expect(specOf(type).normalise(fieldOf(type) as never, raw)).toEqual({ ok: false, error });
    },
  );

  it.each([
    ['text keeps surrounding spaces', 'text', '  hi  ', '  hi  '],
    ['phone keeps what is no number as typed', 'phone', ' +1 555 ', ' +1 555 '],
    ['email is trimmed', 'email', '  ann@example.com \n', 'ann@example.com'],
    ['email of only spaces is empty', 'email', '   ', null],
  ] as const)('%s', (_name, type, raw, want) => {
    expect(specOf(type).normalise(fieldOf(type) as never, raw)).toEqual({ ok: true, value: want });
  });
});

describe('text and textarea maxLength', () => {
  it.each([
    ['text', 5, 'hello', []],
    ['text', 5, 'hello!', [FIELD_MESSAGES.textTooLong(5)]],
    ['text', 5, '😀😀😀😀😀', []],
    ['text', 4, '😀😀😀😀😀', [FIELD_MESSAGES.textTooLong(4)]],
    ['text', 1, 'ab', ['Must be at most 1 character']],
    ['text', undefined, 'x'.repeat(5000), []],
    ['textarea', 3, 'a\nb', []],
    ['textarea', 3, 'a\nbc', [FIELD_MESSAGES.textTooLong(3)]],
    ['textarea', 500, 'y'.repeat(501), ['Must be at most 500 characters']],
  ] as const)('%s maxLength %s: %j', (type, maxLength, value, want) => {
    const field = make(type, maxLength === undefined ? {} : { maxLength });
    expect(specOf(type).validate(field as never, value, {})).toEqual(want);
  });

  it.each(['text', 'textarea', 'hidden', 'email', 'phone', 'regex'] as const)('%s refuses a non-string value', (type) => {
    expect(specOf(type).validate(fieldOf(type) as never, ['a'], {})).toEqual([FIELD_MESSAGES.notText]);
  });
});

describe('email', () => {
  const long = `${'a'.repeat(64)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(10)}.com`;
  it('uses an over-long address that is otherwise well formed', () => {
    expect(long.length).toBeGreaterThan(254);
  });
  it.each([
    ['ann@example.com', undefined, []],
    ['first.last+tag@sub.example.org', undefined, []],
    ["o'brien@example.ie", undefined, []],
    ['ann@localhost', undefined, []],
    ['ann@', undefined, [FIELD_MESSAGES.invalidEmail]],
    ['@example.com', undefined, [FIELD_MESSAGES.invalidEmail]],
    ['ann example@example.com', undefined, [FIELD_MESSAGES.invalidEmail]],
    ['ann@-example.com', undefined, [FIELD_MESSAGES.invalidEmail]],
    ['ann@example..com', undefined, [FIELD_MESSAGES.invalidEmail]],
    ['ann@@example.com', undefined, [FIELD_MESSAGES.invalidEmail]],
    [long, undefined, [FIELD_MESSAGES.invalidEmail]],
    [long.slice(0, 254 - 4) + '.com', undefined, []],
    ['ann@example.com', 10, [FIELD_MESSAGES.textTooLong(10)]],
    ['ann@', 10, [FIELD_MESSAGES.invalidEmail]],
    ['ann@example.com.', 30, [FIELD_MESSAGES.invalidEmail]],
    ['a@b', 10, []],
  ] as const)('%s (maxLength %s)', (value, maxLength, want) => {
    const field = make('email', maxLength === undefined ? {} : { maxLength });
    expect(emailFieldType.validate(field, value, {})).toEqual(want);
  });
});

describe('phone', () => {
  const pattern = '+1 (000) 000-0000';
  it.each([
    [pattern, '+1 (555) 123-4567', []],
    [pattern, '+1 (555) 123-456', [FIELD_MESSAGES.phoneFormat(pattern)]],
    [pattern, '+1 (555) 123-45678', [FIELD_MESSAGES.phoneFormat(pattern)]],
    [pattern, '+1 555 123 4567', [FIELD_MESSAGES.phoneFormat(pattern)]],
    [pattern, '+1 (55a) 123-4567', [FIELD_MESSAGES.phoneFormat(pattern)]],
    [pattern, '+1 (555) 123-4567 ', [FIELD_MESSAGES.phoneFormat(pattern)]],
    ['000.000', '123.456', []],
    ['000.000', '123x456', [FIELD_MESSAGES.phoneFormat('000.000')]],
    [undefined, '+44 20 7946 0958', []],
    [undefined, '(555) 123-4567', []],
    [undefined, '5551234567', []],
    [undefined, '555.1234', [FIELD_MESSAGES.invalidPhone]],
    [undefined, '12345', [FIELD_MESSAGES.invalidPhone]],
    [undefined, '12 34', [FIELD_MESSAGES.invalidPhone]],
    [undefined, '((((((', [FIELD_MESSAGES.invalidPhone]],
    [undefined, 'call 5551234567', [FIELD_MESSAGES.invalidPhone]],
    [undefined, '++15551234567', [FIELD_MESSAGES.invalidPhone]],
    [undefined, '1'.repeat(26), [FIELD_MESSAGES.invalidPhone]],
  ] as const)('pattern %s: %s', (phonePattern, value, want) => {
    const field = make('phone', phonePattern === undefined ? {} : { pattern: phonePattern });
    expect(phoneFieldType.validate(field, value, {})).toEqual(want);
  });
});

describe('phone: one canonical form (E.164)', () => {
  it.each([
    ['5551234567', undefined, '+15551234567'],
    ['555 123 4567', undefined, '+15551234567'],
    ['555-123-4567', undefined, '+15551234567'],
    ['(555) 123-4567', undefined, '+15551234567'],
    ['+1 555 123 4567', undefined, '+15551234567'],
    ['  +1 (555) 123-4567 ', undefined, '+15551234567'],
    ['+44 20 7946 0958', undefined, '+442079460958'],
    ['020 7946 0958', 'GB', '+442079460958'],
    ['5551234567', 'XX', '+15551234567'],
    ['call me', undefined, 'call me'],
    ['   ', undefined, null],
  ] as const)('%s (defaultCountry %s) is stored as %s', (raw, defaultCountry, want) => {
    const field = make('phone', defaultCountry === undefined ? {} : { defaultCountry });
    expect(phoneFieldType.normalise(field, raw)).toEqual({ ok: true, value: want });
  });

  it('a number stored canonically validates, and a pattern keeps what was typed', () => {
    expect(phoneFieldType.validate(make('phone'), '+15551234567', {})).toEqual([]);
    const masked = make('phone', { pattern: '(000) 000-0000' });
    expect(phoneFieldType.normalise(masked, '(555) 123-4567')).toEqual({ ok: true, value: '(555) 123-4567' });
  });

  it('a UK number typed without +44 is refused where the default country is US', () => {
    expect(phoneFieldType.validate(make('phone'), '020 7946 0958', {})).toEqual([FIELD_MESSAGES.invalidPhone]);
  });
});

describe('regex', () => {
  it.each([
    ['^[A-Z]{3}$', undefined, 'ABC', []],
    ['^[A-Z]{3}$', undefined, 'ABCD', [FIELD_MESSAGES.patternMismatch]],
    ['^[A-Z]{3}$', 'Three capitals', 'abc', ['Three capitals']],
    ['\\d', undefined, 'a1b', []],
    ['\\d', undefined, 'abc', [FIELD_MESSAGES.patternMismatch]],
    ['^.$', undefined, '😀', []],
    ['^\\p{Lu}+$', undefined, 'ÄBC', []],
    ['(', 'Invalid', 'anything', ['Invalid']],
  ] as const)('/%s/ message %s: %s', (pattern, message, value, want) => {
    const field = make('regex', message === undefined ? { pattern } : { pattern, message });
    expect(regexFieldType.validate(field, value, {})).toEqual(want);
  });

  it('compiles each pattern once', () => {
    const first = compileFieldPattern('^cached$');
    expect(first).toBeInstanceOf(RegExp);
    expect(compileFieldPattern('^cached$')).toBe(first);
    expect(compileFieldPattern('[')).toBeNull();
  });
});

describe('confirmation', () => {
  const field = make('confirmation', { target: 'email' });
  it.each([
    ['a matching value', 'ann@example.com', { email: 'ann@example.com' }, []],
    ['a different case', 'Ann@example.com', { email: 'ann@example.com' }, [FIELD_MESSAGES.mismatch]],
    ['a missing target', 'ann@example.com', {}, [FIELD_MESSAGES.mismatch]],
    ['a null target', 'x', { email: null }, [FIELD_MESSAGES.mismatch]],
    ['a numeric target', '12', { email: 12 }, []],
  ] as const)('%s', (_name, value, values: Values, want) => {
    expect(confirmationFieldType.validate(field, value, values)).toEqual(want);
  });

  it('does not read inherited properties as a target value', () => {
    const tricky = make('confirmation', { target: 'constructor' });
    expect(confirmationFieldType.validate(tricky, String(Object), {})).toEqual([FIELD_MESSAGES.mismatch]);
  });
});

describe('text-like defaults', () => {
  it.each([
    ['text', make('text', { value: 'hi' }), 'hi'],
    ['text without value', make('text'), null],
    ['text with empty value', make('text', { value: '' }), null],
    ['textarea', make('textarea', { value: 'a\nb' }), 'a\nb'],
    ['hidden', make('hidden', { value: 'campaign-7' }), 'campaign-7'],
    ['phone', make('phone', { value: '+1' }), '+1'],
    ['regex', make('regex', { pattern: '.', value: 'x' }), 'x'],
    ['email', make('email'), null],
    ['confirmation', make('confirmation', { target: 'email' }), null],
  ] as const)('%s', (_name, field, want) => {
    expect(specOf(field.type).defaultValue(field as never)).toEqual(want);
  });
});
