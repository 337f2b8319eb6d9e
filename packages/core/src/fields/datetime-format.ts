import type { DateOrder, DatetimeField } from '../form-model.js';

/** A datetime field's display settings with interface.md §2.6 defaults filled in. */
export interface DatetimeFormat {
  readonly kind: 'date' | 'time' | 'both';
  readonly order: DateOrder;
  readonly dateSeparator: string;
  readonly fourDigitYear: boolean;
  readonly leadingZero: boolean;
  readonly clock24h: boolean;
  readonly clockSeparator: string;
  readonly ampmSeparate: boolean;
}

export function datetimeFormatOf(field: DatetimeField): DatetimeFormat {
  return {
    kind: field.dateTimeType ?? 'date',
    order: field.dateOrder ?? 'ymd',
    dateSeparator: field.dateSeparator ?? '-',
    fourDigitYear: field.date4DigitYear ?? true,
    leadingZero: field.dateLeadingZero ?? true,
    clock24h: field.clock24h ?? true,
    clockSeparator: field.clockSeparator ?? ':',
    ampmSeparate: field.clockAMPMSeparate ?? false,
  };
}

type DatePart = 'y' | 'm' | 'd';

function datePartsOf(format: DatetimeFormat): DatePart[] {
  return [...format.order] as DatePart[];
}

export function formatDatetimePlaceholder(field: DatetimeField): string {
  const format = datetimeFormatOf(field);
  const tokens: Record<DatePart, string> = {
    y: format.fourDigitYear ? 'YYYY' : 'YY',
    m: format.leadingZero ? 'MM' : 'M',
    d: format.leadingZero ? 'DD' : 'D',
  };
  const date = datePartsOf(format).map((part) => tokens[part]).join(format.dateSeparator);
  const time = format.clock24h
    ? `HH${format.clockSeparator}mm`
    : `hh${format.clockSeparator}mm${format.ampmSeparate ? ' ' : ''}AM`;
  if (format.kind === 'date') return date;
  return format.kind === 'time' ? time : `${date} ${time}`;
}

/** An ISO date as the field displays it, so limits in messages read like the input. */
export function formatIsoDate(field: DatetimeField, iso: string): string {
  const format = datetimeFormatOf(field);
  const [year = '', month = '', day = ''] = iso.split('-');
  const trim = (part: string) => (format.leadingZero ? part : String(Number(part)));
  const parts: Record<DatePart, string> = {
    y: format.fourDigitYear ? year : year.slice(-2),
    m: trim(month),
    d: trim(day),
  };
  return datePartsOf(format).map((part) => parts[part]).join(format.dateSeparator);
}

const ISO_DATE = '(\\d{4})-(\\d{2})-(\\d{2})';
const ISO_TIME = '(\\d{2}):(\\d{2})(?::(\\d{2}))?';
/** Group layout shared with the display patterns: year, month, day, hour, minute, second. */
const ISO_PATTERNS = {
  date: new RegExp(`^${ISO_DATE}$`),
  time: new RegExp(`^()()()${ISO_TIME}$`),
  both: new RegExp(`^${ISO_DATE}[T ]${ISO_TIME}$`),
} as const;

/** A display-format regex and the date part each of its first three groups captures. */
interface DisplayPattern {
  readonly regex: RegExp;
  readonly order: readonly DatePart[];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/**
 * Groups are always three date parts (in the configured order), hour, minute, second, meridiem;
 * empty groups stand in for parts the kind lacks. Widths are flexible when a separator delimits
 * them and exact when nothing does.
 */
function displayPattern(format: DatetimeFormat): DisplayPattern {
  const separated = format.dateSeparator !== '';
  const year = format.fourDigitYear ? '(\\d{4})' : separated ? '(\\d{2}|\\d{4})' : '(\\d{2})';
  const dayOrMonth = separated || !format.leadingZero ? '(\\d{1,2})' : '(\\d{2})';
  const order = datePartsOf(format);
  const dateSource = order.map((part) => (part === 'y' ? year : dayOrMonth)).join(escapeRegExp(format.dateSeparator));
  const clock = escapeRegExp(format.clockSeparator);
  const hour = format.clockSeparator === '' ? '(\\d{2})' : '(\\d{1,2})';
  const meridiem = format.clock24h ? '()' : ' ?([AaPp][Mm])';
  const timeSource = `${hour}${clock}(\\d{2})(?:${clock}(\\d{2}))?${meridiem}`;
  const source =
    format.kind === 'date'
      ? `${dateSource}()()()()`
      : format.kind === 'time'
        ? `()()()${timeSource}`
        : `${dateSource}\\s+${timeSource}`;
  return { regex: new RegExp(`^${source}$`), order };
}

const displayPatterns = new Map<string, DisplayPattern>();
const MAX_CACHED_FORMATS = 200;

function cachedDisplayPattern(format: DatetimeFormat): DisplayPattern {
  const key = JSON.stringify(format);
  let pattern = displayPatterns.get(key);
  if (pattern === undefined) {
    if (displayPatterns.size >= MAX_CACHED_FORMATS) displayPatterns.clear();
    pattern = displayPattern(format);
    displayPatterns.set(key, pattern);
  }
  return pattern;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/** Arithmetic rather than Date: Date maps years 0-99 onto 1900-1999. */
function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : (MONTH_DAYS[month - 1] ?? 0);
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

interface RawParts {
  readonly year: string;
  readonly month: string;
  readonly day: string;
  readonly hour: string;
  readonly minute: string;
  readonly second: string;
  readonly meridiem: string;
}

function toIso(kind: DatetimeFormat['kind'], parts: RawParts): string | null {
  let date = '';
  if (kind !== 'time') {
    const year = parts.year.length === 2 ? 2000 + Number(parts.year) : Number(parts.year);
    const month = Number(parts.month);
    const day = Number(parts.day);
    if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
    date = `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
  }
  if (kind === 'date') return date;
  let hour = Number(parts.hour);
  const minute = Number(parts.minute);
  const second = parts.second === '' ? 0 : Number(parts.second);
  if (parts.meridiem !== '') {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (parts.meridiem.toLowerCase() === 'pm' ? 12 : 0);
  }
  if (hour > 23 || minute > 59 || second > 59) return null;
  const time = `${pad(hour)}:${pad(minute)}`;
  return kind === 'time' ? time : `${date}T${time}`;
}

/**
 * Raw text in ISO form or the field's display form, as ISO (`YYYY-MM-DD`, `HH:MM`,
 * `YYYY-MM-DDTHH:MM`); null when it is neither or names an impossible moment. Seconds are
 * accepted and dropped: no field displays them.
 */
export function parseDatetime(format: DatetimeFormat, text: string): string | null {
  const iso = ISO_PATTERNS[format.kind].exec(text);
  if (iso !== null) {
    const [, year = '', month = '', day = '', hour = '', minute = '', second = ''] = iso;
    return toIso(format.kind, { year, month, day, hour, minute, second, meridiem: '' });
  }
  const { regex, order } = cachedDisplayPattern(format);
  const match = regex.exec(text);
  if (match === null) return null;
  const date = { y: '', m: '', d: '' };
  order.forEach((part, index) => {
    date[part] = match[index + 1] ?? '';
  });
  const [hour = '', minute = '', second = '', meridiem = ''] = match.slice(4);
  return toIso(format.kind, { year: date.y, month: date.m, day: date.d, hour, minute, second, meridiem });
}
