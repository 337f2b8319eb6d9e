import { describe, expect, it } from 'vitest';
import type { NormalisedRule, RuleCondition } from './form-model.js';
import { visibilityOf, type RuleLayout, type RulePage } from './rule-visibility.js';

function rule(target: string, action: 'show' | 'hide', ...conditions: RuleCondition[]): NormalisedRule {
  return { target, action, logic: 'all', conditions };
}

/** A layout as a client builds it from a manifest: rules already normalised, counts given. */
function layout(...pages: RulePage[]): RuleLayout {
  const fieldCount = pages.reduce((count, page) => count + page.fields.length, 0);
  const hasRules = pages.some((page) => page.rule !== null || page.fields.some((field) => field.rule !== null));
  return { pages, fieldCount, hasRules };
}

describe('visibilityOf', () => {
  it('hides nothing when no page or field has a rule', () => {
    const v = visibilityOf(layout({ index: 0, rule: null, fields: [{ handle: 'a', rule: null }] }), { a: 'x' });
    expect([...v.hiddenFields, ...v.hiddenPages]).toEqual([]);
  });

  it('cascades: a hidden page hides its fields, and a hidden field reads as empty for later rules', () => {
    const rules = layout(
      { index: 0, rule: null, fields: [{ handle: 'kind', rule: null }] },
      {
        index: 1,
        rule: rule('1', 'show', { field: 'kind', operator: 'equals', value: 'company' }),
        fields: [{ handle: 'vat', rule: null }],
      },
      {
        index: 2,
        rule: null,
        fields: [{ handle: 'note', rule: rule('note', 'show', { field: 'vat', operator: 'isNotEmpty', value: null }) }],
      },
    );
    const person = visibilityOf(rules, { kind: 'person', vat: 'GB1' });
    expect([...person.hiddenPages]).toEqual([1]);
    expect([...person.hiddenFields].sort()).toEqual(['note', 'vat']);
    const company = visibilityOf(rules, { kind: 'company', vat: 'GB1' });
    expect([...company.hiddenPages, ...company.hiddenFields]).toEqual([]);
  });

  // A manifest from a newer server may name an operator this build lacks; the client reads the
  // manifest's rules as they are, so such a condition must not match rather than throw.
  it.each(['isBetween', 'toString', 'constructor', '__proto__'])('never matches the unknown operator %s', (operator) => {
    const condition = { field: 'a', operator, value: 'x' } as unknown as RuleCondition;
    const rules = layout({
      index: 0,
      rule: null,
      fields: [
        { handle: 'a', rule: null },
        { handle: 'shown', rule: rule('shown', 'show', condition) },
        { handle: 'kept', rule: rule('kept', 'hide', condition) },
      ],
    });
    expect([...visibilityOf(rules, { a: 'x' }).hiddenFields]).toEqual(['shown']);
  });
});
