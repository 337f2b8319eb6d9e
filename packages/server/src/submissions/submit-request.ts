/**
 * The submit body of interface.md §4.2 and contract §4, checked strictly: a client bug shows up as
 * a clear 400 with the offending key, never as a half-understood submission.
 */
import { SvcError } from '@svc/core';

export const INTENTS = ['submit', 'next', 'back', 'validate', 'saveDraft'] as const;
export type Intent = (typeof INTENTS)[number];

export interface NameValue {
  readonly name: string;
  readonly value: string;
}

export interface HoneypotInput extends NameValue {
  /** The signed fill timestamp the manifest's honeypot carried (minimum fill time). */
  readonly timestamp?: string;
}

export interface SubmitMeta {
  readonly honeypot?: HoneypotInput;
  readonly javascriptTest?: NameValue;
  readonly captchas?: readonly NameValue[];
  readonly idempotencyKey?: string;
}

export interface SubmitContextInput {
  readonly stateToken?: string;
  readonly draftToken?: string;
  readonly draftKey?: string;
  readonly uploadToken?: string;
}

export interface SubmitRequest {
  readonly intent: Intent;
  readonly values: Readonly<Record<string, unknown>>;
  readonly meta: SubmitMeta;
  readonly context: SubmitContextInput;
}

const TOP_LEVEL = new Set(['values', 'intent', 'meta', 'context', 'properties']);
const META_KEYS = new Set(['honeypot', 'javascriptTest', 'captchas', 'captcha', 'idempotencyKey']);
const CONTEXT_KEYS = new Set(['stateToken', 'draftToken', 'draftKey', 'uploadToken', 'token']);

function invalid(message: string): SvcError {
  return new SvcError('PAYLOAD_INVALID', message);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readNameValue(value: unknown, path: string): NameValue {
  if (!isRecord(value) || typeof value.name !== 'string' || typeof value.value !== 'string') {
    throw invalid(`${path} must be an object {name: string, value: string}.`);
  }
  return { name: value.name, value: value.value };
}

function readStrings<K extends string>(source: Record<string, unknown>, keys: ReadonlySet<K>, path: string) {
  for (const key of Object.keys(source)) {
    if (!keys.has(key as K)) throw invalid(`Unknown key ${path}.${key}.`);
  }
}

function readMeta(value: unknown): SubmitMeta {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw invalid('meta must be an object.');
  readStrings(value, META_KEYS, 'meta');
  const meta: { -readonly [K in keyof SubmitMeta]: SubmitMeta[K] } = {};
  if (value.honeypot !== undefined) {
    const honeypot = readNameValue(value.honeypot, 'meta.honeypot');
    const timestamp = (value.honeypot as { timestamp?: unknown }).timestamp;
    if (timestamp !== undefined && (typeof timestamp !== 'string' || timestamp.length > 200)) {
      throw invalid('meta.honeypot.timestamp must be the string the manifest gave.');
    }
    meta.honeypot = timestamp === undefined ? honeypot : { ...honeypot, timestamp };
  }
  if (value.javascriptTest !== undefined) meta.javascriptTest = readNameValue(value.javascriptTest, 'meta.javascriptTest');
  const captchas: NameValue[] = [];
  if (value.captchas !== undefined) {
    if (!Array.isArray(value.captchas)) throw invalid('meta.captchas must be a list.');
    value.captchas.forEach((c, i) => captchas.push(readNameValue(c, `meta.captchas[${i}]`)));
  }
  if (value.captcha !== undefined) captchas.push(readNameValue(value.captcha, 'meta.captcha'));
  if (captchas.length > 0) meta.captchas = captchas;
  if (value.idempotencyKey !== undefined) {
    if (typeof value.idempotencyKey !== 'string' || !/^[\x21-\x7e]{1,200}$/.test(value.idempotencyKey)) {
      throw invalid('meta.idempotencyKey must be 1-200 printable characters.');
    }
    meta.idempotencyKey = value.idempotencyKey;
  }
  return meta;
}

function readContext(value: unknown): SubmitContextInput {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw invalid('context must be an object.');
  readStrings(value, CONTEXT_KEYS, 'context');
  const context: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (entry === null || entry === undefined) continue;
    if (typeof entry !== 'string' || entry.length > 64_000) throw invalid(`context.${key} must be a string.`);
    context[key] = entry;
  }
  return context;
}

export function parseSubmitRequest(body: unknown): SubmitRequest {
  if (!isRecord(body)) throw invalid('The body must be a JSON object.');
  for (const key of Object.keys(body)) {
    if (!TOP_LEVEL.has(key)) throw invalid(`Unknown top-level key "${key}".`);
  }
  if (typeof body.intent !== 'string' || !(INTENTS as readonly string[]).includes(body.intent)) {
    if (body.intent === undefined) throw invalid('intent is required.');
    throw new SvcError('INTENT_UNSUPPORTED');
  }
  const values = body.values === undefined ? {} : body.values;
  if (!isRecord(values)) throw invalid('values must be an object of field handle to value.');
  return {
    intent: body.intent as Intent,
    values,
    meta: readMeta(body.meta),
    context: readContext(body.context),
  };
}
