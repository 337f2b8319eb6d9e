/**
 * The evaluating half of the conditional-rules engine: which fields and pages rules already in
 * the manifest's normalised form (contract §2 `conditionals`) hide for a set of values.
 * rules-engine.ts turns definition files into this form; a browser client holds it already (the
 * manifest), so it loads only this half and never re-parses what the server normalised.
 */
import type { NormalisedRule, RuleCondition, Values } from './form-model.js';
import { OPERATORS, type RuleValue } from './rule-operators.js';

/** A field's value as rules see it: missing, or hidden by another rule, reads as undefined (empty). */
function ruleInput(values: Values, field: string, hidden: ReadonlySet<string> | null): RuleValue {
  if (hidden !== null && hidden.has(field)) return undefined;
  // hasOwn, because a handle such as `constructor` would otherwise read Object.prototype.
  return Object.hasOwn(values, field) ? values[field] : undefined;
}

function conditionHolds(
  condition: RuleCondition,
  values: Values,
  hidden: ReadonlySet<string> | null,
): boolean {
  // A manifest from a newer server may carry an operator this build lacks: it never matches.
  // hasOwn, so a name such as `toString` does not find Object.prototype.
  if (!Object.hasOwn(OPERATORS, condition.operator)) return false;
  const fn = OPERATORS[condition.operator];
  return fn(ruleInput(values, condition.field, hidden), condition.value);
}

function matches(
  rule: Pick<NormalisedRule, 'logic' | 'conditions'>,
  values: Values,
  hidden: ReadonlySet<string> | null,
): boolean {
  const conditions = rule.conditions;
  if (rule.logic === 'any') {
    for (let i = 0; i < conditions.length; i++) {
      if (conditionHolds(conditions[i]!, values, hidden)) return true;
    }
    return false;
  }
  for (let i = 0; i < conditions.length; i++) {
    if (!conditionHolds(conditions[i]!, values, hidden)) return false;
  }
  return true;
}

function visibleUnder(
  rule: Pick<NormalisedRule, 'action' | 'logic' | 'conditions'> | null,
  values: Values,
  hidden: ReadonlySet<string> | null,
): boolean {
  if (rule === null) return true;
  const matched = matches(rule, values, hidden);
  return rule.action === 'show' ? matched : !matched;
}

export function evaluateCondition(condition: RuleCondition, values: Values): boolean {
  return conditionHolds(condition, values, null);
}

/** all -> every condition true (empty criteria: true); any -> some condition true (empty: false). */
export function ruleMatches(rule: Pick<NormalisedRule, 'logic' | 'conditions'>, values: Values): boolean {
  return matches(rule, values, null);
}

/** show-rule: visible iff matches; hide-rule: hidden iff matches; null rule: visible. */
export function isVisibleByRule(
  rule: Pick<NormalisedRule, 'action' | 'logic' | 'conditions'> | null,
  values: Values,
): boolean {
  return visibleUnder(rule, values, null);
}

export interface Visibility {
  readonly hiddenFields: ReadonlySet<string>;
  readonly hiddenPages: ReadonlySet<number>;
}

export interface RuleField {
  readonly handle: string;
  readonly rule: NormalisedRule | null;
}

/** One page of a RuleLayout: its rule, then its fields in definition order. */
export interface RulePage {
  readonly index: number;
  readonly rule: NormalisedRule | null;
  /** Only fields with a handle: a handle-less field has no value and is not reported. */
  readonly fields: readonly RuleField[];
}

/** The rules of a form as visibilityOf walks them; counts kept so a submit does not recount them. */
export interface RuleLayout {
  readonly pages: readonly RulePage[];
  /** Fields across every page (the cascade's pass limit). */
  readonly fieldCount: number;
  /** False when no page or field has a rule, so nothing can be hidden. */
  readonly hasRules: boolean;
}

/**
 * Which fields (by handle) and pages (by index) are hidden for these values.
 *
 * A hidden field reads as empty for every other rule, and a hidden page hides its fields, so one
 * change can cascade. Passes run in definition order (each page's rule, then its fields), updating
 * in place, until a pass changes nothing; a cycle that never settles stops after fields + pages + 1
 * passes, which is enough for any chain without a cycle to settle, with the last state returned.
 */
export function visibilityOf(layout: RuleLayout, values: Values): Visibility {
  const hiddenFields = new Set<string>();
  const hiddenPages = new Set<number>();
  if (!layout.hasRules) return { hiddenFields, hiddenPages };

  const maxPasses = layout.fieldCount + layout.pages.length + 1;
  for (let pass = 0; pass < maxPasses; pass++) {
    let changed = false;
    for (const page of layout.pages) {
      const pageHidden = !visibleUnder(page.rule, values, hiddenFields);
      if (pageHidden !== hiddenPages.has(page.index)) {
        if (pageHidden) hiddenPages.add(page.index);
        else hiddenPages.delete(page.index);
        changed = true;
      }
      for (const field of page.fields) {
        const hidden = pageHidden || !visibleUnder(field.rule, values, hiddenFields);
        if (hidden !== hiddenFields.has(field.handle)) {
          if (hidden) hiddenFields.add(field.handle);
          else hiddenFields.delete(field.handle);
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return { hiddenFields, hiddenPages };
}
