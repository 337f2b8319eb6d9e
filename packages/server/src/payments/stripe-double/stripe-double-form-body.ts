/**
 * Reading a request as api.stripe.com does: its route, its API key and its parameters.
 *
 * Stripe's request encoding, read the way api.stripe.com reads it: `x-www-form-urlencoded` pairs
 * whose keys use brackets (`metadata[k]=v`, `created[gte]=1`, `expand[0]=x`, `types[]=card`), as
 * the stripe SDK writes bodies and query strings. The result is nested plain objects and arrays.
 *
 * Keys are collected in Maps and only then copied into objects, and any pair whose key mentions
 * `__proto__`, `constructor` or `prototype` is dropped whole, so no input can reach a prototype.
 */

import type { IncomingMessage } from 'node:http';

export type FormValue = string | readonly FormValue[] | FormParams;
export interface FormParams {
  readonly [key: string]: FormValue;
}

/** A parameter Stripe would refuse; `code` and `param` are Stripe's own (`parameter_missing`, …). */
export class FormParamError extends Error {
  constructor(message: string, readonly code: string, readonly param?: string) {
    super(message);
    this.name = 'FormParamError';
  }

  /** The `error` member of Stripe's 400 answer. */
  toStripeError(): { readonly type: 'invalid_request_error'; readonly code: string; readonly message: string; readonly param?: string } {
    return { type: 'invalid_request_error', code: this.code, message: this.message, ...(this.param ? { param: this.param } : {}) };
  }
}

const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
// Stripe nests at most a few levels; the caps keep a hostile body from costing more than it should.
const MAX_DEPTH = 8;
const MAX_PAIRS = 2000;
const INDEX = /^(0|[1-9]\d{0,5})$/;

type Node = Map<string, Node | string>;

/** `a[b][]` → `['a', 'b', '']`; null when the brackets do not pair up. */
export function splitBracketKey(key: string): string[] | null {
  const open = key.indexOf('[');
  if (open === -1) return key.includes(']') ? null : [key];
  if (open === 0) return null;
  const segments = [key.slice(0, open)];
  const bracket = /\[([^[\]]*)\]/y;
  bracket.lastIndex = open;
  while (bracket.lastIndex < key.length) {
    const match = bracket.exec(key);
    if (!match) return null;
    segments.push(match[1] as string);
  }
  return segments;
}

function insert(root: Node, key: string, segments: readonly string[], value: string): void {
  let node = root;
  segments.forEach((raw, i) => {
    let segment = raw;
    if (segment === '') {
      // `list[]=a&list[]=b` appends, as Rack and Stripe read it.
      let next = node.size;
      while (node.has(String(next))) next += 1;
      segment = String(next);
    }
    const existing = node.get(segment);
    if (i === segments.length - 1) {
      if (existing instanceof Map) throw new FormParamError(`Invalid value for ${key}: it is also given as a hash.`, 'parameter_invalid', key);
      node.set(segment, value);
      return;
    }
    if (typeof existing === 'string') throw new FormParamError(`Invalid hash for ${key}: it is also given as a string.`, 'parameter_invalid', key);
    const child: Node = existing ?? new Map();
    node.set(segment, child);
    node = child;
  });
}

function toPlain(node: Node | string): FormValue {
  if (typeof node === 'string') return node;
  const keys = [...node.keys()];
  if (keys.length > 0 && keys.every((k) => INDEX.test(k))) {
    return keys
      .map(Number)
      .sort((a, b) => a - b)
      .map((k) => toPlain(node.get(String(k)) as Node | string));
  }
  return toObject(node);
}

function toObject(node: Node): FormParams {
  // Safe as a plain object: FORBIDDEN_KEYS never reach the Map.
  const out: Record<string, FormValue> = {};
  for (const [k, v] of node) out[k] = toPlain(v);
  return out;
}

/**
 * Parse a form body or a query string (without its `?`).
 * @example parseFormBody('metadata[a]=1&expand[0]=latest_charge') // { metadata: { a: '1' }, expand: ['latest_charge'] }
 */
export function parseFormBody(text: string): FormParams {
  const root: Node = new Map();
  let pairs = 0;
  for (const [key, value] of new URLSearchParams(text)) {
    pairs += 1;
    if (pairs > MAX_PAIRS) throw new FormParamError('Too many parameters.', 'parameter_invalid');
    if (key === '') continue;
    const segments = splitBracketKey(key);
    if (!segments) throw new FormParamError(`Invalid parameter name: ${key}`, 'parameter_invalid', key);
    if (segments.length > MAX_DEPTH) throw new FormParamError(`Parameter nested too deeply: ${key}`, 'parameter_invalid', key);
    if (segments.some((s) => FORBIDDEN_KEYS.has(s))) continue;
    insert(root, key, segments, value);
  }
  return toObject(root);
}

// Typed readers: each refuses a wrong shape with the error api.stripe.com gives.

/** Refuse any parameter outside `allowed`, as Stripe does (`parameter_unknown`). */
export function assertKnownParams(params: FormParams, allowed: readonly string[]): void {
  const unknown = Object.keys(params).find((k) => !allowed.includes(k));
  if (unknown !== undefined) throw new FormParamError(`Received unknown parameter: ${unknown}`, 'parameter_unknown', unknown);
}

export function readString(params: FormParams, key: string, required: true): string;
export function readString(params: FormParams, key: string, required?: false): string | undefined;
export function readString(params: FormParams, key: string, required = false): string | undefined {
  const value = params[key];
  if (value === undefined) {
    if (required) throw new FormParamError(`Missing required param: ${key}.`, 'parameter_missing', key);
    return undefined;
  }
  if (typeof value !== 'string') throw new FormParamError(`Invalid string: ${key} must be a string.`, 'parameter_invalid_string', key);
  return value;
}

/** A positive integer in Stripe's range (amounts, limits). */
export function readInteger(params: FormParams, key: string, required: boolean, max = 99_999_999): number | undefined {
  const text = required ? readString(params, key, true) : readString(params, key);
  if (text === undefined) return undefined;
  const n = /^\d{1,12}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw new FormParamError(`Invalid integer: ${text}`, 'parameter_invalid_integer', key);
  if (n < 1 || n > max) throw new FormParamError(`Invalid ${key}: must be between 1 and ${max}.`, 'parameter_invalid_integer', key);
  return n;
}

export function readBoolean(value: FormValue | undefined, key: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new FormParamError(`Invalid boolean: ${String(value)}`, 'parameter_invalid', key);
}

/** A nested hash such as `automatic_payment_methods[enabled]=true`. */
export function readHash(params: FormParams, key: string): FormParams | undefined {
  const value = params[key];
  if (value !== undefined && (typeof value !== 'object' || Array.isArray(value))) throw new FormParamError(`Invalid hash: ${key}`, 'parameter_invalid', key);
  return value as FormParams | undefined;
}

/** `metadata[k]=v` pairs; `metadata=` (empty) means "clear", as Stripe's emptyable hashes do. */
export function readStringMap(params: FormParams, key: string): Readonly<Record<string, string>> | 'clear' | undefined {
  const value = params[key];
  if (value === undefined) return undefined;
  if (value === '') return 'clear';
  if (typeof value !== 'object' || Array.isArray(value)) throw new FormParamError(`Invalid hash: ${key}`, 'parameter_invalid', key);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value as FormParams)) {
    if (typeof v !== 'string') throw new FormParamError(`Invalid value for ${key}[${k}]: must be a string.`, 'parameter_invalid', `${key}[${k}]`);
    if (k.length > 40 || v.length > 500) throw new FormParamError(`Invalid ${key}[${k}]: keys are at most 40 and values 500 characters.`, 'parameter_invalid', `${key}[${k}]`);
    out[k] = v;
  }
  return out;
}

/** A list such as `payment_method_types[0]=card` or `expand[]=x`. */
export function readStringList(params: FormParams, key: string): readonly string[] | undefined {
  const value = params[key];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string')) {
    throw new FormParamError(`Invalid array: ${key}`, 'parameter_invalid', key);
  }
  return value as readonly string[];
}

/** A three-letter ISO currency, lowercased as Stripe stores it. */
export function readCurrency(params: FormParams, required: boolean): string | undefined {
  const text = required ? readString(params, 'currency', true) : readString(params, 'currency');
  if (text !== undefined && !/^[A-Za-z]{3}$/.test(text)) throw new FormParamError(`Invalid currency: ${text}.`, 'parameter_invalid', 'currency');
  return text?.toLowerCase();
}

/** An absolute http(s) URL: the only return URLs the double will ever redirect a browser to. */
export function readHttpUrl(params: FormParams, key: string): string | undefined {
  const text = readString(params, key);
  if (text !== undefined && !(URL.canParse(text) && /^https?:$/.test(new URL(text).protocol))) throw new FormParamError('Not a valid URL', 'url_invalid', key);
  return text;
}

export function readChoice(params: FormParams, key: string, choices: readonly string[]): string | undefined {
  const value = readString(params, key);
  if (value !== undefined && !choices.includes(value)) throw new FormParamError(`Invalid ${key}: must be one of ${choices.join(', ')}`, 'parameter_invalid', key);
  return value;
}

/** A list filter on a timestamp: `created=123` or `created[gte]=…&created[lt]=…`. */
export function readRangeFilter(params: FormParams, key: string): (value: number) => boolean {
  const value = params[key];
  if (value === undefined) return () => true;
  const bound = (text: FormValue | undefined): number | undefined => {
    if (text === undefined) return undefined;
    if (typeof text !== 'string' || !/^\d{1,12}$/.test(text)) throw new FormParamError(`Invalid integer: ${String(text)}`, 'parameter_invalid_integer', key);
    return Number(text);
  };
  if (typeof value === 'string') return (v) => v === bound(value);
  if (Array.isArray(value)) throw new FormParamError(`Invalid ${key}`, 'parameter_invalid', key);
  const range = value as FormParams;
  assertKnownParams(range, ['gt', 'gte', 'lt', 'lte']);
  const [gt, gte, lt, lte] = [bound(range['gt']), bound(range['gte']), bound(range['lt']), bound(range['lte'])];
  return (v) => (gt === undefined || v > gt) && (gte === undefined || v >= gte) && (lt === undefined || v < lt) && (lte === undefined || v <= lte);
}

/** The double expands nothing; Stripe refuses a path it cannot expand the same way. */
export function refuseExpand(params: FormParams): void {
  const path = readStringList(params, 'expand')?.[0];
  if (path !== undefined) throw new FormParamError(`This property cannot be expanded (${path}).`, 'parameter_invalid', 'expand');
}

// The request around the parameters: its route, its key, its body.

/** `browser` routes are the two calls Stripe.js makes: publishable key + client secret, CORS open. */
export interface Route {
  readonly name: 'create' | 'list' | 'retrieve' | 'update' | 'cancel' | 'confirm' | 'refund';
  readonly id: string;
  readonly browser: boolean;
}

export function decodePathSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

const INTENT_PATH = /^\/v1\/payment_intents\/([^/]+)(?:\/(cancel|confirm))?$/;
export const isBrowserPath = (path: string): boolean => /^\/v1\/payment_intents\/[^/]+(\/confirm)?$/.test(path);

/** The Stripe operation a `/v1` request names, or null for a URL Stripe would not recognise. */
export function readRoute(method: string, path: string): Route | null {
  const on = (name: Route['name'], id = '', browser = false): Route => ({ name, id, browser });
  if (path === '/v1/payment_intents') return method === 'POST' ? on('create') : method === 'GET' ? on('list') : null;
  if (path === '/v1/refunds') return method === 'POST' ? on('refund') : null;
  const match = INTENT_PATH.exec(path);
  const id = match ? decodePathSegment(match[1] as string) : null;
  if (!match || id === null || !['GET', 'POST'].includes(method) || (method === 'GET' && match[2])) return null;
  if (method === 'GET') return on('retrieve', id, true);
  return match[2] === 'confirm' ? on('confirm', id, true) : on(match[2] === 'cancel' ? 'cancel' : 'update', id);
}

/** The key a request presents: Bearer (what the SDK sends), Basic (`curl -u sk_…:`), or Stripe.js's `key` param. */
export function readApiKey(req: IncomingMessage, params: FormParams): unknown {
  const [scheme = '', credential = ''] = (req.headers.authorization ?? '').split(/\s+/, 2);
  if (/^bearer$/i.test(scheme)) return credential;
  if (/^basic$/i.test(scheme)) return Buffer.from(credential, 'base64').toString('utf8').split(':')[0];
  return params['key'];
}

/** A request body as text, or null when it is longer than `maxBytes` (Stripe answers 413). */
export function readBodyText(req: IncomingMessage, maxBytes = 1_000_000): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > maxBytes ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
