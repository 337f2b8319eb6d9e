/**
 * A big generated form (issue #17): 500 text fields on 10 pages and 200 rules (all and any,
 * chained field rules, page rules), for the bench's big-form scenario. Every rule is satisfied by
 * the values `bigValues` gives, so a whole submit validates and stores every field.
 */
export const BIG_FIELDS = 500;
export const BIG_PAGES = 10;
const PER_PAGE = BIG_FIELDS / BIG_PAGES;

const handle = (i: number) => `f${i}`;

export function bigFormDefinition(): Record<string, unknown> {
  let rules = 0;
  const pages = Array.from({ length: BIG_PAGES }, (_, p) => {
    const fields = Array.from({ length: PER_PAGE }, (_, k) => {
      const i = p * PER_PAGE + k;
      const field: Record<string, unknown> = { type: 'text', handle: handle(i), label: `Field ${i}`, required: i % 3 === 0, maxLength: 200 };
      // 190 field rules: chained (each on the field before), alternating all and any.
      if (i > 0 && i % 5 !== 0 && rules < 190) {
        rules += 1;
        const criteria =
          i % 2 === 0
            ? [{ tgt: handle(i - 1), o: 'isNotEmpty', val: '' }, { tgt: handle(0), o: 'startsWith', val: 'v' }]
            : [{ tgt: handle(i - 1), o: '=', val: `v${i - 1}` }, { tgt: handle(0), o: '=', val: 'never' }];
        field.rules = { show: true, type: i % 2 === 0 ? 'all' : 'any', criteria };
      }
      return field;
    });
    const rows = Array.from({ length: PER_PAGE / 5 }, (_, r) => fields.slice(r * 5, r * 5 + 5));
    rows.push([{ type: 'submit', label: p === BIG_PAGES - 1 ? 'Send' : 'Next' }] as never);
    // 9 page rules (every page but the first), 199 rules in all with one more below.
    const page: Record<string, unknown> = { label: `Page ${p + 1}`, rows };
    if (p > 0) page.rules = { show: true, type: 'all', criteria: [{ tgt: handle(0), o: 'isNotEmpty', val: '' }] };
    return page;
  });
  return { name: 'Big', settings: { spam: { honeypot: false } }, pages };
}

/** Values that satisfy every rule: each field shown, each required field filled. */
export function bigValues(): Record<string, string> {
  return Object.fromEntries(Array.from({ length: BIG_FIELDS }, (_, i) => [handle(i), `v${i}`]));
}
