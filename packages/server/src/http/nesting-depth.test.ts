import { describe, expect, it } from 'vitest';
import { nestingDepth } from './nesting-depth.js';

describe('nestingDepth', () => {
  it.each([
    ['{}', 1],
    ['{"a":[1,{"b":[]}]}', 4],
    ['"{{{{"', 0],
    ['{"a":"}}}}{{{{[[["}', 1],
    ['{"a":"\\"{{{"}', 1],
    ['[[[', 3],
  ])('counts %s as %i deep in JSON', (text, depth) => {
    expect(nestingDepth(text, 100)).toBe(depth);
  });

  it('ignores GraphQL comments and block strings, and counts argument lists', () => {
    expect(nestingDepth('query { a(x: {y: [1]}) # {{{{\n }', 100, { graphql: true })).toBe(4);
    expect(nestingDepth('{ a(x: """ {{{ \\""" {{ """) }', 100, { graphql: true })).toBe(2);
  });

  it('stops scanning once past the limit, however deep the text goes', () => {
    const deep = '['.repeat(1_000_000);
    expect(nestingDepth(deep, 64)).toBe(65);
  });
});
