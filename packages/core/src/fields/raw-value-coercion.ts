import { FIELD_MESSAGES, type FieldMessages } from './field-messages.js';

export type Coerced<V> = { readonly ok: true; readonly value: V } | { readonly ok: false; readonly error: string };

/** Defence against oversized payloads reaching storage or regexes, whatever the field says. */
export const MAX_TEXT_CHARS = 100_000;
/** No list field has anywhere near this many options; larger lists are abuse, not input. */
export const MAX_LIST_ITEMS = 1_000;

/**
 * A scalar wire value as text: JSON numbers and booleans become strings because HTML-free
 * clients often send them unquoted; objects and arrays are a shape error. '' is empty (null).
 */
export function coerceText(
  raw: unknown,
  maxChars: number = MAX_TEXT_CHARS,
  messages: FieldMessages = FIELD_MESSAGES,
): Coerced<string | null> {
  if (raw === undefined || raw === null || raw === '') return { ok: true, value: null };
  if (typeof raw === 'string') {
    return raw.length > maxChars
      ? { ok: false, error: messages.textTooLong(maxChars) }
      : { ok: true, value: raw };
  }
  if (typeof raw === 'number') {
    return Number.isFinite(raw) ? { ok: true, value: String(raw) } : { ok: false, error: messages.notText };
  }
  if (typeof raw === 'boolean' || typeof raw === 'bigint') return { ok: true, value: String(raw) };
  return { ok: false, error: messages.notText };
}

/**
 * A list wire value: a single scalar counts as a one-item list, blanks are dropped (classic
 * posts add an empty placeholder so an untouched group is still sent) and duplicates collapse.
 */
export function coerceTextList(raw: unknown, messages: FieldMessages = FIELD_MESSAGES): Coerced<readonly string[]> {
  if (raw === undefined || raw === null || raw === '') return { ok: true, value: [] };
  const items: readonly unknown[] = Array.isArray(raw) ? raw : [raw];
  if (items.length > MAX_LIST_ITEMS) return { ok: false, error: messages.tooManyItems(MAX_LIST_ITEMS) };
  const seen = new Set<string>();
  for (const item of items) {
    // A list of objects is a wrong shape for the whole value, not a bad item of text.
    if (typeof item === 'object' && item !== null) return { ok: false, error: messages.notList };
    const text = coerceText(item, MAX_TEXT_CHARS, messages);
    if (!text.ok) return text;
    if (text.value !== null) seen.add(text.value);
  }
  return { ok: true, value: [...seen] };
}

const TRUTHY = new Set(['1', 'true', 'on', 'yes']);
const FALSY = new Set(['', '0', 'false', 'off', 'no']);

/** An on/off wire value; undefined when it is neither (so callers can report a shape error). */
export function parseFlag(raw: unknown): boolean | undefined {
  if (raw === undefined || raw === null) return false;
  if (typeof raw === 'boolean') return raw;
  if (raw === 1) return true;
  if (raw === 0) return false;
  if (typeof raw !== 'string') return undefined;
  const word = raw.trim().toLowerCase();
  if (TRUTHY.has(word)) return true;
  if (FALSY.has(word)) return false;
  return undefined;
}

/** Code points rather than UTF-16 units, so an emoji counts as one character as people expect. */
export function countCodePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i += 1;
    }
    count += 1;
  }
  return count;
}
