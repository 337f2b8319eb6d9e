/**
 * How a language writes decimals (`de`: `1.234,5`; `fr`: `1 234,5`; `de-CH`: `1’234.5`), read from
 * Intl.NumberFormat's parts so no table of locales is kept here.
 */
/** A way of writing decimals: its decimal mark and its grouping mark ('' for none). */
export interface DecimalFormat {
  readonly decimalSeparator: string;
  readonly thousandsSeparator: string;
}

const SPACES = new Set([' ', '\u00a0', '\u202f']);
const formats = new Map<string, DecimalFormat>();
const MAX_CACHED_FORMATS = 100;

/** The decimal and grouping separators of `tag`; canonical ('.' and none) for an unusable tag. */
export function localeDecimalFormat(tag: string): DecimalFormat {
  let format = formats.get(tag);
  if (format !== undefined) return format;
  let parts: Intl.NumberFormatPart[];
  try {
    parts = new Intl.NumberFormat(tag, { useGrouping: true }).formatToParts(1234567.5);
  } catch {
    return { decimalSeparator: '.', thousandsSeparator: '' };
  }
  const decimal = parts.find((part) => part.type === 'decimal')?.value ?? '.';
  const group = parts.find((part) => part.type === 'group')?.value ?? '';
  // People type a plain space where the locale prints a no-break one, and ' for Swiss ’ (which ICU
  // versions disagree on); the parser accepts both spellings of ' ' and '.
  const thousands = SPACES.has(group) ? ' ' : group === '\u2019' ? "'" : group;
  format = { decimalSeparator: decimal, thousandsSeparator: thousands };
  if (formats.size >= MAX_CACHED_FORMATS) formats.clear();
  formats.set(tag, format);
  return format;
}

const ARABIC_INDIC_ZERO = 0x0660;
const EXTENDED_ARABIC_INDIC_ZERO = 0x06f0;

/** Arabic-Indic (٠-٩) and Persian (۰-۹) digits as ASCII, as an Arabic keyboard may type them. */
export function toAsciiDigits(text: string): string {
  return text.replace(/[\u0660-\u0669\u06f0-\u06f9]/g, (digit) => {
    const code = digit.charCodeAt(0);
    const zero = code >= EXTENDED_ARABIC_INDIC_ZERO ? EXTENDED_ARABIC_INDIC_ZERO : ARABIC_INDIC_ZERO;
    return String(code - zero);
  });
}
