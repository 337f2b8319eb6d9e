import { describe, expect, it } from 'vitest';
import { parseStoredJson } from './stored-json.js';

/** A small deterministic generator (mulberry32): the same values on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = ['Ann', 'Lee', '', ' ', '"', '\\', '/', '\b', '\f', '\n', '\r', '\t', '\u0000', '\u001f', '\u007f', 'é', 'ü', '漢字', '😀', '\ud800', '\udfff', '\u2028', '\ufeff', 'yes', '1', '__proto__', 'constructor'];

function text(next: () => number): string {
  let out = '';
  const parts = Math.floor(next() * 5);
  for (let i = 0; i < parts; i++) out += PIECES[Math.floor(next() * PIECES.length)];
  return out;
}

function number(next: () => number): number {
  const pick = Math.floor(next() * 7);
  if (pick === 0) return Math.floor(next() * 1000);
  if (pick === 1) return -Math.floor(next() * 1e9);
  if (pick === 2) return (next() - 0.5) * 1e6;
  if (pick === 3) return next() * 1e300;
  if (pick === 4) return next() * 1e-300;
  if (pick === 5) return -0;
  return Number.MAX_SAFE_INTEGER - Math.floor(next() * 10);
}

function value(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 3 ? 5 : 7));
  if (pick === 0) return null;
  if (pick === 1) return next() < 0.5;
  if (pick === 2) return number(next);
  if (pick === 3 || pick === 4) return text(next);
  if (pick === 5) return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
  const object: Record<string, unknown> = {};
  const keys = Math.floor(next() * 5);
  for (let i = 0; i < keys; i++) {
    Object.defineProperty(object, text(next), { value: value(next, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return object;
}

/** Deep equality that also tells -0 from 0, prototypes apart, and own key order. */
function same(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const keysA = Reflect.ownKeys(a);
  const keysB = Reflect.ownKeys(b);
  if (keysA.length !== keysB.length || keysA.some((k, i) => k !== keysB[i])) return false;
  return keysA.every((k) => same((a as Record<PropertyKey, unknown>)[k], (b as Record<PropertyKey, unknown>)[k]));
}

describe('parseStoredJson', () => {
  it('answers what JSON.parse answers for 5,000 generated values, compact and indented', () => {
    const next = random(17);
    for (let i = 0; i < 5000; i++) {
      const generated = value(next, 0);
      for (const json of [JSON.stringify(generated), JSON.stringify(generated, null, i % 2 === 0 ? 2 : '\t')]) {
        const expected = JSON.parse(json) as unknown;
        const actual = parseStoredJson(json);
        if (!same(actual, expected)) expect({ json, actual }).toEqual({ json, actual: expected });
      }
    }
  });

  it('keeps JSON.parse semantics at the edges: __proto__ as an own key, the last duplicate, escapes, whitespace', () => {
    const texts = [
      '{"__proto__":{"polluted":1},"a":1}',
      '{"a":1,"b":2,"a":3}',
      '{"2":"b","1":"a","x":"c"}',
      '"\\u0041\\u00e9\\ud83d\\ude00\\ud800\\/\\"\\\\\\b\\f\\n\\r\\t"',
      ' \t\r\n[ 1 , -0 , 0.5e-3 , 1E+2 , 1e400 , -1.25 ] \n',
      '{}',
      '[]',
      '[[[]],{}]',
      '"short"',
      'true',
      'null',
    ];
    for (const json of texts) expect(same(parseStoredJson(json), JSON.parse(json))).toBe(true);
    const parsed = parseStoredJson('{"__proto__":{"polluted":1}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.hasOwn(parsed, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('throws a SyntaxError wherever JSON.parse does', () => {
    const invalid = ['', ' ', '{', '}', '[1,]', '{"a":1,}', '{a:1}', "'a'", '"a', '"\\x"', '"\\u12"', '"\\u12G4"', '"\t"', '"\u0001"', '01', '1.', '.5', '-', '+1', '1e', 'tru', 'nul', 'NaN', 'Infinity', '[1 2]', '{"a" 1}', '1 2', '\ufeff1', '[', '{"a":1]'];
    for (const json of invalid) {
      expect(() => JSON.parse(json), json).toThrow(SyntaxError);
      expect(() => parseStoredJson(json), json).toThrow(SyntaxError);
    }
  });
});
