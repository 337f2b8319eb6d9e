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

/** Numbers no form sets, so where they appear in a formatted message, a parameter was. */
const PROBE = 9_876_501;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function templateOf(messages: FieldMessages, format: (...args: number[]) => string): RegExp | null {
  const args = Array.from({ length: format.length }, (_, i) => PROBE + i);
  let text: string;
  try {
    text = format(...args);
  } catch {
    return null;
  }
  const grouping = new Intl.NumberFormat(messages.locale);
  let pattern = escapeRegExp(text);
  for (const n of args) {
    for (const written of new Set([grouping.format(n), String(n)])) pattern = pattern.split(escapeRegExp(written)).join('(.+?)');
  }
  return pattern.includes('(.+?)') ? new RegExp(`^${pattern}$`, 'su') : null;
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
      const pattern = templateOf(messages, value as (...args: number[]) => string);
      if (pattern) templates.push({ key, pattern });
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
