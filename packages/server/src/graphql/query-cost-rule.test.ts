import { buildSchema, getIntrospectionQuery, parse, specifiedRules, validate } from 'graphql';
import type { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createQueryCostRule, measureQuery, type QueryCostOptions } from './query-cost-rule.js';

const schema = buildSchema(`
  type Query { svc: Svc }
  type Svc { forms(limit: Int): [Form] form(handle: String): Form }
  type Form { id: Int name: String fields: [Field] pages: [Page] }
  interface Field { id: Int label: String }
  type TextField implements Field { id: Int label: String maxLength: Int }
  type ChoiceField implements Field { id: Int label: String options: [Option] }
  type Page { rows: [Row] }
  type Row { fields: [Field] }
  type Option { value: String }
`);

function measureOne(query: string, options?: Parameters<typeof measureQuery>[2]): { cost: number; depth: number } {
  const [measure] = measureQuery(schema, parse(query), options);
  if (measure === undefined) throw new Error('expected one operation');
  return { cost: measure.cost, depth: measure.depth };
}

function validateWith(query: string, options: QueryCostOptions, target = schema): readonly GraphQLError[] {
  return validate(target, parse(query), [...specifiedRules, createQueryCostRule(options)]);
}

function codesOf(errors: readonly GraphQLError[]): unknown[] {
  return errors.map((error) => error.extensions['code']);
}

// Arithmetic: a field costs 1 + listSize * (cost of its selection); defaultListSize is 10.
const cases: readonly { name: string; query: string; cost: number; depth: number; options?: Parameters<typeof measureQuery>[2] }[] = [
  { name: 'flat selection: every field costs 1', query: '{ svc { form(handle: "a") { id name } } }', cost: 4, depth: 3 },
  { name: 'list without limit uses defaultListSize', query: '{ svc { forms { id name } } }', cost: 1 + 1 + 10 * 2, depth: 3 },
  {
    name: 'list size follows the defaultListSize option',
    query: '{ svc { forms { id name } } }',
    options: { defaultListSize: 4 },
    cost: 1 + 1 + 4 * 2,
    depth: 3,
  },
  { name: 'limit literal bounds the list', query: '{ svc { forms(limit: 3) { id name } } }', cost: 1 + 1 + 3 * 2, depth: 3 },
  { name: 'limit 0 empties the list', query: '{ svc { forms(limit: 0) { id name } } }', cost: 2, depth: 3 },
  {
    name: 'limit variable resolved from variables',
    query: 'query Q($n: Int) { svc { forms(limit: $n) { id name } } }',
    options: { variables: { n: 5 } },
    cost: 1 + 1 + 5 * 2,
    depth: 3,
  },
  {
    name: 'limit variable without a value falls back to defaultListSize',
    query: 'query Q($n: Int) { svc { forms(limit: $n) { id name } } }',
    cost: 1 + 1 + 10 * 2,
    depth: 3,
  },
  {
    name: 'limit variable without a value uses its declared default',
    query: 'query Q($n: Int = 2) { svc { forms(limit: $n) { id name } } }',
    cost: 1 + 1 + 2 * 2,
    depth: 3,
  },
  {
    name: 'negative limit is not trusted and falls back to defaultListSize',
    query: '{ svc { forms(limit: -1) { id name } } }',
    cost: 1 + 1 + 10 * 2,
    depth: 3,
  },
  {
    name: 'nested lists multiply',
    query: '{ svc { forms(limit: 2) { pages { rows { fields { id } } } } } }',
    // fields 1+10*1=11, rows 1+10*11=111, pages 1+10*111=1111, forms 1+2*1111=2223, svc +1
    cost: 2224,
    depth: 6,
  },
  {
    name: 'named fragment costs where it is spread',
    query: '{ svc { form { ...F } } } fragment F on Form { id name fields { id } }',
    cost: 1 + 1 + (1 + 1 + (1 + 10 * 1)),
    depth: 4,
  },
  {
    name: 'named fragment spread inside a list is multiplied',
    query: '{ svc { forms(limit: 3) { ...F } } } fragment F on Form { id name }',
    cost: 1 + 1 + 3 * 2,
    depth: 3,
  },
  {
    name: 'fragment spread twice counts twice (memoised, not deduplicated)',
    query: '{ svc { a: form { ...F } b: form { ...F } } } fragment F on Form { fields { id } }',
    cost: 1 + 2 * (1 + 11),
    depth: 4,
  },
  { name: 'inline fragment on the same type is summed', query: '{ svc { form { ... on Form { id } name } } }', cost: 4, depth: 3 },
  {
    name: 'interface branches take the max, not the sum',
    query: '{ svc { form { fields { id ... on ChoiceField { options { value } } ... on TextField { maxLength } } } } }',
    // per object: id 1 + max(Choice 1+10*1=11, Text 1) = 12; fields 1+10*12=121
    cost: 1 + 1 + 121,
    depth: 5,
  },
  {
    name: 'interface branches given as named fragments take the max',
    query:
      '{ svc { form { fields { id ...C ...T } } } } fragment C on ChoiceField { options { value } } fragment T on TextField { maxLength }',
    cost: 1 + 1 + 121,
    depth: 5,
  },
  {
    name: 'two branches on the same concrete type add up',
    query: '{ svc { form { fields { id ... on ChoiceField { label } ... on ChoiceField { options { value } } } } } }',
    // per object: id 1 + Choice (1 + 11) = 13; fields 1+10*13=131
    cost: 1 + 1 + 131,
    depth: 5,
  },
  {
    name: 'a fragment on the interface itself always applies',
    query: '{ svc { form { fields { ... on Field { id label } ... on TextField { maxLength } } } } }',
    cost: 1 + 1 + (1 + 10 * (2 + 1)),
    depth: 4,
  },
  {
    name: 'depth is counted through named and inline fragments',
    query:
      '{ svc { ...S } } fragment S on Svc { form { ...F } } fragment F on Form { pages { rows { fields { ... on ChoiceField { options { value } } } } } }',
    // svc form pages rows fields options value
    cost: 1 + 1 + (1 + 10 * (1 + 10 * (1 + 10 * (1 + 10 * 1)))),
    depth: 7,
  },
  {
    name: '__typename is free and adds no depth',
    query: '{ __typename svc { __typename form { __typename id } } }',
    cost: 3,
    depth: 3,
  },
  {
    name: '__type is costed like any field',
    query: '{ __type(name: "Form") { fields { name } } }',
    cost: 1 + (1 + 10 * 1),
    depth: 3,
  },
];

describe('measureQuery', () => {
  it.each(cases)('$name', ({ query, options, cost, depth }) => {
    expect(measureOne(query, options)).toEqual({ cost, depth });
  });

  it('measures every operation of a document separately, by name', () => {
    const document = parse('query A { svc { form { id } } } query B { svc { forms { id } } } { svc { form { id } } }');
    expect(measureQuery(schema, document)).toEqual([
      { operation: 'A', cost: 3, depth: 3 },
      { operation: 'B', cost: 12, depth: 3 },
      { operation: null, cost: 3, depth: 3 },
    ]);
  });

  it('uses the schema default of a limit argument when the query gives none', () => {
    const withDefault = buildSchema('type Query { items(limit: Int = 50): [Item] } type Item { id: Int }');
    const [measure] = measureQuery(withDefault, parse('{ items { id } }'));
    expect(measure?.cost).toBe(1 + 50);
  });

  it('multiplies every list level of a list of lists', () => {
    const grid = buildSchema('type Query { grid(limit: Int): [[Cell]] } type Cell { id: Int }');
    const [measure] = measureQuery(grid, parse('{ grid(limit: 2) { id } }'));
    expect(measure?.cost).toBe(1 + 2 * 10);
  });

  it('saturates instead of overflowing when limits are huge', () => {
    const tree = buildSchema('type Query { items(limit: Int): [Item] } type Item { id: Int items(limit: Int): [Item] }');
    const max = 'limit: 2147483647';
    const [saturated] = measureQuery(tree, parse(`{ items(${max}) { items(${max}) { items(${max}) { id } } } }`));
    expect(saturated?.cost).toBe(Number.MAX_SAFE_INTEGER);
    // An empty outer list times a saturated inner cost is still a number, not NaN from 0 * Infinity.
    const [emptied] = measureQuery(tree, parse(`{ items(limit: 0) { items(${max}) { items(${max}) { items(${max}) { id } } } } }`));
    expect(emptied?.cost).toBe(1);
  });

  it('terminates on a fragment cycle', () => {
    const document = parse('{ svc { form { ...A } } } fragment A on Form { id ...B } fragment B on Form { name ...A }');
    expect(measureQuery(schema, document)).toEqual([{ operation: null, cost: 4, depth: 3 }]);
  });

  it('gives the introspection query a finite cost and depth', () => {
    const [measure] = measureQuery(schema, parse(getIntrospectionQuery()));
    expect(Number.isSafeInteger(measure?.cost)).toBe(true);
    // types x fields x args alone is 10*10*10 entries; introspection is far from free.
    expect(measure?.cost).toBeGreaterThan(10_000);
    expect(measure?.depth).toBeGreaterThan(5);
    expect(measure?.depth).toBeLessThan(20);
  });
});

describe('createQueryCostRule', () => {
  const costly = '{ svc { forms { id name } } }'; // cost 22, depth 3
  const deep = '{ svc { forms(limit: 1) { pages { rows { fields { id } } } } } }'; // depth 6

  it('passes a query exactly at both limits', () => {
    expect(validateWith(costly, { maxComplexity: 22, maxDepth: 3 })).toEqual([]);
  });

  it('rejects a query over maxComplexity with QUERY_TOO_COMPLEX and the numbers', () => {
    const errors = validateWith(costly, { maxComplexity: 21, maxDepth: 10 });
    expect(codesOf(errors)).toEqual(['QUERY_TOO_COMPLEX']);
    expect(errors[0]?.message).toBe('Query cost 22 exceeds the limit of 21.');
    expect(errors[0]?.locations).toEqual([{ line: 1, column: 1 }]);
  });

  it('rejects a query over maxDepth with QUERY_TOO_DEEP and the numbers', () => {
    const errors = validateWith(deep, { maxComplexity: 100_000, maxDepth: 5 });
    expect(codesOf(errors)).toEqual(['QUERY_TOO_DEEP']);
    expect(errors[0]?.message).toBe('Query depth 6 exceeds the limit of 5.');
    expect(validateWith(deep, { maxComplexity: 100_000, maxDepth: 6 })).toEqual([]);
  });

  it('reports one error per offending operation, depth before cost', () => {
    const document = `query Deep ${deep} query Cheap { svc { form { id } } } query Costly ${costly}`;
    const errors = validateWith(document, { maxComplexity: 12, maxDepth: 5 });
    expect(errors.map((error) => error.message)).toEqual([
      'Query depth 6 exceeds the limit of 5.',
      'Query cost 22 exceeds the limit of 12.',
    ]);
  });

  it('applies defaultListSize and ignores variable values it cannot see', () => {
    const query = 'query Q($n: Int) { svc { forms(limit: $n) { id name } } }';
    expect(validateWith(query, { maxComplexity: 10, maxDepth: 5, defaultListSize: 4 })).toEqual([]);
    expect(codesOf(validateWith(query, { maxComplexity: 10, maxDepth: 5 }))).toEqual(['QUERY_TOO_COMPLEX']);
  });

  it('uses max-over-branches in validation too', () => {
    const query = '{ svc { form { fields { id ... on ChoiceField { options { value } } ... on TextField { maxLength } } } } }';
    expect(validateWith(query, { maxComplexity: 123, maxDepth: 5 })).toEqual([]);
    expect(validateWith(query, { maxComplexity: 122, maxDepth: 5 })[0]?.message).toBe('Query cost 123 exceeds the limit of 122.');
  });

  it('bounds the introspection query', () => {
    const query = getIntrospectionQuery();
    const [measure] = measureQuery(schema, parse(query));
    const cost = measure?.cost ?? 0;
    const depth = measure?.depth ?? 0;
    expect(validateWith(query, { maxComplexity: cost, maxDepth: depth })).toEqual([]);
    expect(codesOf(validateWith(query, { maxComplexity: 1000, maxDepth: depth }))).toEqual(['QUERY_TOO_COMPLEX']);
  });

  it('leaves invalid documents to the specified rules without throwing', () => {
    const errors = validateWith('{ svc { nope { deeper } form { ...Missing } } }', { maxComplexity: 100, maxDepth: 10 });
    expect(errors.map((error) => error.message)).toEqual([
      'Cannot query field "nope" on type "Svc".',
      'Unknown fragment "Missing".',
    ]);
  });

  it('does not loop on a fragment cycle that validation rejects', () => {
    const errors = validateWith('{ svc { form { ...A } } } fragment A on Form { id ...A }', { maxComplexity: 100, maxDepth: 10 });
    expect(errors.map((error) => error.message)).toEqual(['Cannot spread fragment "A" within itself.']);
  });

  it.each([
    { name: 'negative maxComplexity', options: { maxComplexity: -1, maxDepth: 5 } },
    { name: 'NaN maxDepth', options: { maxComplexity: 10, maxDepth: Number.NaN } },
    { name: 'fractional defaultListSize', options: { maxComplexity: 10, maxDepth: 5, defaultListSize: 2.5 } },
  ])('refuses $name at creation', ({ options }) => {
    expect(() => createQueryCostRule(options)).toThrow(RangeError);
  });
});
