/**
 * The conditional-rules engine (interface.md §2.5, contract §2 `conditionals`): which fields and
 * pages a set of values hides, the effective values a submit keeps, and the manifest's
 * `conditionals` block. Pure and browser-safe so server and client agree on visibility; the
 * evaluation itself is rule-visibility.ts, which a client holding the manifest loads alone.
 *
 * Everything derived from a form's rules is compiled once per `pages` array (WeakMap) because
 * computeVisibility runs on every submit; forms are immutable once loaded, so the cache never goes
 * stale.
 */
import type {
  FieldValue,
  Form,
  NormalisedRule,
  Page,
  RuleCondition,
  RuleCriterion,
  RuleDefinition,
  Values,
} from './form-model.js';
import { parseOperator } from './rule-operators.js';
import { visibilityOf, type RuleField, type RuleLayout, type RulePage, type Visibility } from './rule-visibility.js';

export { parseOperator } from './rule-operators.js';
export {
  evaluateCondition,
  isVisibleByRule,
  ruleMatches,
  visibilityOf,
  type RuleField,
  type RuleLayout,
  type RulePage,
  type Visibility,
} from './rule-visibility.js';

/** A rule definition that cannot be normalised; `path` points into the rule (or form) that failed. */
export class RuleDefinitionError extends Error {
  /**
   * Where in the definition: `criteria[0].o` from normaliseRule, rooted at the form file
   * (`pages[1].rows[0][2].rules.type`) from buildConditionals and computeVisibility.
   */
  readonly path: string;
  /** The message without the path, so the error can be re-rooted at the form. */
  readonly reason: string;

  constructor(reason: string, path: string) {
    super(path === '' ? reason : `${path}: ${reason}`);
    this.name = 'RuleDefinitionError';
    this.path = path;
    this.reason = reason;
  }
}

/** Definition rule -> manifest form (contract §2). Throws RuleDefinitionError on bad input. */
export function normaliseRule(target: string, rule: RuleDefinition): NormalisedRule {
  // Definitions come from YAML/JSON; the checks below keep a malformed file from failing later,
  // on a submit, with a less useful error.
  if (typeof rule !== 'object' || rule === null) {
    throw new RuleDefinitionError('a rule must be an object with show, type and criteria', '');
  }
  if (rule.type !== 'all' && rule.type !== 'any') {
    throw new RuleDefinitionError(`type must be "all" or "any", not ${JSON.stringify(rule.type)}`, 'type');
  }
  if (!Array.isArray(rule.criteria)) {
    throw new RuleDefinitionError('criteria must be a list', 'criteria');
  }
  const criteria: readonly RuleCriterion[] = rule.criteria;
  const conditions: RuleCondition[] = [];
  for (let i = 0; i < criteria.length; i++) {
    const criterion = criteria[i];
    if (typeof criterion !== 'object' || criterion === null) {
      throw new RuleDefinitionError('a criterion must be an object with tgt, o and val', `criteria[${i}]`);
    }
    if (typeof criterion.tgt !== 'string' || criterion.tgt === '') {
      throw new RuleDefinitionError('tgt must be a field handle', `criteria[${i}].tgt`);
    }
    const operator = parseOperator(criterion.o);
    if (operator === null) {
      throw new RuleDefinitionError(`unknown operator ${JSON.stringify(criterion.o)}`, `criteria[${i}].o`);
    }
    conditions.push({ field: criterion.tgt, operator, value: criterion.val ?? null });
  }
  return { target, action: rule.show ? 'show' : 'hide', logic: rule.type, conditions };
}

/** The manifest's `conditionals` block (contract §2). */
export interface Conditionals {
  fields: NormalisedRule[];
  pages: NormalisedRule[];
  buttons: NormalisedRule[];
  submit: NormalisedRule[];
}

interface CompiledForm extends RuleLayout {
  readonly conditionals: Conditionals;
}

const compiled = new WeakMap<readonly Page[], CompiledForm>();

function freezeRule(rule: NormalisedRule): NormalisedRule {
  for (const condition of rule.conditions) Object.freeze(condition);
  Object.freeze(rule.conditions);
  return Object.freeze(rule);
}

/** Normalise with the error path rooted at the definition file (what a site owner edits). */
function compileRule(target: string, rule: RuleDefinition, at: string): NormalisedRule {
  try {
    return freezeRule(normaliseRule(target, rule));
  } catch (error) {
    if (error instanceof RuleDefinitionError) {
      const path = error.path === '' ? `${at}.rules` : `${at}.rules.${error.path}`;
      throw new RuleDefinitionError(error.reason, path);
    }
    throw error;
  }
}

function noRules(): NormalisedRule[] {
  return [];
}

function compile(pages: readonly Page[]): CompiledForm {
  const cached = compiled.get(pages);
  if (cached !== undefined) return cached;

  const compiledPages: RulePage[] = [];
  const fieldRules: NormalisedRule[] = [];
  const pageRules: NormalisedRule[] = [];
  let fieldCount = 0;
  for (let p = 0; p < pages.length; p++) {
    const page = pages[p]!;
    const pageRule = page.rules ? compileRule(String(page.index), page.rules, `pages[${p}]`) : null;
    if (pageRule !== null) pageRules.push(pageRule);
    const fields: RuleField[] = [];
    for (let r = 0; r < page.rows.length; r++) {
      const row = page.rows[r]!;
      for (let f = 0; f < row.fields.length; f++) {
        const field = row.fields[f]!;
        const handle = field.handle;
        // Handle-less (submit) fields: validate their rules now, but they have no value and are
        // not reported, and buttons are not in the conditionals block yet.
        const rule = field.rules
          ? compileRule(handle ?? '', field.rules, `pages[${p}].rows[${r}][${f}]`)
          : null;
        if (handle === null) continue;
        if (rule !== null) fieldRules.push(rule);
        fields.push({ handle, rule });
        fieldCount++;
      }
    }
    compiledPages.push({ index: page.index, rule: pageRule, fields });
  }
  const result: CompiledForm = {
    pages: compiledPages,
    fieldCount,
    hasRules: fieldRules.length > 0 || pageRules.length > 0,
    // Frozen because every caller shares this one cached object.
    conditionals: Object.freeze({
      fields: Object.freeze(fieldRules) as NormalisedRule[],
      pages: Object.freeze(pageRules) as NormalisedRule[],
      buttons: Object.freeze(noRules()) as NormalisedRule[],
      submit: Object.freeze(noRules()) as NormalisedRule[],
    }),
  };
  compiled.set(pages, result);
  return result;
}

/** Which fields and pages are hidden for these values (see visibilityOf). */
export function computeVisibility(form: Pick<Form, 'pages'>, values: Values): Visibility {
  return visibilityOf(compile(form.pages), values);
}

/** Effective values: values with hidden fields removed (keys of no field are kept). */
export function visibleValues(
  form: Pick<Form, 'pages'>,
  values: Values,
  visibility: Visibility = computeVisibility(form, values),
): Record<string, FieldValue> {
  const result: Record<string, FieldValue> = {};
  for (const key of Object.keys(values)) {
    if (visibility.hiddenFields.has(key)) continue;
    const value = values[key]!;
    // Plain assignment of `__proto__` would set the prototype instead of adding a key.
    if (key === '__proto__') {
      Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
    } else {
      result[key] = value;
    }
  }
  return result;
}

/** Index of the next page after `from` that is not hidden, or null. */
export function nextVisiblePage(
  form: Pick<Form, 'pages'>,
  visibility: Visibility,
  from: number,
): number | null {
  // Smallest qualifying index rather than the first in array order, so page order is not assumed.
  let best: number | null = null;
  for (const page of form.pages) {
    if (page.index <= from || visibility.hiddenPages.has(page.index)) continue;
    if (best === null || page.index < best) best = page.index;
  }
  return best;
}

/** Index of the first not-hidden page before `from`, or null. */
export function previousVisiblePage(
  form: Pick<Form, 'pages'>,
  visibility: Visibility,
  from: number,
): number | null {
  let best: number | null = null;
  for (const page of form.pages) {
    if (page.index >= from || visibility.hiddenPages.has(page.index)) continue;
    if (best === null || page.index > best) best = page.index;
  }
  return best;
}

/**
 * The manifest's conditionals block: a rule per field with rules (target = handle) and per page
 * with rules (target = String(page.index)). Cached and frozen: callers share one object per form.
 */
export function buildConditionals(form: Pick<Form, 'pages'>): Conditionals {
  return compile(form.pages).conditionals;
}
