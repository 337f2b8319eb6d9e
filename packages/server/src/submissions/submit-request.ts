/**
 * The submit body of interface.md §4.2 and contract §4. The top level is checked strictly (a
 * client bug shows up as a clear 400 with the offending key), but keys inside `meta` and `context`
 * that svc does not use are ignored (contract §1): the official clients add their own there.
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
  /** The client package that sent the request (`meta.client`), kept with the submission. */
  readonly client?: string;
  readonly clientVersion?: string;
}

export interface SubmitContextInput {
  readonly stateToken?: string;
  readonly draftToken?: string;
  readonly draftKey?: string;
  readonly uploadToken?: string;
  /** The page the form was on (`context.sourceUrl`), kept with the submission as text. */
  readonly sourceUrl?: string;
  /** A profile's signed link token (contract §9). */
  readonly token?: string;
  /** The site submitted on (issue #34): a configured site handle. */
  readonly site?: string;
}

export interface SubmitRequest {
  readonly intent: Intent;
  readonly values: Readonly<Record<string, unknown>>;
  readonly meta: SubmitMeta;
  readonly context: SubmitContextInput;
}

const TOP_LEVEL = new Set(['values', 'intent', 'meta', 'context', 'properties']);
const CONTEXT_KEYS = ['stateToken', 'draftToken', 'draftKey', 'uploadToken', 'token', 'sourceUrl', 'site'] as const;
/** Caps for what is stored as given: names and versions are short, a URL may be long but bounded. */
const CLIENT_TEXT_MAX = 100;
const SOURCE_URL_MAX = 2048;

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

/** A client-named text kept with the submission: a string, trimmed to `max`, else nothing. */
function readClientText(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  // Control characters have no place in a name, version or URL; they would only confuse a log or a CSV.
  const text = value.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, max);
  return text === '' ? undefined : text;
}

function readMeta(value: unknown): SubmitMeta {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw invalid('meta must be an object.');
  const meta: { -readonly [K in keyof SubmitMeta]: SubmitMeta[K] } = {};
  if (value.honeypot !== undefined) {
    const honeypot = readNameValue(value.honeypot, 'meta.honeypot');
    const timestamp = (value.honeypot as { timestamp?: unknown }).timestamp;
    if (timestamp !== undefined && (typeof timestamp !== 'string' || timestamp.length > 200)) {
      throw invalid('meta.honeypot.timestamp must be the string the manifest gave.');
    }
    meta.honeypot = timestamp === undefined ? honeypot : { name: honeypot.name, value: honeypot.value, timestamp };
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
  const client = readClientText(value.client, CLIENT_TEXT_MAX);
  if (client !== undefined) meta.client = client;
  const clientVersion = readClientText(value.clientVersion, CLIENT_TEXT_MAX);
  if (clientVersion !== undefined) meta.clientVersion = clientVersion;
  return meta;
}

function readContext(value: unknown): SubmitContextInput {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw invalid('context must be an object.');
  const context: Record<string, string> = {};
  for (const key of CONTEXT_KEYS) {
    const entry = value[key];
    if (entry === null || entry === undefined) continue;
    if (key === 'sourceUrl') {
      const url = readClientText(entry, SOURCE_URL_MAX);
      if (url !== undefined) context.sourceUrl = url;
      continue;
    }
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
