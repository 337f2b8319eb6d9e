/**
 * How a language writes a date (`de`: 31.12.2026, `nl`: 31-12-2026), read from
 * Intl.DateTimeFormat's parts, so a date field can take the site's way of writing the order its
 * own format already has (issue #34 item 3: "as the field's format allows").
 */
import type { DateOrder } from '../form-model.js';
import type { DatetimeFormat } from '../fields/datetime-format.js';

export interface LocaleDateWriting {
  readonly order: DateOrder;
  readonly separator: string;
}

const BIDI_MARKS = /[\u061c\u200e\u200f]/g;
const writings = new Map<string, LocaleDateWriting | null>();
const MAX_CACHED_WRITINGS = 100;
const PART_LETTER = { day: 'd', month: 'm', year: 'y' } as const;

/** The numeric date order and separator of `tag`, or null when it has no plain numeric form. */
export function localeDateWriting(tag: string): LocaleDateWriting | null {
  const cached = writings.get(tag);
  if (cached !== undefined) return cached;
  let writing: LocaleDateWriting | null = null;
  try {
    const parts = new Intl.DateTimeFormat(tag, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' })
      .formatToParts(Date.UTC(2026, 11, 31));
    const order = parts.flatMap((part) => (part.type in PART_LETTER ? [PART_LETTER[part.type as keyof typeof PART_LETTER]] : []));
    const separators = new Set(parts.filter((part) => part.type === 'literal').map((part) => part.value.replace(BIDI_MARKS, '')));
    const [separator] = separators;
    const joined = order.join('');
    // Only the forms a date field can be set to: three numbers, one separator between them.
    if (separators.size === 1 && separator !== undefined && /^(?:dmy|mdy|ymd)$/.test(joined)) {
      writing = { order: joined as DateOrder, separator: separator.trim() === '' ? ' ' : separator.trim() };
    }
  } catch {
    writing = null;
  }
  if (writings.size >= MAX_CACHED_WRITINGS) writings.clear();
  writings.set(tag, writing);
  return writing;
}

/**
 * The field's format with the date separator `tag` writes, when the language puts the parts in
 * the same order as the field (a German site, a day-first field: `31.12.2026` as well as
 * `31/12/2026`); null when the language writes it no differently or in another order.
 */
export function localeVariantOf(format: DatetimeFormat, tag: string): DatetimeFormat | null {
  if (format.kind === 'time') return null;
  const writing = localeDateWriting(tag);
  if (writing === null || writing.order !== format.order || writing.separator === format.dateSeparator) return null;
  return { ...format, dateSeparator: writing.separator };
}
