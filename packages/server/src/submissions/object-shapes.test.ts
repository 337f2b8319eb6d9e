import { describe, expect, it } from 'vitest';
import { withKeys } from './object-shapes.js';

describe('withKeys', () => {
  it('is the spread it replaces: same keys in the same order, extra winning, base untouched', () => {
    const base = { a: 1, b: 2, nested: { c: 3 } };
    const out = withKeys(base, { b: 20, d: 4 });
    expect(out).toEqual({ ...base, ...{ b: 20, d: 4 } });
    expect(Object.keys(out)).toEqual(['a', 'b', 'nested', 'd']);
    expect(base).toEqual({ a: 1, b: 2, nested: { c: 3 } });
    expect(out.nested).toBe(base.nested);
    expect(out).not.toBe(base);
  });
});
