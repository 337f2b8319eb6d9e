import { describe, expect, it } from 'vitest';
import type { Form, NormalisedRule, RuleCondition, RuleCriterion, RuleDefinition, Values } from './form-model.js';
import {
  RuleDefinitionError,
  buildConditionals,
  computeVisibility,
  evaluateCondition,
  isVisibleByRule,
  nextVisiblePage,
  normaliseRule,
  parseOperator,
  previousVisiblePage,
  ruleMatches,
  visibleValues,
  type Visibility,
} from './rules-engine.js';

interface FieldSpec {
  readonly handle: string | null;
  readonly rules?: RuleDefinition | null;
}
interface PageSpec {
  readonly rules?: RuleDefinition | null;
  /** One array per row. */
  readonly rows: readonly (readonly FieldSpec[])[];
}

/** A Form-like object with only what the engine reads. */
function makeForm(...pages: PageSpec[]): Pick<Form, 'pages'> {
  return {
    pages: pages.map((page, index) => ({
      index,
      uid: `page-${index}`,
      label: `Page ${index + 1}`,
      rules: page.rules ?? null,
      rows: page.rows.map((fields, rowIndex) => ({
        id: `row-${index}-${rowIndex}`,
        fields: fields.map((f) => ({
          type: f.handle === null ? 'submit' : 'text',
          label: f.handle ?? 'Submit',
          handle: f.handle,
          rules: f.rules ?? null,
          pageIndex: index,
          rowIndex,
        })),
      })),
    })),
  } as unknown as Pick<Form, 'pages'>;
}

function c(tgt: string, o: string, val?: RuleCriterion['val']): RuleCriterion {
  return val === undefined ? { tgt, o } : { tgt, o, val };
}
function show(type: 'all' | 'any', ...criteria: RuleCriterion[]): RuleDefinition {
  return { show: true, type, criteria };
}
function hide(type: 'all' | 'any', ...criteria: RuleCriterion[]): RuleDefinition {
  return { show: false, type, criteria };
}
function sorted<T>(set: ReadonlySet<T>): T[] {
  return [...set].sort();
}

describe('parseOperator (re-exported)', () => {
  it.each([
    ['=', 'equals'],
    ['<=', 'lessThanOrEquals'],
    ['isOneOf', 'isOneOf'],
    ['is', null],
  ])('%s -> %s', (input, expected) => {
    expect(parseOperator(input)).toBe(expected);
  });
});

describe('normaliseRule', () => {
  it('translates a definition rule to the manifest form of contract §2', () => {
    expect(normaliseRule('company', hide('any', c('isBusiness', '=', '')))).toEqual({
      target: 'company',
      action: 'hide',
      logic: 'any',
      conditions: [{ field: 'isBusiness', operator: 'equals', value: '' }],
    });
  });

  it.each<[string, RuleCriterion, RuleCondition]>([
    ['short =', c('a', '=', 'x'), { field: 'a', operator: 'equals', value: 'x' }],
    ['short !=', c('a', '!=', 'x'), { field: 'a', operator: 'notEquals', value: 'x' }],
    ['short >', c('a', '>', 3), { field: 'a', operator: 'greaterThan', value: 3 }],
    ['short >=', c('a', '>=', '3'), { field: 'a', operator: 'greaterThanOrEquals', value: '3' }],
    ['short <', c('a', '<', 3), { field: 'a', operator: 'lessThan', value: 3 }],
    ['short <=', c('a', '<=', 3), { field: 'a', operator: 'lessThanOrEquals', value: 3 }],
    ['long name', c('a', 'contains', 'x'), { field: 'a', operator: 'contains', value: 'x' }],
    ['missing val', c('a', 'isEmpty'), { field: 'a', operator: 'isEmpty', value: null }],
    ['null val', c('a', 'isNotEmpty', null), { field: 'a', operator: 'isNotEmpty', value: null }],
    ['list val kept', c('a', 'isOneOf', ['x', 'y']), { field: 'a', operator: 'isOneOf', value: ['x', 'y'] }],
    ['string list val kept', c('a', 'isOneOf', 'x,y'), { field: 'a', operator: 'isOneOf', value: 'x,y' }],
    ['boolean val', c('a', '=', true), { field: 'a', operator: 'equals', value: true }],
  ])('%s', (_name, criterion, condition) => {
    expect(normaliseRule('t', show('all', criterion)).conditions).toEqual([condition]);
  });

  it.each<[boolean, 'all' | 'any', 'show' | 'hide']>([
    [true, 'all', 'show'],
    [true, 'any', 'show'],
    [false, 'all', 'hide'],
    [false, 'any', 'hide'],
  ])('show=%s type=%s -> action %s', (showFlag, type, action) => {
    const rule = normaliseRule('t', { show: showFlag, type, criteria: [] });
    expect(rule).toEqual({ target: 't', action, logic: type, conditions: [] });
  });

  it.each<[string, unknown, string]>([
    ['unknown operator', show('all', c('a', '='), c('b', '=='), c('c', 'nope')), 'criteria[1].o'],
    ['lower-case long name', show('all', c('a', 'EQUALS')), 'criteria[0].o'],
    ['operator not a string', show('all', { tgt: 'a', o: 3 } as unknown as RuleCriterion), 'criteria[0].o'],
    ['missing tgt', show('all', { o: '=' } as unknown as RuleCriterion), 'criteria[0].tgt'],
    ['empty tgt', show('all', c('', '=')), 'criteria[0].tgt'],
    ['criterion not an object', { show: true, type: 'all', criteria: ['a'] }, 'criteria[0]'],
    ['bad type', { show: true, type: 'some', criteria: [] }, 'type'],
    ['criteria not a list', { show: true, type: 'all', criteria: {} }, 'criteria'],
    ['rule not an object', 'show', ''],
  ])('throws RuleDefinitionError on %s at %j', (_name, rule, path) => {
    let thrown: unknown;
    try {
      normaliseRule('t', rule as RuleDefinition);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RuleDefinitionError);
    expect((thrown as RuleDefinitionError).path).toBe(path);
  });
});

describe('evaluateCondition', () => {
  const values: Values = { name: 'Ann', tags: ['a', 'b'], age: 30, agreed: true, blank: '' };

  it.each<[RuleCondition, boolean]>([
    [{ field: 'name', operator: 'equals', value: 'Ann' }, true],
    [{ field: 'name', operator: 'equals', value: 'ann' }, false],
    [{ field: 'tags', operator: 'contains', value: 'b' }, true],
    [{ field: 'age', operator: 'greaterThanOrEquals', value: '18' }, true],
    [{ field: 'agreed', operator: 'equals', value: 'yes' }, true],
    [{ field: 'blank', operator: 'isEmpty', value: null }, true],
    // A handle missing from the values reads as empty.
    [{ field: 'missing', operator: 'isEmpty', value: null }, true],
    [{ field: 'missing', operator: 'equals', value: '' }, true],
    [{ field: 'missing', operator: 'notEquals', value: 'x' }, true],
    // Handles that name Object.prototype members must not read them.
    [{ field: 'constructor', operator: 'isEmpty', value: null }, true],
    [{ field: 'toString', operator: 'isNotEmpty', value: null }, false],
    [{ field: '__proto__', operator: 'isEmpty', value: null }, true],
  ])('%j -> %s', (condition, expected) => {
    expect(evaluateCondition(condition, values)).toBe(expected);
  });

  it('never matches an operator this build does not know (manifest from a newer server)', () => {
    const condition = { field: 'name', operator: 'matchesRegex', value: '.*' } as unknown as RuleCondition;
    expect(evaluateCondition(condition, values)).toBe(false);
  });
});

describe('ruleMatches and isVisibleByRule', () => {
  const T: RuleCondition = { field: 'a', operator: 'equals', value: 'x' };
  const F: RuleCondition = { field: 'a', operator: 'equals', value: 'y' };
  const values: Values = { a: 'x' };

  it.each<['all' | 'any', RuleCondition[], boolean]>([
    ['all', [], true],
    ['all', [T], true],
    ['all', [T, T], true],
    ['all', [T, F], false],
    ['all', [F], false],
    ['any', [], false],
    ['any', [T], true],
    ['any', [F, T], true],
    ['any', [F, F], false],
  ])('%s of %j matches: %s', (logic, conditions, expected) => {
    expect(ruleMatches({ logic, conditions }, values)).toBe(expected);
  });

  it.each<['show' | 'hide', 'all' | 'any', RuleCondition[], boolean]>([
    ['show', 'all', [T, T], true],
    ['show', 'all', [T, F], false],
    ['show', 'any', [T, F], true],
    ['show', 'any', [F, F], false],
    ['hide', 'all', [T, T], false],
    ['hide', 'all', [T, F], true],
    ['hide', 'any', [T, F], false],
    ['hide', 'any', [F, F], true],
    ['show', 'all', [], true],
    ['show', 'any', [], false],
    ['hide', 'all', [], false],
    ['hide', 'any', [], true],
  ])('%s-rule, %s of %j: visible %s', (action, logic, conditions, expected) => {
    expect(isVisibleByRule({ action, logic, conditions }, values)).toBe(expected);
  });

  it('a null rule is visible', () => {
    expect(isVisibleByRule(null, {})).toBe(true);
  });

  it.each<[Values, boolean]>([
    [{ field: '' }, false],
    [{ field: '   ' }, false],
    [{}, false],
    [{ field: 'filled' }, true],
  ])("interface.md §2.5 example (show=false, any, o='=', val=''): %j -> visible %s", (vals, expected) => {
    const rule = normaliseRule('item', hide('any', c('field', '=', '')));
    expect(isVisibleByRule(rule, vals)).toBe(expected);
  });
});

describe('computeVisibility', () => {
  it('hides nothing when the form has no rules', () => {
    const form = makeForm({ rows: [[{ handle: 'a' }, { handle: null }]] });
    const v = computeVisibility(form, { a: 'x' });
    expect(sorted(v.hiddenFields)).toEqual([]);
    expect(sorted(v.hiddenPages)).toEqual([]);
  });

  const showHideForm = makeForm({
    rows: [
      [{ handle: 'kind' }],
      [
        { handle: 'showAll', rules: show('all', c('kind', '=', 'biz'), c('size', '>', 10)) },
        { handle: 'showAny', rules: show('any', c('kind', '=', 'biz'), c('size', '>', 10)) },
        { handle: 'hideAll', rules: hide('all', c('kind', '=', 'biz'), c('size', '>', 10)) },
        { handle: 'hideAny', rules: hide('any', c('kind', '=', 'biz'), c('size', '>', 10)) },
      ],
      [{ handle: 'size' }],
    ],
  });

  it.each<[Values, string[]]>([
    [{ kind: 'biz', size: '20' }, ['hideAll', 'hideAny']],
    [{ kind: 'biz', size: '5' }, ['hideAny', 'showAll']],
    [{ kind: 'home', size: '20' }, ['hideAny', 'showAll']],
    [{ kind: 'home', size: '5' }, ['showAll', 'showAny']],
    [{}, ['showAll', 'showAny']],
  ])('show/hide x all/any for %j hides %j', (values, hidden) => {
    expect(sorted(computeVisibility(showHideForm, values).hiddenFields)).toEqual(hidden);
  });

  it('a field hidden by a rule reads as empty for the rules after it (cascade)', () => {
    const form = makeForm({
      rows: [
        [
          { handle: 'a' },
          { handle: 'b', rules: show('all', c('a', '=', 'on')) },
          { handle: 'c', rules: show('all', c('b', 'isNotEmpty')) },
          { handle: 'd', rules: hide('all', c('c', 'isNotEmpty')) },
        ],
      ],
    });
    expect(sorted(computeVisibility(form, { a: 'on', b: 'x', c: 'y' }).hiddenFields)).toEqual(['d']);
    // a is off: b hides, so c (needs b) hides, so d (hidden while c has a value) shows again.
    expect(sorted(computeVisibility(form, { a: 'off', b: 'x', c: 'y' }).hiddenFields)).toEqual(['b', 'c']);
  });

  it('resolves forward references whatever the definition order', () => {
    // The same chain as above, defined back to front.
    const form = makeForm({
      rows: [
        [
          { handle: 'd', rules: hide('all', c('c', 'isNotEmpty')) },
          { handle: 'c', rules: show('all', c('b', 'isNotEmpty')) },
          { handle: 'b', rules: show('all', c('a', '=', 'on')) },
          { handle: 'a' },
        ],
      ],
    });
    expect(sorted(computeVisibility(form, { a: 'on', b: 'x', c: 'y' }).hiddenFields)).toEqual(['d']);
    expect(sorted(computeVisibility(form, { a: 'off', b: 'x', c: 'y' }).hiddenFields)).toEqual(['b', 'c']);
  });

  it.each([2, 5, 20])('settles a back-to-front chain of %i fields within the pass bound', (n) => {
    // f0 has a value; f(i) shows iff f(i-1) is not empty; defined f(n-1) first.
    const fields: FieldSpec[] = [];
    for (let i = n - 1; i >= 1; i--) {
      fields.push({ handle: `f${i}`, rules: show('all', c(`f${i - 1}`, 'isNotEmpty')) });
    }
    fields.push({ handle: 'f0', rules: hide('all', c('off', '=', 'yes')) });
    const form = makeForm({ rows: [fields] }, { rows: [[{ handle: 'off' }]] });
    const values: Record<string, string> = { off: 'yes' };
    for (let i = 0; i < n; i++) values[`f${i}`] = 'v';
    const all = Array.from({ length: n }, (_, i) => `f${i}`).sort();
    expect(sorted(computeVisibility(form, values).hiddenFields)).toEqual(all);
    expect(sorted(computeVisibility(form, { ...values, off: 'no' }).hiddenFields)).toEqual([]);
  });

  it('a page rule hides the page and every field on it', () => {
    const form = makeForm(
      { rows: [[{ handle: 'wantsExtra' }]] },
      {
        rules: show('all', c('wantsExtra', '=', 'yes')),
        rows: [[{ handle: 'extra1' }], [{ handle: 'extra2', rules: show('all') }, { handle: null }]],
      },
      { rows: [[{ handle: 'last' }]] },
    );
    const hidden = computeVisibility(form, { wantsExtra: 'no', extra1: 'x' });
    expect(sorted(hidden.hiddenPages)).toEqual([1]);
    expect(sorted(hidden.hiddenFields)).toEqual(['extra1', 'extra2']);
    const shown = computeVisibility(form, { wantsExtra: 'yes' });
    expect(sorted(shown.hiddenPages)).toEqual([]);
    expect(sorted(shown.hiddenFields)).toEqual([]);
  });

  it('fields on a hidden page read as empty for rules elsewhere', () => {
    const form = makeForm(
      { rows: [[{ handle: 'skip' }]] },
      { rules: hide('all', c('skip', '=', 'yes')), rows: [[{ handle: 'pet' }]] },
      { rows: [[{ handle: 'petName', rules: show('all', c('pet', '=', 'dog')) }]] },
    );
    expect(sorted(computeVisibility(form, { skip: 'no', pet: 'dog' }).hiddenFields)).toEqual([]);
    const v = computeVisibility(form, { skip: 'yes', pet: 'dog' });
    expect(sorted(v.hiddenPages)).toEqual([1]);
    expect(sorted(v.hiddenFields)).toEqual(['pet', 'petName']);
  });

  it('a page rule may reference a field on a later page, and a rule-hidden field', () => {
    const form = makeForm(
      { rows: [[{ handle: 'mode' }, { handle: 'detail', rules: show('all', c('mode', '=', 'full')) }]] },
      { rules: show('any', c('detail', 'isNotEmpty'), c('late', '=', 'go')), rows: [[{ handle: 'p1' }]] },
      { rows: [[{ handle: 'late' }]] },
    );
    expect(sorted(computeVisibility(form, { mode: 'full', detail: 'x' }).hiddenPages)).toEqual([]);
    // detail has a value but is hidden by its rule, so it reads as empty for the page rule.
    expect(sorted(computeVisibility(form, { mode: 'short', detail: 'x' }).hiddenPages)).toEqual([1]);
    expect(sorted(computeVisibility(form, { mode: 'short', detail: 'x', late: 'go' }).hiddenPages)).toEqual([]);
  });

  it('does not report handle-less fields, even with rules', () => {
    const form = makeForm({ rows: [[{ handle: 'a' }, { handle: null, rules: hide('all', c('a', 'isEmpty')) }]] });
    const v = computeVisibility(form, {});
    expect(sorted(v.hiddenFields)).toEqual([]);
  });

  it('terminates on a mutual cycle and settles in definition order', () => {
    const form = makeForm({
      rows: [
        [
          { handle: 'a', rules: hide('all', c('b', 'isNotEmpty')) },
          { handle: 'b', rules: hide('all', c('a', 'isNotEmpty')) },
        ],
      ],
    });
    // a goes first and hides (b has a value); b then sees a as empty and stays.
    expect(sorted(computeVisibility(form, { a: 'x', b: 'y' }).hiddenFields)).toEqual(['a']);
  });

  it('terminates on a rule that never settles and returns the state after the bound', () => {
    // a hides itself when it has a value, which empties it, which shows it again...
    const form = makeForm({ rows: [[{ handle: 'a', rules: hide('all', c('a', 'isNotEmpty')) }]] });
    // Bound = 1 field + 1 page + 1 = 3 passes: hidden, shown, hidden.
    const first = computeVisibility(form, { a: 'x' });
    expect(sorted(first.hiddenFields)).toEqual(['a']);
    expect(sorted(computeVisibility(form, { a: 'x' }).hiddenFields)).toEqual(sorted(first.hiddenFields));
  });

  it('terminates on a page rule that depends on its own field', () => {
    const form = makeForm({ rules: hide('all', c('own', 'isNotEmpty')), rows: [[{ handle: 'own' }]] });
    const v = computeVisibility(form, { own: 'x' });
    expect(sorted(v.hiddenPages)).toEqual([0]);
    expect(sorted(v.hiddenFields)).toEqual(['own']);
  });

  it('returns fresh sets on each call', () => {
    const form = makeForm({ rows: [[{ handle: 'a', rules: hide('all', c('b', 'isEmpty')) }, { handle: 'b' }]] });
    const first = computeVisibility(form, {});
    (first.hiddenFields as Set<string>).add('b');
    expect(sorted(computeVisibility(form, {}).hiddenFields)).toEqual(['a']);
  });
});

describe('visibleValues', () => {
  const form = makeForm({
    rows: [[{ handle: 'a' }, { handle: 'b', rules: show('all', c('a', '=', 'on')) }]],
  });

  it.each<[Values, Record<string, unknown>]>([
    [{ a: 'on', b: 'x' }, { a: 'on', b: 'x' }],
    [{ a: 'off', b: 'x' }, { a: 'off' }],
    [{ a: 'off', b: 'x', extra: 1 }, { a: 'off', extra: 1 }],
    [{}, {}],
  ])('%j -> %j', (values, expected) => {
    expect(visibleValues(form, values)).toEqual(expected);
  });

  it('uses the visibility it is given instead of recomputing', () => {
    const given: Visibility = { hiddenFields: new Set(['a']), hiddenPages: new Set() };
    expect(visibleValues(form, { a: 'on', b: 'x' }, given)).toEqual({ b: 'x' });
  });

  it('returns a copy', () => {
    const values = { a: 'on', b: 'x' };
    const result = visibleValues(form, values);
    expect(result).not.toBe(values);
  });

  it('keeps a __proto__ key as a key, not as the prototype', () => {
    const values = JSON.parse('{"__proto__": "p", "a": "on"}') as Values;
    const result = visibleValues(form, values);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.keys(result).sort()).toEqual(['__proto__', 'a']);
  });
});

describe('nextVisiblePage / previousVisiblePage', () => {
  const form = makeForm(
    { rows: [[{ handle: 'a' }]] },
    { rows: [] },
    { rows: [] },
    { rows: [] },
    { rows: [] },
  );
  const hidden = (...pages: number[]): Visibility => ({ hiddenFields: new Set(), hiddenPages: new Set(pages) });

  it.each<[number[], number, number | null, number | null]>([
    // [hidden pages, from, next, previous]
    [[], 0, 1, null],
    [[], 2, 3, 1],
    [[], 4, null, 3],
    [[1], 0, 2, null],
    [[1, 2], 0, 3, null],
    [[1, 2], 3, 4, 0],
    [[3, 4], 2, null, 1],
    [[0], 2, 3, 1],
    [[0, 1], 2, 3, null],
    [[1, 2, 3, 4], 0, null, null],
    [[], -1, 0, null],
    [[], 9, null, 4],
  ])('hidden %j, from %i: next %s, previous %s', (pages, from, next, previous) => {
    expect(nextVisiblePage(form, hidden(...pages), from)).toBe(next);
    expect(previousVisiblePage(form, hidden(...pages), from)).toBe(previous);
  });

  it('follows computeVisibility across a page hidden by a rule', () => {
    const ruled = makeForm(
      { rows: [[{ handle: 'go' }]] },
      { rules: show('all', c('go', '=', 'yes')), rows: [] },
      { rows: [] },
    );
    const v = computeVisibility(ruled, { go: 'no' });
    expect(nextVisiblePage(ruled, v, 0)).toBe(2);
    expect(previousVisiblePage(ruled, v, 2)).toBe(0);
    expect(nextVisiblePage(ruled, computeVisibility(ruled, { go: 'yes' }), 0)).toBe(1);
  });
});

describe('buildConditionals', () => {
  const form = makeForm(
    {
      rows: [
        [{ handle: 'isBusiness' }, { handle: 'company', rules: hide('any', c('isBusiness', '=', '')) }],
        [{ handle: null, rules: show('all', c('isBusiness', '=', 'yes')) }],
      ],
    },
    { rules: show('all', c('isBusiness', '!=', 'no')), rows: [[{ handle: 'vat' }]] },
  );

  it('builds the conditionals block of contract §2', () => {
    expect(buildConditionals(form)).toEqual({
      fields: [
        {
          target: 'company',
          action: 'hide',
          logic: 'any',
          conditions: [{ field: 'isBusiness', operator: 'equals', value: '' }],
        },
      ],
      pages: [
        {
          target: '1',
          action: 'show',
          logic: 'all',
          conditions: [{ field: 'isBusiness', operator: 'notEquals', value: 'no' }],
        },
      ],
      buttons: [],
      submit: [],
    });
  });

  it('is empty for a form without rules', () => {
    expect(buildConditionals(makeForm({ rows: [[{ handle: 'a' }]] }))).toEqual({
      fields: [],
      pages: [],
      buttons: [],
      submit: [],
    });
  });

  it('lists field rules in definition order across pages', () => {
    const ordered = makeForm(
      { rows: [[{ handle: 'x', rules: show('all') }], [{ handle: 'y', rules: show('all') }]] },
      { rows: [[{ handle: 'z', rules: show('all') }]] },
    );
    expect(buildConditionals(ordered).fields.map((r: NormalisedRule) => r.target)).toEqual(['x', 'y', 'z']);
  });

  it('is cached per pages object and frozen', () => {
    const first = buildConditionals(form);
    expect(buildConditionals(form)).toBe(first);
    expect(buildConditionals({ pages: form.pages })).toBe(first);
    expect(buildConditionals(makeForm({ rows: [] }))).not.toBe(first);
    expect(Object.isFrozen(first.fields)).toBe(true);
    expect(Object.isFrozen(first.fields[0])).toBe(true);
    expect(() => first.buttons.push(first.fields[0]!)).toThrow(TypeError);
  });

  it.each<[string, Pick<Form, 'pages'>, string]>([
    [
      'a field rule',
      makeForm({ rows: [[{ handle: 'a' }], [{ handle: 'b' }, { handle: 'c', rules: show('all', c('a', '~')) }]] }),
      'pages[0].rows[1][1].rules.criteria[0].o',
    ],
    [
      'a page rule',
      makeForm({ rows: [] }, { rules: show('any', c('a', '='), c('a', 'like')), rows: [] }),
      'pages[1].rules.criteria[1].o',
    ],
    [
      'a submit button rule',
      makeForm({
        rows: [[{ handle: null, rules: { show: true, type: 'each', criteria: [] } as unknown as RuleDefinition }]],
      }),
      'pages[0].rows[0][0].rules.type',
    ],
  ])('roots the error path of %s at the definition file', (_name, broken, path) => {
    let thrown: unknown;
    try {
      buildConditionals(broken);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RuleDefinitionError);
    expect((thrown as RuleDefinitionError).path).toBe(path);
    expect((thrown as RuleDefinitionError).message).toContain(path);
  });
});
