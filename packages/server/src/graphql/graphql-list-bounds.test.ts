import { describe, expect, it } from 'vitest';
import { buildSchema, parse } from 'graphql';
import { measureQuery } from './query-cost-rule.js';

const schema = buildSchema(`
  type Query { forms(limit: Int): [Form] }
  type Form { pages: [Page] }
  type Page { rows: [Row] }
  type Row { id: String }
`);

describe('known list bounds in the query cost', () => {
  const query = parse('{ forms { pages { rows { id } } } }');

  it('uses a known bound instead of the default list size', () => {
    const [unbounded] = measureQuery(schema, query);
    const [bounded] = measureQuery(schema, query, { listSizes: new Map([['Form.pages', 2], ['Page.rows', 3]]) });
    // forms: 1 + 10 * (pages: 1 + 10 * (rows: 1 + 10 * 1)) versus pages 2 and rows 3.
    expect(unbounded?.cost).toBe(1 + 10 * (1 + 10 * (1 + 10)));
    expect(bounded?.cost).toBe(1 + 10 * (1 + 2 * (1 + 3)));
  });

  it('lets an explicit limit argument win over a known bound', () => {
    const [measure] = measureQuery(schema, parse('{ forms(limit: 1) { pages { rows { id } } } }'), { listSizes: new Map([['Query.forms', 50]]) });
    expect(measure?.cost).toBe(1 + 1 * (1 + 10 * (1 + 10)));
  });
});
