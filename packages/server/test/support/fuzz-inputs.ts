/**
 * Replayable random inputs for fuzz.test.ts: a seeded PRNG (mulberry32) and generators of the odd
 * things clients send: path segments, header values, JSON values and their mutations, raw
 * multipart bodies and GraphQL documents. No generator emits text that looks like a leak (a stack
 * frame, SQL, a server path), so a response that echoes input is never mistaken for one.
 */
import type { Field } from '@svc/core';
import { paddedPdf, tinyPng } from './sample-files.js';

/**
 * What a response must never contain (README: "no stack trace or SQL ever reaches a response").
 * Statement shapes rather than bare keywords: a body is one line of JSON, and a form with a field
 * named `select` and a label saying "from" is not SQL.
 */
export const LEAK_PATTERNS: readonly (readonly [string, RegExp])[] = [
  ['a stack frame', /(\n|\\n)\s+at | at .*\.(ts|js|mjs|cjs):\d+/],
  ['SQL text', /\b(select\s+(\*|distinct\b|count\s*\(|"?\w+"?\s*\.\s*"?\w)|insert\s+into\s+["`\w]|update\s+["`]?\w+["`]?\s+set\s|delete\s+from\s+["`\w])/i],
  ['a table name', /\bsvc_(deliveries|delivery_attempts|drafts|fields|files|forms|idempotency_keys|migrations|submissions)\b/],
  ['a database error', /sqlite|postgres|no such (table|column)|syntax error at or near|constraint failed/i],
  ['a server path', /\/work\/|\/tmp\/|node_modules/],
];

/** The looser SQL shape, for one server-written message, where it cannot straddle JSON strings. */
export const SQL_IN_MESSAGE = /\b(SELECT|INSERT|UPDATE|DELETE)\b.*\b(FROM|INTO|SET)\b/i;

export function findLeak(text: string): string | null {
  for (const [label, pattern] of LEAK_PATTERNS) if (pattern.test(text)) return label;
  return null;
}

/** mulberry32: tiny, fast, good enough to pick inputs, and the same sequence for the same seed. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Rng {
  private readonly draw: () => number;

  constructor(readonly seed: number) {
    this.draw = mulberry32(seed);
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.draw() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.draw() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.draw() * items.length)] as T;
  }

  weighted<T>(entries: readonly (readonly [number, T])[]): T {
    const total = entries.reduce((sum, [weight]) => sum + weight, 0);
    let roll = this.draw() * total;
    for (const [weight, value] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return (entries[entries.length - 1] as readonly [number, T])[1];
  }

  bytes(length: number): Buffer {
    const out = Buffer.alloc(length);
    for (let i = 0; i < length; i += 4) {
      const word = Math.floor(this.draw() * 4294967296);
      for (let k = 0; k < 4 && i + k < length; k++) out[i + k] = (word >>> (8 * k)) & 0xff;
    }
    return out;
  }

  /** The seed given (SVC_FUZZ_SEED), or a random one. */
  static seedFrom(text: string | undefined): number {
    const parsed = text === undefined || text === '' ? NaN : Number(text);
    return Number.isInteger(parsed) ? parsed >>> 0 : Math.floor(Math.random() * 4294967296);
  }
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-';
const UNICODE = ['ü', 'ß', '漢字', '😀', '\u202e', '\u200b', 'é', 'Ω', '\ud83d', '\udc00', '\ufeff', 'ﷺ', 'a\u0301', '\u2028', '𝕏'];
const ODD_TEXT = [
  '', ' ', '\t', '\n', '\r\n', '\u0000', '{{ 7*7 }}', '{% raw %}', '<script>alert(1)</script>', "' OR '1'='1", "'; DROP TABLE x; --",
  '%s%n%x', '${x}', '../../etc/passwd', '..\\..\\boot.ini', 'null', 'undefined', 'NaN', '-0', '1e309', 'true', '[object Object]',
  '__proto__', 'constructor', 'prototype', 'hasOwnProperty', '\\', '"', '%00', '%2F', 'javascript:alert(1)', 'http://169.254.169.254/',
  'ann@example.test', 'a@b', '0', '-1', '2026-02-30', '99999999999999999999', 'data:text/html,x', 'file:///etc/hosts',
];

/** Never a leak look-alike: an input the server may echo must not fail the leak checks. */
export function safeText(text: string): string {
  return findLeak(text) === null && !SQL_IN_MESSAGE.test(text) ? text : text.replace(/[a-z]/gi, 'x').replace(/[/.:\n]/g, '_');
}

export function randomWord(rng: Rng, min = 1, max = 12): string {
  let out = '';
  const length = rng.int(min, max);
  for (let i = 0; i < length; i++) out += ALPHABET[rng.int(0, ALPHABET.length - 1)];
  return out;
}

export function randomText(rng: Rng, maxLength = 64): string {
  const kind = rng.int(0, 6);
  let text: string;
  if (kind === 0) text = randomWord(rng, 0, Math.min(maxLength, 24));
  else if (kind === 1) text = Array.from({ length: rng.int(1, 8) }, () => rng.pick(UNICODE)).join('');
  else if (kind === 2) text = rng.pick(ODD_TEXT);
  else if (kind === 3) text = String(rng.int(-1e6, 1e6));
  else if (kind === 4) text = rng.pick(['x', 'ab', '漢', '😀', ' ']).repeat(rng.int(1, Math.max(1, maxLength)));
  else if (kind === 5) text = String.fromCharCode(...Array.from({ length: rng.int(1, 12) }, () => rng.int(0, 0x1f)));
  else text = `${randomWord(rng)} ${rng.pick(UNICODE)} ${rng.pick(ODD_TEXT)}`;
  return safeText(text);
}

/** A header value: latin-1 only, no CR/LF (what an HTTP parser would let through). */
export function randomHeaderValue(rng: Rng, maxLength = 200): string {
  const kind = rng.int(0, 4);
  if (kind === 0) return '';
  if (kind === 1) return randomWord(rng, 1, 64);
  if (kind === 2) return 'x'.repeat(rng.int(1, maxLength));
  if (kind === 3) return String.fromCharCode(...Array.from({ length: rng.int(1, 40) }, () => rng.int(0x20, 0xff))).replace(/[\x7f]/g, '');
  return safeText(rng.pick(['null', '*', ',', ';', '""', 'undefined', 'ü', '%00', '\u00ff\u00fe', ' spaced ']));
}

/** A JSON value of any type, at most `depth` levels of arrays/objects deep. */
export function randomJson(rng: Rng, depth = 3): unknown {
  const kind = rng.int(0, depth > 0 ? 9 : 6);
  if (kind === 0) return null;
  if (kind === 1) return rng.chance(0.5);
  if (kind === 2) return rng.pick([0, -0, 1, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, 1e-300, 42]);
  if (kind <= 6) return randomText(rng);
  if (kind === 7) return Array.from({ length: rng.int(0, 4) }, () => randomJson(rng, depth - 1));
  const out: Record<string, unknown> = {};
  for (let i = rng.int(0, 4); i > 0; i--) out[rng.chance(0.7) ? randomWord(rng) : randomText(rng, 16)] = randomJson(rng, depth - 1);
  return out;
}

/** `inner` wrapped in `levels` alternating arrays and objects. */
export function nestJson(rng: Rng, inner: unknown, levels: number): unknown {
  let value = inner;
  for (let i = 0; i < levels; i++) value = rng.chance(0.5) ? [value] : { [rng.pick(['a', 'values', 'x', '0'])]: value };
  return value;
}

/** A string up to `maxBytes` long: cheap to make at any size, one of a few kinds. */
export function hugeText(rng: Rng, maxBytes: number): string {
  const length = rng.int(Math.floor(maxBytes / 4), maxBytes);
  return rng.pick(['a', 'ü', '0123456789', '漢', ' ']).repeat(Math.max(1, Math.floor(length / 3)));
}

/** JSON text with a prototype key spliced into its first object (JSON.stringify drops __proto__). */
export function withPrototypeKey(rng: Rng, json: string): string {
  const key = rng.pick(['"__proto__":{"polluted":true}', '"constructor":{"prototype":{"polluted":true}}', '"__proto__":null', '"prototype":1']);
  const at = json.indexOf('{');
  if (at < 0) return `{${key}}`;
  return `${json.slice(0, at + 1)}${key}${json[at + 1] === '}' ? '' : ','}${json.slice(at + 1)}`;
}

/** Text cut short somewhere (never empty unless the text was). */
export function truncate<T extends string | Buffer>(rng: Rng, text: T): T {
  if (text.length < 2) return text;
  return text.slice(0, rng.int(1, text.length - 1)) as T;
}

/** The contents of a file part: real kinds, near misses and plain noise. */
export function randomFileBytes(rng: Rng): { data: Buffer; filename: string; contentType: string } {
  const kind = rng.int(0, 7);
  if (kind === 0) return { data: tinyPng(rng.int(0, 65535)), filename: 'photo.png', contentType: 'image/png' };
  if (kind === 1) return { data: paddedPdf(rng.int(600, 4000)), filename: 'cv.pdf', contentType: 'application/pdf' };
  if (kind === 2) return { data: Buffer.concat([tinyPng(1).subarray(0, 16), rng.bytes(rng.int(0, 64))]), filename: 'half.png', contentType: 'image/png' };
  if (kind === 3) return { data: Buffer.alloc(0), filename: rng.pick(['', 'empty.png']), contentType: 'application/octet-stream' };
  if (kind === 4) return { data: tinyPng(2), filename: rng.pick(['renamed.pdf', 'x.exe', '.htaccess', 'a'.repeat(300) + '.png']), contentType: 'application/pdf' };
  if (kind === 5) return { data: Buffer.concat([Buffer.from('PK\x03\x04'), rng.bytes(rng.int(10, 200))]), filename: 'doc.docx', contentType: 'application/zip' };
  if (kind === 6) return { data: rng.bytes(rng.chance(0.2) ? rng.int(16_000, 300_000) : rng.int(1, 2048)), filename: safeText(randomText(rng, 40)), contentType: randomHeaderValue(rng, 60) };
  return { data: Buffer.from(safeText(randomText(rng, 200)), 'utf8'), filename: 'notes.txt', contentType: 'text/plain' };
}

export interface RawPart {
  readonly name: string;
  readonly filename?: string;
  readonly contentType?: string;
  readonly data: Buffer | string;
  /** Extra header lines for the part (a huge one, an odd one). */
  readonly extraHeaders?: readonly string[];
}

const quoted = (text: string) => text.replace(/\\/g, '\\\\').replace(/"/g, '\\"');

/**
 * A multipart/form-data body, mostly well formed; `odd` bends it: a mismatched, quoted, missing
 * or over-long boundary, a preamble, bare LF line ends, headers without Content-Disposition, no
 * closing delimiter.
 */
export function buildMultipart(rng: Rng, parts: readonly RawPart[], odd: boolean): { readonly payload: Buffer; readonly contentType: string } {
  const twist = odd ? rng.int(0, 8) : -1;
  const boundary = twist === 3 ? `'()+_,-./:=?${randomWord(rng, 1, 20)}` : twist === 4 ? 'b'.repeat(rng.int(60, 400)) : `----svcFuzz${randomWord(rng, 8, 16)}`;
  // 0: no boundary, 1: another one, 2-3: quoted (3 with every special character), 8: given twice.
  const params: Record<number, string> = { 0: '', 1: `; boundary=${boundary}x`, 2: `; boundary="${boundary}"`, 3: `; boundary="${boundary}"` };
  params[8] = `; boundary=; boundary=${boundary}; charset=${randomWord(rng)}`;
  const header = `multipart/form-data${params[twist] ?? `; boundary=${boundary}`}`;
  const eol = twist === 5 ? '\n' : '\r\n';
  const preamble = twist === 6 ? `${randomText(rng, 100)}\r\n` : '';
  const chunks: Buffer[] = [Buffer.from(preamble, 'utf8')];
  for (const part of parts) {
    const lines = [`--${boundary}`];
    if (!(odd && rng.chance(0.1))) {
      let disposition = `Content-Disposition: form-data; name="${quoted(part.name)}"`;
      if (part.filename !== undefined) disposition += `; filename="${quoted(part.filename)}"`;
      lines.push(disposition);
    }
    if (part.contentType !== undefined) lines.push(`Content-Type: ${part.contentType}`);
    for (const extra of part.extraHeaders ?? []) lines.push(extra);
    chunks.push(Buffer.from(lines.join(eol) + eol + eol, 'utf8'));
    chunks.push(Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data, 'utf8'));
    chunks.push(Buffer.from(eol, 'utf8'));
  }
  if (twist !== 7) chunks.push(Buffer.from(`--${boundary}--${eol}`, 'utf8'));
  return { payload: Buffer.concat(chunks), contentType: header };
}

/** A huge or strange header line for a part (one with a bare CR or LF inside, too). */
export function oddPartHeader(rng: Rng): string {
  const filler = `X-Filler: ${'x'.repeat(rng.int(1000, 8000))}`;
  const disposition = `Content-Disposition: form-data; name="${randomWord(rng)}"`;
  const bare = `X-Bare: ${randomWord(rng)}${rng.pick(['\n', '\r'])}${randomWord(rng)}`;
  return rng.pick([filler, 'Content-Transfer-Encoding: base64', disposition, `Content-Type: ${randomHeaderValue(rng, 100)}`, `${randomWord(rng)}:${randomHeaderValue(rng, 60)}`, 'no colon', bare]);
}

/** A GraphQL document: valid queries of svc's schema, and malformed, deep, wide or odd ones. */
export function randomGraphqlDocument(rng: Rng, handles: readonly string[]): string {
  const handle = rng.chance(0.8) ? rng.pick(handles) : safeText(randomText(rng, 20)).replace(/["\\\n\r]/g, '');
  const depth = rng.int(1, 40);
  const documents = [
    '{ __typename }',
    `{ svc { form(handle: "${handle}") { name handle honeypot { name } javascriptTest { name value } csrfToken { name value } fields { handle label required } } } }`,
    '{ svc { forms(orderBy: "handle") { handle name submissionMutationName pages { rows { fields { handle } } } } } }',
    `{ svc { forms(limit: ${rng.pick([0, -1, 1, 100, 101, 2147483647])}, offset: ${rng.pick([0, -5, 3, 99999])}, sort: "${rng.pick(['asc', 'desc', 'x'])}") { id uid handle } } }`,
    `query ($h: String!) { svcHeadlessManifest(handle: $h) }`,
    `{ svcHeadlessManifest(handle: "${handle}") }`,
    '{ __schema { queryType { name } mutationType { name } types { name kind } } }',
    `query { ${'svc { '.repeat(depth)}__typename${' }'.repeat(depth)} }`,
    `{ ${Array.from({ length: rng.int(2, 300) }, (_, i) => `a${i}: svc { forms { handle fields { handle } } }`).join(' ')} }`,
    'fragment A on Query { ...B } fragment B on Query { ...A } { ...A }',
    `query Q($x: Boolean = true) { __typename @include(if: $x) svc @skip(if: $x) { forms { handle } } }`,
    `{ svc { form(handle: ${rng.pick(['1', 'null', '[]', '{a: 1}', '"x"', '$missing'])}) { handle } } }`,
    'subscription { x }',
    'mutation ($handle: String!, $intent: String!, $values: SvcJson, $meta: SvcJson, $context: SvcJson, $csrf: String) ' +
      '{ svcHeadlessSubmit(handle: $handle, intent: $intent, values: $values, meta: $meta, context: $context, csrfToken: $csrf) }',
    `mutation { save_contact_Submission(firstName: "${safeText(randomWord(rng))}", email: "a@example.test") { success submissionId } }`,
    `{ ${randomWord(rng)} }`,
    `{ svc { form(handle: "${handle}") { ${'fields { '.repeat(depth % 6)}handle${' }'.repeat(depth % 6)} } } }`,
  ];
  return rng.pick(documents);
}

/** A document bent at the text level: cut, padded, with stray tokens or a huge string. */
export function mutateGraphqlDocument(rng: Rng, document: string): string {
  const twist = rng.int(0, 6);
  if (twist === 0) return truncate(rng, document);
  if (twist === 1) return `${document} ${rng.pick(['}', '{', '...', '@', '$', '#', '"', '"""', '\\u0000', 'query'])}`;
  if (twist === 2) return document.replace(/"[^"]*"/, `"${'x'.repeat(rng.int(1000, 100_000))}"`);
  if (twist === 3) return document.replace(/\w+/, randomWord(rng));
  if (twist === 4) return `${'#'.repeat(rng.int(1, 2000))}\n${document}`;
  if (twist === 5) return safeText(randomText(rng, 300));
  return document.split('').reverse().join('');
}

/** A plausible value for a field, by its type and options; sometimes a random one. */
export function fieldValue(rng: Rng, field: Field, uploadIds: readonly string[]): unknown {
  if (rng.chance(0.08)) return randomJson(rng, 2);
  const options = ((field as { options?: readonly { value: string }[] }).options ?? []).map((o) => o.value);
  const t = field.type;
  if (t === 'email') return rng.pick(['ann@example.test', 'bob@example.test', 'ann@example.test', 'nope', '']);
  if (t === 'number' || t === 'rating' || t === 'opinionScale') return rng.pick([rng.int(-5, 200), String(rng.int(0, 10)), 1.5]);
  if (t === 'checkbox' || t === 'mailingList') return rng.pick([true, false, 'yes', 1]);
  if (t === 'select' || t === 'radioGroup' || t === 'dynamicRecipients') return options.length > 0 ? rng.pick(options) : randomWord(rng);
  if (t === 'multipleSelect' || t === 'checkboxGroup') return options.filter(() => rng.chance(0.5));
  if (t === 'datetime') return rng.pick(['2026-01-02', '2026-01-02 10:30', '10:30', '2026-02-30']);
  if (t === 'file') return uploadIds.slice(0, rng.int(0, 3));
  if (t === 'table') return Array.from({ length: rng.int(0, 3) }, () => [randomWord(rng), String(rng.int(0, 9)), rng.pick(['S', 'M', 'L'])]);
  return rng.chance(0.7) ? randomWord(rng, 1, 30) : randomText(rng, 200);
}

/** A file of a kind the field takes, mostly; sometimes anything. */
export function fileFor(rng: Rng, field: Field | undefined): { data: Buffer; filename: string; contentType: string } {
  const kinds = (field as { fileKinds?: readonly string[] } | undefined)?.fileKinds ?? [];
  if (rng.chance(0.3)) return randomFileBytes(rng);
  if (kinds.includes('image') || kinds.length === 0) return { data: tinyPng(rng.int(0, 65535)), filename: 'photo.png', contentType: 'image/png' };
  return { data: paddedPdf(rng.int(600, 3000)), filename: 'cv.pdf', contentType: 'application/pdf' };
}

/** The query of the admin list or export route: each filter now and then, with valid values. */
export function adminQuery(rng: Rng, statuses: readonly string[], cursors: readonly string[], exporting: boolean): string {
  const params = new URLSearchParams();
  const maybe = (p: number, name: string, value: () => string) => rng.chance(p) && params.set(name, value());
  maybe(0.3, 'status', () => rng.pick(statuses));
  maybe(0.3, 'spam', () => rng.pick(['true', 'false', 'all']));
  maybe(0.2, 'from', () => rng.pick(['2020-01-01', '2026-11-22T10:00:00Z', new Date().toISOString()]));
  maybe(0.2, 'to', () => rng.pick(['2099-12-31', '2026-11-22T10:00:00+02:00']));
  maybe(0.3, 'q', () => randomText(rng, 60).slice(0, 200));
  maybe(0.3, 'sort', () => rng.pick(['createdAt', 'id']));
  maybe(0.3, 'order', () => rng.pick(['asc', 'desc']));
  if (exporting) {
    maybe(0.6, 'format', () => rng.pick(['csv', 'jsonl']));
    maybe(0.3, 'bom', () => rng.pick(['true', 'false']));
  } else {
    maybe(0.4, 'limit', () => String(rng.int(1, 200)));
    if (cursors.length > 0) maybe(0.3, 'cursor', () => rng.pick(cursors));
  }
  return params.toString();
}

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'PROPFIND'] as const;

export const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'APPLICATION/JSON', 'application/json;',
  'application/vnd.api+json', 'application/x-www-form-urlencoded', 'text/plain', 'text/plain; charset=utf-8', 'application/graphql',
  'multipart/form-data', 'multipart/form-data; boundary=', 'multipart/mixed; boundary=x', 'application/octet-stream', 'garbage', '', '*/*',
  ';;;', 'application/json; charset=utf-16',
] as const;

/** A path segment a router, a decoder or a lookup table might trip on. */
export function oddSegment(rng: Rng): string {
  const segments = [
    '', '.', '..', '%2e%2e', '%2F', 'contact%2Fmanifest', '%00', 'contact%00', '__proto__', 'constructor', 'hasOwnProperty',
    'toString', 'Contact', 'CONTACT', '%20contact', 'contact%20', 'k%C3%BCche', '%F0%9F%98%80', '%E0%A4%A', '%', '%zz', 'küche',
    '0', '-1', '1.5', '1e3', '9'.repeat(30), '0x10', '+1', 'null', '*', ';', 'a;b=c', 'job-application', 'kitchen-sink',
    'application', 'contact', 'cv', 'portfolio', 'role', '1', '2', '&', '%3F', '%23', 'files[cv][]', '%5B%5D',
  ];
  if (rng.chance(0.08)) return 'a'.repeat(rng.int(100, 8000));
  return rng.pick(segments);
}

/** encodeURIComponent that takes lone surrogates too (as U+FFFD, as a browser would). */
export function encodeText(text: string): string {
  return encodeURIComponent(text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
}

/** A query string: arrays, objects, prototype keys, bad escapes, and parameters routes read. */
export function oddQuery(rng: Rng): string {
  return rng.pick([
    'a=1&a=2', 'a[b]=c', 'a[]=1&a[]=2', '__proto__[x]=1', 'constructor[prototype][x]=1', 'x', '=', '&&&', '%', '%zz=1',
    `q=${'x'.repeat(rng.int(1, 4000))}`, 'limit=0', 'limit=201', 'limit=abc', 'limit=1&limit=2', `cursor=${encodeText(randomText(rng, 80))}`,
    'cursor=eyJpZCI6IngifQ', 'cursor=%00', 'status=open&status=closed', 'spam=maybe', 'from=2026-13-45', 'to=2026-02-30T25:61Z',
    'from=9999-12-31&to=0000-01-01', 'format=xml', 'format=jsonl&bom=true', 'bom=yes', 'sort=id&order=sideways', 'sort=__proto__',
    'query={__typename}', 'query=', 'query[]=x', 'variables={', 'variables=[1]', 'operationName=x', 'extensions=null',
    'expires=1&signature=x', `expires=${'9'.repeat(20)}&signature=`, `q=${encodeText(randomText(rng, 40))}`,
  ]);
}

export type DraftBody =
  | { readonly kind: 'json'; value: unknown }
  | { readonly kind: 'multipart'; parts: RawPart[]; odd: boolean }
  | { readonly kind: 'raw'; data: string | Buffer };

/** A request before it is serialized, so mutations can bend it at the right level. */
export interface Draft {
  readonly route: string;
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: DraftBody | null;
  readonly mutations: string[];
}

export interface FuzzRequest {
  readonly route: string;
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly payload?: string | Buffer;
  readonly mutations: readonly string[];
}

/** Valid values of other sessions and keys, to mix into a request where they do not belong. */
export interface HeaderPool {
  readonly csrfTokens: readonly string[];
  readonly cookies: readonly string[];
  readonly bearers: readonly string[];
  readonly origins: readonly string[];
}

function mutateHeader(rng: Rng, draft: Draft, pool: HeaderPool): string {
  const name = rng.pick([
    'content-type', 'origin', 'x-csrf-token', 'cookie', 'x-svc-upload-token', 'idempotency-key', 'authorization', 'accept',
    'if-none-match', 'access-control-request-method', 'access-control-request-headers', 'host', 'content-encoding', 'x-forwarded-for',
  ]);
  const candidates: Record<string, () => string> = {
    'content-type': () => rng.pick(CONTENT_TYPES),
    origin: () => rng.pick([...pool.origins, 'null', 'https://evil.test', 'http://localhost:5173.evil.test', 'https://x.example.test.evil', randomHeaderValue(rng)]),
    'x-csrf-token': () => (rng.chance(0.4) ? rng.pick(pool.csrfTokens) : truncate(rng, rng.pick(pool.csrfTokens)) + randomHeaderValue(rng, 40)),
    cookie: () => rng.pick([rng.pick(pool.cookies), `${rng.pick(pool.cookies)}; ${rng.pick(pool.cookies)}`, `svc_csrf=${randomHeaderValue(rng)}`, randomHeaderValue(rng, 4000)]),
    'x-svc-upload-token': () => rng.pick([randomWord(rng, 8, 128), randomWord(rng, 1, 7), 'a'.repeat(129), randomHeaderValue(rng)]),
    'idempotency-key': () => rng.pick([randomWord(rng, 1, 200), 'k'.repeat(201), randomHeaderValue(rng), ' ']),
    authorization: () =>
      rng.pick([`Bearer ${rng.pick(pool.bearers)}`, `bearer ${rng.pick(pool.bearers)}`, 'Bearer', 'Bearer ', `Basic ${randomWord(rng)}`, `Bearer ${'x'.repeat(rng.int(1, 8000))}`]),
    accept: () => rng.pick(['application/json', 'application/graphql-response+json', '*/*', 'text/html', 'application/graphql-response+json, application/json;q=0.9', randomHeaderValue(rng)]),
    'access-control-request-method': () => rng.pick([...METHODS, randomHeaderValue(rng)]),
    'access-control-request-headers': () => rng.pick(['content-type, x-csrf-token', 'authorization', randomHeaderValue(rng, 2000)]),
  };
  const make = candidates[name] ?? (() => randomHeaderValue(rng));
  if (rng.chance(0.25)) delete draft.headers[name];
  else draft.headers[name] = make();
  return `header:${name}`;
}

function mutateJsonBody(rng: Rng, value: unknown, keys: readonly string[]): unknown {
  const record = value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : {};
  const key = rng.chance(0.7) && keys.length > 0 ? rng.pick(keys) : rng.pick(['intent', 'values', 'meta', 'context', 'properties', randomWord(rng)]);
  const twist = rng.int(0, 5);
  if (twist === 0) return randomJson(rng, 4);
  if (twist === 1) record[key] = randomJson(rng, 3);
  else if (twist === 2) record[key] = nestJson(rng, randomJson(rng, 1), rng.int(2, 40));
  else if (twist === 3) record[key] = hugeText(rng, 300 * 1024);
  else if (twist === 4) delete record[key];
  else {
    const inner = record[key] !== null && typeof record[key] === 'object' && !Array.isArray(record[key]) ? (record[key] as Record<string, unknown>) : {};
    record[key] = { ...inner, [rng.chance(0.5) ? randomWord(rng) : rng.pick(Object.keys(inner).concat('x'))]: randomJson(rng, 2) };
  }
  return record;
}

function mutateMultipart(rng: Rng, parts: RawPart[]): void {
  const twist = rng.int(0, 5);
  if (twist === 0 && parts.length > 0) parts.splice(rng.int(0, parts.length - 1), 1);
  else if (twist === 1 && parts.length > 0) parts.push(rng.pick(parts));
  else if (twist === 2) parts.push({ name: rng.pick(['uploadToken', 'id', randomWord(rng), 'files[nope][]', 'files[cv][9][9][]']), data: randomText(rng, 100) });
  else if (twist === 3 && parts.length > 0) parts.push({ ...(parts.pop() as RawPart), extraHeaders: [oddPartHeader(rng)] });
  else parts.push({ name: rng.pick(['files[cv][]', 'files[portfolio][]', 'portfolio', 'cv', randomWord(rng)]), ...randomFileBytes(rng) });
}

/** One bend of a well-formed request, named in `draft.mutations` for the reproducer. */
export function mutateDraft(rng: Rng, draft: Draft, pool: HeaderPool, bodyKeys: readonly string[]): void {
  const kind = rng.weighted<string>([[2, 'method'], [3, 'segment'], [1, 'shape'], [2, 'query'], [6, 'header'], [5, 'body'], [2, 'raw']]);
  let label = kind;
  if (kind === 'method') draft.method = rng.pick(METHODS);
  else if (kind === 'segment') {
    const segments = draft.path.split('/');
    const at = rng.int(1, segments.length - 1);
    segments[at] = oddSegment(rng);
    draft.path = segments.join('/');
  } else if (kind === 'shape') {
    const p = draft.path;
    draft.path = rng.pick([`${p}/`, p.replace('/', '//'), `${p}/..`, `${p}%2F`, p.toUpperCase(), `${p}/extra`, p.replace(/\/[^/]*$/, '/../$&')]);
  } else if (kind === 'query') draft.query = draft.query && rng.chance(0.5) ? `${draft.query}&${oddQuery(rng)}` : oddQuery(rng);
  else if (kind === 'header') label = mutateHeader(rng, draft, pool);
  else if (kind === 'body' && draft.body?.kind === 'json') draft.body.value = mutateJsonBody(rng, draft.body.value, bodyKeys);
  else if (kind === 'body' && draft.body?.kind === 'multipart') {
    if (rng.chance(0.3)) draft.body.odd = true;
    else mutateMultipart(rng, draft.body.parts);
  } else {
    label = 'raw';
    draft.body = { kind: 'raw', data: rawBody(rng, draft.body) };
  }
  draft.mutations.push(label);
}

function serializeBody(rng: Rng, body: DraftBody): { payload: string | Buffer; contentType: string | null } {
  if (body.kind === 'json') return { payload: JSON.stringify(body.value) ?? 'null', contentType: 'application/json' };
  if (body.kind === 'raw') return { payload: body.data, contentType: null };
  return buildMultipart(rng, body.parts, body.odd);
}

/** The body as bytes, then bent: cut short, a prototype key, noise, deep nesting, over the limit. */
function rawBody(rng: Rng, body: DraftBody | null): string | Buffer {
  const base = body ? serializeBody(rng, body).payload : '{}';
  const text = typeof base === 'string' ? base : base.toString('latin1');
  const twist = rng.int(0, 6);
  if (twist === 0) return truncate(rng, base);
  if (twist === 1) return withPrototypeKey(rng, text);
  if (twist === 2) return rng.bytes(rng.int(0, 4096));
  if (twist === 3) return `${'['.repeat(rng.int(30, 40))}1${']'.repeat(rng.int(30, 40))}`;
  if (twist === 4) return `{"values":{"x":"${'a'.repeat(rng.int(200, 300) * 1024)}"}}`;
  if (twist === 5) return `${text}${rng.pick(['}', ',', '\u0000', 'garbage', '\ufeff'])}`;
  return `\ufeff${text}`;
}

export function serializeDraft(rng: Rng, draft: Draft): FuzzRequest {
  const headers = { ...draft.headers };
  let payload: string | Buffer | undefined;
  if (draft.body) {
    const serialized = serializeBody(rng, draft.body);
    payload = serialized.payload;
    const typed = headers['content-type'] !== undefined || draft.mutations.includes('header:content-type');
    if (serialized.contentType !== null && !typed) headers['content-type'] = serialized.contentType;
  }
  const url = draft.query ? `${draft.path}?${draft.query}` : draft.path;
  return { route: draft.route, method: draft.method, url, headers, ...(payload !== undefined ? { payload } : {}), mutations: draft.mutations };
}
