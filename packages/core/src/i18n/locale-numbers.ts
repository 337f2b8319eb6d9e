/** Numbers as a language writes them (issue #34 item 3): read `1.234,5` on a German site, print it back. */
import { parseDecimal } from '../fields/number-field-type.js';
import { canonicalTag } from './message-format.js';
import { localeDecimalFormat } from './locale-decimal-format.js';

export { localeDecimalFormat, toAsciiDigits } from './locale-decimal-format.js';

/**
 * The number `text` writes in `tag`'s conventions (or in canonical form), or null when it is none.
 *
 * @example
 * parseLocaleNumber('de-DE', '1.234,5'); // 1234.5
 * parseLocaleNumber('fr', '1 234,5'); // 1234.5
 */
export function parseLocaleNumber(tag: string, text: string): number | null {
  const parsed = parseDecimal(text, localeDecimalFormat(canonicalTag(tag) ?? 'en'));
  return parsed.ok && parsed.value !== null ? Number(parsed.value) : null;
}

/**
 * `value` written as `tag` writes numbers (options as Intl.NumberFormat's).
 *
 * @example
 * formatLocaleNumber('de-DE', 1234.5); // '1.234,5'
 * formatLocaleNumber('nl', 12.5, { style: 'currency', currency: 'EUR' }); // '€ 12,50'
 */
export function formatLocaleNumber(tag: string, value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(canonicalTag(tag) ?? 'en', options).format(value);
}
