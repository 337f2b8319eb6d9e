/**
 * Which message a validation error is (issue #38): field errors reach the answer as sentences in
 * the site's language, and insights count them by the catalogue's key instead (`invalidEmail`,
 * `belowMin`), so one form's figures add up across languages and never hold a sentence that
 * could carry what someone typed. The form's own message for a field (a regex field's `message`)
 * is `custom`; anything else is `other`.
 */
import type { Field, FieldMessages } from '@svc/core';

interface KeyMatcher {
  readonly exact: ReadonlyMap<string, string>;
  readonly templates: readonly { readonly key: string; readonly pattern: RegExp }[];
}

/**
 * Parameters to format each message with: one of every plural category a language has (Arabic's
 * "one" and "two" forms name no number at all, so those come out as fixed sentences), and a large
 * number no form sets, so where it appears in a sentence a parameter was.
 */
const SAMPLES = [0, 1, 2, 3, 11, 100, 9_876_501];
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each way `format` reads: a fixed sentence, or a pattern with its parameters as wildcards. */
function formsOf(messages: FieldMessages, format: (...args: number[]) => string): (string | RegExp)[] {
  const grouping = new Intl.NumberFormat(messages.locale);
  const out = new Map<string, string | RegExp>();
  for (const sample of SAMPLES) {
    const args = Array.from({ length: format.length }, (_, i) => sample + i);
    let text: string;
    try {
      text = format(...args);
    } catch {
      continue;
    }
    let pattern = escapeRegExp(text);
    for (const n of args) {
      for (const written of new Set([grouping.format(n), String(n)])) pattern = pattern.split(escapeRegExp(written)).join('(.+?)');
    }
    out.set(pattern, pattern.includes('(.+?)') ? new RegExp(`^${pattern}$`, 'su') : text);
  }
  return [...out.values()];
}

const matchers = new WeakMap<FieldMessages, KeyMatcher>();

function matcherFor(messages: FieldMessages): KeyMatcher {
  let matcher = matchers.get(messages);
  if (matcher) return matcher;
  const exact = new Map<string, string>();
  const templates: { key: string; pattern: RegExp }[] = [];
  for (const [key, value] of Object.entries(messages)) {
    if (key === 'locale' || key === 'column') continue;
    if (typeof value === 'string') exact.set(value, key);
    else if (typeof value === 'function') {
      for (const form of formsOf(messages, value as (...args: number[]) => string)) {
        if (typeof form === 'string') exact.set(form, key);
        else templates.push({ key, pattern: form });
      }
    }
  }
  matcher = { exact, templates };
  matchers.set(messages, matcher);
  return matcher;
}

/** The catalogue key of `message`, an error `field` answered with in `messages`' language. */
export function messageKey(messages: FieldMessages, field: Field | undefined, message: string): string {
  const own = field && 'message' in field ? field.message : undefined;
  if (own !== undefined && message === own) return 'custom';
  const matcher = matcherFor(messages);
  const exact = matcher.exact.get(message);
  if (exact !== undefined) return exact;
  return matcher.templates.find((t) => t.pattern.test(message))?.key ?? 'other';
}
