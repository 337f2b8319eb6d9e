/**
 * Checks of one normalised definition that a JSON Schema cannot express: references between
 * fields, uniqueness, value ranges that depend on each other, patterns that must compile.
 * Problems carry the path as written in the file, so they can be located in the source.
 */
import type { FieldDefinition, RuleDefinition } from '@svc/core';
import { formatPath, type PathProblem, type PathSegments } from './definition-problems.js';
import type { FieldLocation, NormalisedDefinition } from './definition-normalise.js';
import { checkTitleFormat } from '../submissions/submission-title.js';
import { ipEntryProblem } from '../security/ip-ranges.js';
import { checkPaymentFields } from './definition-payment-checks.js';
import { contrastProblems, type HostedTheme } from '../hosted/hosted-theme.js';

/** Operators whose `val` is a list (interface.md §2.5 criteria, contract §2). */
const LIST_OPERATORS = new Set(['isOneOf', 'isNotOneOf']);
/** Operators that ignore `val`. */
const VALUELESS_OPERATORS = new Set(['isEmpty', 'isNotEmpty']);

export function checkDefinition(normalised: NormalisedDefinition): PathProblem[] {
  const problems: PathProblem[] = [];
  const report = (path: PathSegments, message: string): void => {
    problems.push({ path, message });
  };
  const inputHandles = checkFieldHandles(normalised.fields, report);

  for (const location of normalised.fields) {
    const { field, path } = location;
    if (field.rules) checkRule(field.rules, [...path, 'rules'], inputHandles, field.handle, report);
    checkField(field, path, inputHandles, report);
  }
  normalised.definition.pages.forEach((page, index) => {
    const pagePath = normalised.pagePaths[index];
    if (page.rules && pagePath) checkRule(page.rules, [...pagePath, 'rules'], inputHandles, null, report);
  });
  checkSubmitFields(normalised.fields, report);
  checkPaymentFields(normalised.fields, report);

  const { settings } = normalised.definition;
  if (settings.successBehavior === 'redirect' && settings.returnUrl === null) {
    report(['settings', 'successBehavior'], '`redirect` needs settings.returnUrl');
  }
  settings.spam.blockedIps.forEach((entry, index) => {
    const problem = ipEntryProblem(entry);
    if (problem) report(['settings', 'spam', 'blockedIps', index], problem);
  });
  const titleProblem = checkTitleFormat(settings.submissionTitleFormat);
  if (titleProblem) report(['settings', 'submissionTitleFormat'], `is not a valid template: ${titleProblem}`);
  // issue #36: the hosted page's colours must pass WCAG AA contrast, as the site-wide theme must.
  for (const { scheme, message } of contrastProblems(settings.hostedTheme as HostedTheme | null)) report(['settings', 'hostedTheme', scheme], message);
  return problems;
}

type Report = (path: PathSegments, message: string) => void;

/** Reports duplicate handles and returns the handles of every input field. */
function checkFieldHandles(fields: readonly FieldLocation[], report: Report): ReadonlySet<string> {
  const firstSeen = new Map<string, PathSegments>();
  for (const { field, path } of fields) {
    if (field.handle === null) continue;
    const first = firstSeen.get(field.handle);
    if (first) {
      report([...path, 'handle'], `duplicate field handle "${field.handle}" (first used at ${formatPath(first)})`);
    } else {
      firstSeen.set(field.handle, path);
    }
  }
  return new Set(firstSeen.keys());
}

/** `ownHandle` is the handle of the field carrying the rule; null for a page rule. */
function checkRule(
  rule: RuleDefinition,
  rulePath: PathSegments,
  inputHandles: ReadonlySet<string>,
  ownHandle: string | null,
  report: Report,
): void {
  rule.criteria.forEach((criterion, index) => {
    const path = [...rulePath, 'criteria', index];
    if (criterion.tgt === ownHandle) {
      report([...path, 'tgt'], 'a field rule cannot target the field itself');
    } else if (!inputHandles.has(criterion.tgt)) {
      report([...path, 'tgt'], `no input field "${criterion.tgt}" in this form`);
    }
    const isList = Array.isArray(criterion.val);
    if (LIST_OPERATORS.has(criterion.o) && !isList) {
      report([...path, 'val'], `must be a list for \`${criterion.o}\``);
    } else if (!LIST_OPERATORS.has(criterion.o) && !VALUELESS_OPERATORS.has(criterion.o) && isList) {
      report([...path, 'val'], `must not be a list for \`${criterion.o}\``);
    }
  });
}

function checkField(
  field: FieldDefinition,
  path: PathSegments,
  inputHandles: ReadonlySet<string>,
  report: Report,
): void {
  switch (field.type) {
    case 'confirmation':
      if (field.target === field.handle) report([...path, 'target'], 'a confirmation cannot confirm itself');
      else if (!inputHandles.has(field.target)) {
        report([...path, 'target'], `no input field "${field.target}" in this form`);
      }
      break;
    case 'regex':
      checkPattern(field.pattern, [...path, 'pattern'], report);
      break;
    case 'select':
    case 'radioGroup':
      checkChoices(field.options, field.value === undefined ? [] : [field.value], path, 'value', report);
      break;
    case 'multipleSelect':
    case 'checkboxGroup':
    case 'dynamicRecipients':
      checkChoices(field.options, field.values ?? [], path, 'values', report);
      break;
    case 'opinionScale':
      checkChoices(field.scales, field.value === undefined ? [] : [field.value], path, 'value', report, 'scales');
      break;
    case 'number':
      if (field.minValue !== undefined && field.maxValue !== undefined && field.minValue > field.maxValue) {
        report([...path, 'maxValue'], `must not be less than minValue (${field.minValue})`);
      }
      break;
    case 'datetime':
      // The schema checked both are ISO dates (`YYYY-MM-DD`), which compare as strings.
      if (field.minDate !== undefined && field.maxDate !== undefined && field.minDate > field.maxDate) {
        report([...path, 'maxDate'], `must not be before minDate (${field.minDate})`);
      }
      break;
    default:
      break;
  }
}

function checkPattern(pattern: string, path: PathSegments, report: Report): void {
  try {
    // The `u` flag is what the server and the browser both compile with.
    new RegExp(pattern, 'u');
  } catch (error) {
    report(path, `is not a valid regular expression: ${(error as Error).message}`);
  }
}

/**
 * Option (or scale) values must be unique, and the default value(s) must be among them.
 * `defaultKey` is `value` (one default) or `values` (a list, reported per item).
 */
function checkChoices(
  choices: readonly { readonly value: string }[],
  defaults: readonly string[],
  fieldPath: PathSegments,
  defaultKey: 'value' | 'values',
  report: Report,
  choicesKey = 'options',
): void {
  const values = new Set<string>();
  choices.forEach((choice, index) => {
    if (values.has(choice.value)) {
      report([...fieldPath, choicesKey, index], `duplicate value "${choice.value}"`);
    }
    values.add(choice.value);
  });
  const noun = choicesKey === 'scales' ? 'scale' : 'option';
  defaults.forEach((value, index) => {
    if (values.has(value)) return;
    const path = defaultKey === 'value' ? [...fieldPath, 'value'] : [...fieldPath, 'values', index];
    report(path, `"${value}" is not one of the ${noun} values`);
  });
}

/** A page may leave its buttons to the renderer, but two submit fields on one page are ambiguous. */
function checkSubmitFields(fields: readonly FieldLocation[], report: Report): void {
  const firstSubmit = new Map<number, PathSegments>();
  for (const { field, pageIndex, path } of fields) {
    if (field.type !== 'submit') continue;
    const first = firstSubmit.get(pageIndex);
    if (first) report(path, `a page has at most one submit field (this page has one at ${formatPath(first)})`);
    else firstSubmit.set(pageIndex, path);
  }
}
