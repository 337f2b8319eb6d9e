import { describe, expect, it } from 'vitest';
import { FIELD_MESSAGES } from './field-messages.js';
import { coerceText, coerceTextList, countCodePoints, parseFlag } from './raw-value-coercion.js';

describe('countCodePoints', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['é', 1],
    ['😀', 1],
    ['a😀b', 3],
    ['👍🏽', 2],
    ['\ud83d', 1],
    ['\ude00x', 2],
  ] as const)('%j has %i code points', (text, want) => {
    expect(countCodePoints(text)).toBe(want);
    expect(countCodePoints(text)).toBe([...text].length);
  });
});

describe('parseFlag', () => {
  it.each([
    [true, true],
    [1, true],
    ['1', true],
    ['true', true],
    [' On ', true],
    ['yes', true],
    [false, false],
    [0, false],
    ['0', false],
    ['false', false],
    ['off', false],
    ['no', false],
    ['', false],
    [null, false],
    [undefined, false],
    [2, undefined],
    ['y', undefined],
    [{}, undefined],
    [[true], undefined],
  ] as const)('%j -> %j', (raw, want) => {
    expect(parseFlag(raw)).toBe(want);
  });
});

describe('coerceText and coerceTextList', () => {
  it.each([
    ['a short limit', coerceText('abcd', 3), { ok: false, error: FIELD_MESSAGES.textTooLong(3) }],
    ['a bigint', coerceText(10n), { ok: true, value: '10' }],
    ['a function', coerceText(() => 1), { ok: false, error: FIELD_MESSAGES.notText }],
    ['a single boolean as a list', coerceTextList(false), { ok: true, value: ['false'] }],
    ['a function in a list', coerceTextList([() => 1]), { ok: false, error: FIELD_MESSAGES.notText }],
    ['a single object as a list', coerceTextList({}), { ok: false, error: FIELD_MESSAGES.notList }],
    ['an over-long item in a list', coerceTextList(['x'.repeat(100_001)]), { ok: false, error: FIELD_MESSAGES.textTooLong(100_000) }],
  ] as const)('%s', (_name, got, want) => {
    expect(got).toEqual(want);
  });
});
