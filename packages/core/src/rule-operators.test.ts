import { describe, expect, it } from 'vitest';
import { RULE_OPERATORS, type RuleOperator } from './form-model.js';
import { OPERATORS, isEmptyValue, parseOperator, type ConditionValue, type RuleValue } from './rule-operators.js';

describe('parseOperator', () => {
  it.each<[string, RuleOperator | null]>([
    ['=', 'equals'],
    ['!=', 'notEquals'],
    ['>', 'greaterThan'],
    ['>=', 'greaterThanOrEquals'],
    ['<', 'lessThan'],
    ['<=', 'lessThanOrEquals'],
    ['equals', 'equals'],
    ['isNotOneOf', 'isNotOneOf'],
    ['startsWith', 'startsWith'],
    ['Equals', null],
    ['EQUALS', null],
    ['==', null],
    ['<>', null],
    [' = ', null],
    ['', null],
    ['toString', null],
    ['__proto__', null],
    ['constructor', null],
  ])('%j -> %j', (input, expected) => {
    expect(parseOperator(input)).toBe(expected);
  });

  it.each(RULE_OPERATORS.map((o) => [o]))('accepts the long name %s', (name) => {
    expect(parseOperator(name)).toBe(name);
  });

  it.each<[unknown]>([[null], [undefined], [1], [{}]])('returns null for the non-string %j', (input) => {
    expect(parseOperator(input as string)).toBeNull();
  });
});

describe('isEmptyValue', () => {
  it.each<[RuleValue, boolean]>([
    [null, true],
    [undefined, true],
    ['', true],
    ['   ', true],
    ['\t\n\u00a0', true],
    [false, true],
    [[], true],
    [[''], true],
    [[' ', ''], true],
    [[[null, '', false]], true],
    ['a', false],
    [' a ', false],
    ['0', false],
    [0, false],
    [-1, false],
    [true, false],
    [['a'], false],
    [['', 'a'], false],
    [[[null, 'x']], false],
  ])('%j -> %j', (value, expected) => {
    expect(isEmptyValue(value)).toBe(expected);
  });
});

/** [operator, field value, val, expected] */
type Case = [RuleOperator, RuleValue, ConditionValue, boolean];

const cases: Case[] = [
  // equals: string comparison, case-sensitive
  ['equals', 'yes', 'yes', true],
  ['equals', 'Yes', 'yes', false],
  ['equals', 'yes ', 'yes', false],
  ['equals', 'no', 'yes', false],
  ['equals', 5, '5', true],
  ['equals', '5', 5, true],
  ['equals', 5, 5, true],
  ['equals', '5.0', '5', false],
  ['equals', 0, '0', true],
  // equals: empty val means "is empty"
  ['equals', '', '', true],
  ['equals', '  ', '', true],
  ['equals', null, '', true],
  ['equals', undefined, null, true],
  ['equals', [], '', true],
  ['equals', false, '', true],
  ['equals', 'x', '', false],
  ['equals', 'x', null, false],
  ['equals', 0, '', false],
  ['equals', ['a'], null, false],
  // equals: missing value against a real val
  ['equals', undefined, 'x', false],
  ['equals', null, 'null', false],
  ['equals', undefined, 'undefined', false],
  // equals: lists, any element
  ['equals', ['a', 'b'], 'b', true],
  ['equals', ['a', 'b'], 'c', false],
  ['equals', ['A'], 'a', false],
  ['equals', [['a']], 'a', false],
  // equals: list val means one of
  ['equals', 'b', ['a', 'b'], true],
  ['equals', 'c', ['a', 'b'], false],
  ['equals', ['x', 'a'], ['a', 'b'], true],
  // equals: booleans
  ['equals', true, 'true', true],
  ['equals', true, '1', true],
  ['equals', true, 'yes', true],
  ['equals', true, 1, true],
  ['equals', true, true, true],
  ['equals', true, 'false', false],
  ['equals', true, 'YES', false],
  ['equals', false, 'false', true],
  ['equals', false, '0', true],
  ['equals', false, 'no', true],
  ['equals', false, 'true', false],
  ['equals', false, false, true],
  ['equals', null, false, true],
  ['equals', 'yes', true, true],
  ['equals', '1', true, true],
  ['equals', 'no', true, false],
  ['equals', 'x', false, false],
  // notEquals: the exact complement
  ['notEquals', 'yes', 'yes', false],
  ['notEquals', 'no', 'yes', true],
  ['notEquals', 'Yes', 'yes', true],
  ['notEquals', undefined, 'x', true],
  ['notEquals', '', '', false],
  ['notEquals', 'x', '', true],
  ['notEquals', ['a', 'b'], 'a', false],
  ['notEquals', ['a', 'b'], 'c', true],
  ['notEquals', [], null, false],
  ['notEquals', true, 'yes', false],
  // numeric comparisons
  ['greaterThan', '10', '9', true],
  ['greaterThan', '9', '10', false],
  ['greaterThan', 10, 10, false],
  ['greaterThan', ' 10 ', '9', true],
  ['greaterThan', '1.5', 1, true],
  ['greaterThan', '-2', '-3', true],
  ['greaterThan', 'abc', '1', false],
  ['greaterThan', '', '-1', false],
  ['greaterThan', '   ', '-1', false],
  ['greaterThan', undefined, '-1', false],
  ['greaterThan', null, -1, false],
  ['greaterThan', '5', '', false],
  ['greaterThan', '5', null, false],
  ['greaterThan', '5', 'x', false],
  ['greaterThan', ['10'], '1', false],
  ['greaterThan', true, '0', false],
  ['greaterThan', '5', ['1'], false],
  ['greaterThanOrEquals', '10', '10', true],
  ['greaterThanOrEquals', 10, '10.0', true],
  ['greaterThanOrEquals', '9', '10', false],
  ['greaterThanOrEquals', '', '0', false],
  ['greaterThanOrEquals', ['10'], '10', false],
  ['lessThan', '9', '10', true],
  ['lessThan', '10', '9', false],
  ['lessThan', 10, 10, false],
  ['lessThan', '', '1', false],
  ['lessThan', 'abc', '1', false],
  ['lessThan', ['1'], '10', false],
  ['lessThanOrEquals', '10', '10', true],
  ['lessThanOrEquals', 0, '0', true],
  ['lessThanOrEquals', '11', '10', false],
  ['lessThanOrEquals', null, '10', false],
  ['lessThanOrEquals', [], '10', false],
  // contains: case-insensitive substring for scalars
  ['contains', 'Hello World', 'world', true],
  ['contains', 'Hello', 'HEL', true],
  ['contains', 'Hello', 'bye', false],
  ['contains', 12345, '234', true],
  ['contains', true, 'ru', true],
  ['contains', '', 'a', false],
  ['contains', undefined, 'a', false],
  ['contains', 'abc', '', false],
  ['contains', 'abc', null, false],
  ['contains', 'abc', ['a'], false],
  // contains: element equality for lists
  ['contains', ['red', 'green'], 'green', true],
  ['contains', ['red', 'green'], 'gre', false],
  ['contains', ['red', 'green'], 'GREEN', false],
  ['contains', [], 'a', false],
  ['contains', [['a']], 'a', false],
  // notContains: the exact complement
  ['notContains', 'Hello World', 'WORLD', false],
  ['notContains', 'Hello', 'bye', true],
  ['notContains', undefined, 'a', true],
  ['notContains', 'abc', '', true],
  ['notContains', ['red', 'green'], 'green', false],
  ['notContains', ['red', 'green'], 'gre', true],
  ['notContains', [], 'a', true],
  // startsWith / endsWith: case-insensitive
  ['startsWith', 'Hello', 'he', true],
  ['startsWith', 'Hello', 'HELLO', true],
  ['startsWith', 'Hello', 'lo', false],
  ['startsWith', 12345, 12, true],
  ['startsWith', '', 'a', false],
  ['startsWith', undefined, 'a', false],
  ['startsWith', 'Hello', '', false],
  ['startsWith', ['abc', 'Xyz'], 'x', true],
  ['startsWith', ['abc'], 'x', false],
  ['startsWith', [['xa']], 'x', false],
  ['endsWith', 'Hello', 'LO', true],
  ['endsWith', 'Hello', 'he', false],
  ['endsWith', 'file.PDF', '.pdf', true],
  ['endsWith', null, 'a', false],
  ['endsWith', 'Hello', null, false],
  ['endsWith', ['a.txt', 'b.PDF'], '.pdf', true],
  ['endsWith', [], '.pdf', false],
  // isEmpty / isNotEmpty ignore val
  ['isEmpty', '', 'ignored', true],
  ['isEmpty', '  ', null, true],
  ['isEmpty', undefined, null, true],
  ['isEmpty', [], null, true],
  ['isEmpty', false, null, true],
  ['isEmpty', 'x', '', false],
  ['isEmpty', 0, null, false],
  ['isEmpty', ['a'], null, false],
  ['isNotEmpty', 'x', null, true],
  ['isNotEmpty', 0, 'x', true],
  ['isNotEmpty', true, null, true],
  ['isNotEmpty', ['a'], null, true],
  ['isNotEmpty', '', 'x', false],
  ['isNotEmpty', null, null, false],
  ['isNotEmpty', [], null, false],
  // isOneOf: list val
  ['isOneOf', 'b', ['a', 'b', 'c'], true],
  ['isOneOf', 'd', ['a', 'b', 'c'], false],
  ['isOneOf', 'B', ['a', 'b'], false],
  ['isOneOf', 2, ['1', '2'], true],
  ['isOneOf', ['x', 'c'], ['a', 'c'], true],
  ['isOneOf', ['x', 'y'], ['a', 'c'], false],
  ['isOneOf', true, ['yes'], true],
  ['isOneOf', 'b', [], false],
  // isOneOf: comma-separated string val, items trimmed
  ['isOneOf', 'b', 'a,b,c', true],
  ['isOneOf', 'b', 'a, b , c', true],
  ['isOneOf', 'a', 'a', true],
  ['isOneOf', 'd', 'a,b,c', false],
  ['isOneOf', 'a,b', 'a,b,c', false],
  ['isOneOf', 'ab', 'a,b', false],
  ['isOneOf', 'b', 'abc,b2', false],
  ['isOneOf', 3, '1,2,3', true],
  ['isOneOf', ['x', 'c'], 'a,c', true],
  ['isOneOf', true, 'no, yes', true],
  ['isOneOf', true, 'no, maybe', false],
  // isOneOf: an unanswered field is never one of the options
  ['isOneOf', '', 'a,,b', false],
  ['isOneOf', '', ['', 'a'], false],
  ['isOneOf', undefined, ['a'], false],
  ['isOneOf', [], ['a'], false],
  ['isOneOf', 'a', null, false],
  ['isOneOf', 'a', '', false],
  // isOneOf: scalar val is a one-item list
  ['isOneOf', '5', 5, true],
  ['isOneOf', 'yes', true, true],
  // isNotOneOf: the exact complement
  ['isNotOneOf', 'b', ['a', 'b'], false],
  ['isNotOneOf', 'd', ['a', 'b'], true],
  ['isNotOneOf', 'b', 'a, b', false],
  ['isNotOneOf', 'd', 'a, b', true],
  ['isNotOneOf', ['x', 'a'], ['a'], false],
  ['isNotOneOf', ['x', 'y'], ['a'], true],
  ['isNotOneOf', '', ['a'], true],
  ['isNotOneOf', undefined, 'a', true],
];

describe('OPERATORS', () => {
  it.each(cases)('%s(%j, %j) -> %j', (operator, value, val, expected) => {
    expect(OPERATORS[operator](value, val)).toBe(expected);
  });

  it('has a function for every operator of contract §2 and no others', () => {
    expect(Object.keys(OPERATORS).sort()).toEqual([...RULE_OPERATORS].sort());
  });

  it.each(RULE_OPERATORS.map((o) => [o]))('%s is covered by the case table', (operator) => {
    expect(cases.some(([o]) => o === operator)).toBe(true);
  });
});
