/**
 * The operator table of the conditional-rules engine (contract §2 operator list) and the
 * short-form parsing of interface.md §2.5. Pure and browser-safe: the client evaluates the same
 * table as the server so a field hidden in the browser is exactly the field the server drops.
 */
import type { RuleCondition, RuleOperator } from './form-model.js';
import { RULE_OPERATORS } from './form-model.js';

/**
 * A value as an operator sees it. Wider than FieldValue (recursive, allows `undefined`) because a
 * missing or rule-hidden field reaches the operators as `undefined`, and table rows nest lists.
 */
export type RuleValue = string | number | boolean | null | undefined | readonly RuleValue[];

/** The right-hand side of a condition (`val` of a definition, `value` of the manifest). */
export type ConditionValue = RuleCondition['value'];

export type OperatorFn = (value: RuleValue, val: ConditionValue) => boolean;

// Maps, not object literals: a lookup of `__proto__` or `toString` must not find Object.prototype.
const SHORT_FORMS: ReadonlyMap<string, RuleOperator> = new Map<string, RuleOperator>([
  ['=', 'equals'],
  ['!=', 'notEquals'],
  ['>', 'greaterThan'],
  ['>=', 'greaterThanOrEquals'],
  ['<', 'lessThan'],
  ['<=', 'lessThanOrEquals'],
]);

/** Map a short or long operator name to RuleOperator; null when unknown. Case-sensitive. */
export function parseOperator(o: string): RuleOperator | null {
  // Definitions arrive from YAML/JSON, so a number or null can reach here despite the type.
  if (typeof o !== 'string') return null;
  const short = SHORT_FORMS.get(o);
  if (short !== undefined) return short;
  // A list scan rather than a module-level Set: this runs once per criterion when a form is
  // compiled, and a bundle that only evaluates rules (the browser client) then leaves it out.
  return (RULE_OPERATORS as readonly string[]).includes(o) ? (o as RuleOperator) : null;
}

// Array.isArray narrows to `any[]`, which leaves readonly arrays in the false branch of a union.
const isList = Array.isArray as (value: unknown) => value is readonly unknown[];

/** The code points String.prototype.trim removes, so "blank" agrees with `s.trim() === ''`. */
function isWhitespaceCode(c: number): boolean {
  return (
    c === 0x20 ||
    (c >= 0x09 && c <= 0x0d) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Whitespace-only test without allocating a trimmed copy (hot path). */
function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    if (!isWhitespaceCode(s.charCodeAt(i))) return false;
  }
  return true;
}

/**
 * Empty = null/undefined, a blank string, `false`, or a list whose elements are all empty (so `[]`,
 * `['']` from a checkbox group's placeholder input, and a table whose rows are all blank). Numbers,
 * including 0, are never empty: a submitted 0 is an answer.
 */
export function isEmptyValue(value: RuleValue): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return isBlank(value);
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'number') return false;
  for (let i = 0; i < value.length; i++) {
    if (!isEmptyValue(value[i])) return false;
  }
  return true;
}

const TRUE_TOKENS: ReadonlySet<string> = new Set(['true', '1', 'yes']);
const FALSE_TOKENS: ReadonlySet<string> = new Set(['false', '0', 'no']);

function booleanEquals(b: boolean, other: string | number | boolean): boolean {
  if (typeof other === 'boolean') return b === other;
  return (b ? TRUE_TOKENS : FALSE_TOKENS).has(String(other));
}

/** One scalar against one `val`: string comparison, case-sensitive; booleans match their tokens. */
function elementEquals(x: RuleValue, val: string | number | boolean): boolean {
  if (x === null || x === undefined || isList(x)) return false;
  if (typeof x === 'boolean') return booleanEquals(x, val);
  if (typeof val === 'boolean') return booleanEquals(val, x);
  return String(x) === String(val);
}

/** Whether the trimmed comma-separated `list` has an item equal to `candidate`, without split(). */
function csvHas(list: string, candidate: string): boolean {
  let start = 0;
  while (start <= list.length) {
    let end = list.indexOf(',', start);
    if (end === -1) end = list.length;
    let s = start;
    let e = end;
    while (s < e && isWhitespaceCode(list.charCodeAt(s))) s++;
    while (e > s && isWhitespaceCode(list.charCodeAt(e - 1))) e--;
    if (e - s === candidate.length && e > s && list.startsWith(candidate, s)) return true;
    start = end + 1;
  }
  return false;
}

/** One scalar against a one-of list given as a string (`'a, b'`) or a list. */
function elementInList(x: RuleValue, list: string | readonly unknown[]): boolean {
  if (x === null || x === undefined || isList(x)) return false;
  if (typeof list !== 'string') {
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      if (
        (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') &&
        elementEquals(x, item)
      ) {
        return true;
      }
    }
    return false;
  }
  if (typeof x === 'boolean') {
    for (const token of x ? TRUE_TOKENS : FALSE_TOKENS) {
      if (csvHas(list, token)) return true;
    }
    return false;
  }
  return csvHas(list, String(x));
}

/** `value` (or, for a list value, any element) is in `list`. */
function anyInList(value: RuleValue, list: string | readonly unknown[]): boolean {
  if (isList(value)) {
    for (let i = 0; i < value.length; i++) {
      if (elementInList(value[i], list)) return true;
    }
    return false;
  }
  return elementInList(value, list);
}

function equals(value: RuleValue, val: ConditionValue): boolean {
  // interface.md §2.5: comparing to the empty value is how a definition says "is blank".
  if (isEmptyValue(val)) return isEmptyValue(value);
  if (value === null || value === undefined || val === null) return false;
  // A list `val` on equals can only mean "equals one of these".
  if (isList(val)) return anyInList(value, val);
  if (isList(value)) {
    for (let i = 0; i < value.length; i++) {
      if (elementEquals(value[i], val)) return true;
    }
    return false;
  }
  return elementEquals(value, val);
}

/** Both sides as numbers; '' and non-numeric types are NaN so every comparison is false. */
function toNumber(x: RuleValue): number {
  if (typeof x === 'number') return x;
  // Number() trims itself; only the blank string needs catching because Number('') is 0.
  if (typeof x === 'string') return isBlank(x) ? Number.NaN : Number(x);
  return Number.NaN;
}

/** The lower-cased text a string operator searches for; null when `val` is empty or a list. */
function needle(val: ConditionValue): string | null {
  if (val === null || isList(val) || isEmptyValue(val)) return null;
  return String(val).toLowerCase();
}

/** The text of a scalar for the string operators; null for nested lists (table rows). */
function haystack(x: RuleValue): string | null {
  if (x === null || x === undefined) return '';
  if (isList(x)) return null;
  return String(x).toLowerCase();
}

function contains(value: RuleValue, val: ConditionValue): boolean {
  // An empty or list `val` is a half-written criterion; matching everything would be a surprise.
  if (val === null || isList(val) || isEmptyValue(val)) return false;
  if (isList(value)) {
    for (let i = 0; i < value.length; i++) {
      if (elementEquals(value[i], val)) return true;
    }
    return false;
  }
  const text = haystack(value);
  return text !== null && text.includes(String(val).toLowerCase());
}

function affix(value: RuleValue, val: ConditionValue, atStart: boolean): boolean {
  const n = needle(val);
  if (n === null) return false;
  if (isList(value)) {
    for (let i = 0; i < value.length; i++) {
      const text = haystack(value[i]);
      if (text !== null && (atStart ? text.startsWith(n) : text.endsWith(n))) return true;
    }
    return false;
  }
  const text = haystack(value);
  return text !== null && (atStart ? text.startsWith(n) : text.endsWith(n));
}

function isOneOf(value: RuleValue, val: ConditionValue): boolean {
  // An unanswered field is not "one of" the options, even when the list has a blank item.
  if (isEmptyValue(value) || val === null) return false;
  if (typeof val === 'string' || isList(val)) return anyInList(value, val);
  if (isList(value)) {
    for (let i = 0; i < value.length; i++) {
      if (elementEquals(value[i], val)) return true;
    }
    return false;
  }
  return elementEquals(value, val);
}

/** One function per operator of contract §2. Negated operators are exact complements. */
export const OPERATORS: Readonly<Record<RuleOperator, OperatorFn>> = Object.freeze({
  equals,
  notEquals: (value: RuleValue, val: ConditionValue) => !equals(value, val),
  greaterThan: (value: RuleValue, val: ConditionValue) => toNumber(value) > toNumber(val),
  greaterThanOrEquals: (value: RuleValue, val: ConditionValue) => toNumber(value) >= toNumber(val),
  lessThan: (value: RuleValue, val: ConditionValue) => toNumber(value) < toNumber(val),
  lessThanOrEquals: (value: RuleValue, val: ConditionValue) => toNumber(value) <= toNumber(val),
  contains,
  notContains: (value: RuleValue, val: ConditionValue) => !contains(value, val),
  startsWith: (value: RuleValue, val: ConditionValue) => affix(value, val, true),
  endsWith: (value: RuleValue, val: ConditionValue) => affix(value, val, false),
  isEmpty: (value: RuleValue) => isEmptyValue(value),
  isNotEmpty: (value: RuleValue) => !isEmptyValue(value),
  isOneOf,
  isNotOneOf: (value: RuleValue, val: ConditionValue) => !isOneOf(value, val),
});
