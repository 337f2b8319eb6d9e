/**
 * How deeply a JSON body or a GraphQL document nests, found by one pass over its text: no parser
 * and nothing recursive runs on input that may nest thousands of levels (issue #11). Brackets
 * inside strings (and GraphQL comments and block strings) do not count.
 */

const OPEN = new Set(['{', '[', '(']);
const CLOSE = new Set(['}', ']', ')']);

export interface NestingOptions {
  /** GraphQL syntax: `#` comments and `"""` block strings. */
  readonly graphql?: boolean;
}

/** The deepest nesting of `{`, `[` and `(` in `text`; stops early once past `limit`. */
export function nestingDepth(text: string, limit: number, options: NestingOptions = {}): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (c === '"') {
      if (options.graphql && text.startsWith('"""', i)) {
        // Block strings end at the next unescaped """.
        const end = findBlockStringEnd(text, i + 3);
        if (end < 0) return deepest;
        i = end + 2;
        continue;
      }
      i = findStringEnd(text, i + 1);
      if (i < 0) return deepest;
      continue;
    }
    if (options.graphql && c === '#') {
      const end = text.indexOf('\n', i);
      if (end < 0) return deepest;
      i = end;
      continue;
    }
    if (OPEN.has(c)) {
      depth += 1;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (CLOSE.has(c) && depth > 0) {
      depth -= 1;
    }
  }
  return deepest;
}

function findStringEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i += 1) {
    const c = text[i];
    if (c === '\\') i += 1;
    else if (c === '"') return i;
  }
  return -1;
}

function findBlockStringEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i += 1) {
    if (text[i] === '\\' && text.startsWith('\\"""', i)) i += 3;
    else if (text.startsWith('"""', i)) return i;
  }
  return -1;
}
