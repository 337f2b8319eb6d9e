/**
 * How deeply a JSON body or a GraphQL document nests, found by one pass over its text: no parser
 * and nothing recursive runs on input that may nest thousands of levels (issue #11). Brackets
 * inside strings (and GraphQL comments and block strings) do not count. It runs on every JSON
 * body and GraphQL document, so it reads char codes and compares numbers (issue #17).
 */

const QUOTE = 0x22; // "
const BACKSLASH = 0x5c;
const HASH = 0x23; // #
const NEWLINE = 0x0a;
const OPENERS = new Uint8Array(128);
const CLOSERS = new Uint8Array(128);
for (const c of '{[(') OPENERS[c.charCodeAt(0)] = 1;
for (const c of '}])') CLOSERS[c.charCodeAt(0)] = 1;

export interface NestingOptions {
  /** GraphQL syntax: `#` comments and `"""` block strings. */
  readonly graphql?: boolean;
}

function isBlockQuote(text: string, at: number): boolean {
  return text.charCodeAt(at) === QUOTE && text.charCodeAt(at + 1) === QUOTE && text.charCodeAt(at + 2) === QUOTE;
}

/**
 * The index of the quote that closes a string starting at `from`, or -1. indexOf jumps from quote
 * to quote natively; a quote after an odd run of backslashes is escaped and skipped.
 */
function stringEnd(text: string, from: number): number {
  let at = text.indexOf('"', from);
  while (at >= 0) {
    let backslashes = 0;
    for (let k = at - 1; k >= from && text.charCodeAt(k) === BACKSLASH; k -= 1) backslashes += 1;
    if (backslashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
  return -1;
}

/** The deepest nesting of `{`, `[` and `(` in `text`; stops early once past `limit`. */
export function nestingDepth(text: string, limit: number, options: NestingOptions = {}): number {
  const graphql = options.graphql === true;
  const length = text.length;
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      if (graphql && isBlockQuote(text, i)) {
        // A block string ends at the next """ that is not escaped as \""".
        i += 3;
        while (i < length && !(isBlockQuote(text, i) && text.charCodeAt(i - 1) !== BACKSLASH)) i += 1;
        if (i >= length) return deepest;
        i += 2;
        continue;
      }
      i = stringEnd(text, i + 1);
      if (i < 0) return deepest;
      continue;
    }
    if (c >= 128) continue;
    if (graphql && c === HASH) {
      while (i < length && text.charCodeAt(i) !== NEWLINE) i += 1;
      continue;
    }
    if (OPENERS[c] === 1) {
      depth += 1;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (CLOSERS[c] === 1 && depth > 0) {
      depth -= 1;
    }
  }
  return deepest;
}
