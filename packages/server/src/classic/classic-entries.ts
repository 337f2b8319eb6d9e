/**
 * The entries of a classic post (interface.md §4.7, contract §10) turned into the submit request
 * the one pipeline takes: field values by handle (lists from repeated or `name[]` entries, table
 * cells from `table[row][col]`), the honeypot and captcha inputs as `meta`, the step from
 * `svc-action`. Entries that name nothing of the form are dropped, as a browser posts whatever
 * inputs a page has.
 */
import { SvcError, type Field, type Form, type TableColumn } from '@svc/core';
import type { Intent, NameValue, SubmitRequest } from '../submissions/submit-request.js';

/** What a form post carries besides the fields. */
export const CLASSIC_ACTION = 'svc/submit';
const ACTIONS: Readonly<Record<string, Intent>> = { submit: 'submit', next: 'next', back: 'back', save: 'saveDraft' };
/** Field types whose value is a list. */
const LIST_TYPES = new Set(['checkboxGroup', 'multipleSelect', 'dynamicRecipients', 'file']);
const TABLE_ENTRY = /^([A-Za-z][A-Za-z0-9_]{0,63})\[(\d{1,3})\]\[(\d{1,3})\](?:\[\])?$/;
const MAX_ENTRIES = 2_000;

export type Entries = readonly (readonly [string, string])[];

export interface ClassicPost {
  readonly request: SubmitRequest;
  /** The posted `formHash`, `svc_payload` and CSRF input, checked by the route. */
  readonly formHash: string | undefined;
  readonly payload: string | undefined;
  readonly csrf: string | undefined;
}

export interface ClassicPostOptions {
  readonly csrfName: string;
  readonly honeypotName: string | null;
  /** Response input names of the form's active captchas (`g-recaptcha-response`, …). */
  readonly captchaNames: readonly string[];
  /** The signed fill timestamp carried by the payload, for the honeypot's minimum fill time. */
  readonly fillTimestamp: string | null;
  readonly stateToken: string | null;
}

/** The first value of an entry, if posted. */
export function entryValue(entries: Entries, name: string): string | undefined {
  for (const [key, value] of entries) if (key === name) return value;
  return undefined;
}

/** The step a post asks for: `svc-action` (submit, next, back or save); submit when absent. */
export function classicIntent(entries: Entries): Intent {
  const action = entryValue(entries, 'svc-action');
  if (action === undefined || action === '') return 'submit';
  const intent = ACTIONS[action];
  if (!intent) throw new SvcError('INTENT_UNSUPPORTED', 'svc-action must be submit, next, back or save.');
  return intent;
}

function fieldValues(form: Form, entries: Entries): Record<string, unknown> {
  const byHandle = new Map<string, Field>();
  for (const field of form.fields) if (field.handle !== null) byHandle.set(field.handle as string, field);
  const values: Record<string, unknown> = {};
  const tables = new Map<string, string[][]>();
  for (const [rawName, value] of entries) {
    const table = TABLE_ENTRY.exec(rawName);
    if (table && byHandle.get(table[1] as string)?.type === 'table') {
      const rows = tables.get(table[1] as string) ?? [];
      const row = (rows[Number(table[2])] ??= []);
      row[Number(table[3])] = value;
      tables.set(table[1] as string, rows);
      continue;
    }
    const name = rawName.endsWith('[]') ? rawName.slice(0, -2) : rawName;
    const field = byHandle.get(name);
    if (!field || field.type === 'table') continue;
    if (LIST_TYPES.has(field.type)) {
      const list = (values[name] as string[] | undefined) ?? [];
      list.push(value);
      values[name] = list;
    } else {
      // A checkbox sends a hidden "0" before the box, so the last entry is the box when ticked.
      values[name] = value;
    }
  }
  for (const [handle, rows] of tables) {
    const cells = Array.from(rows, (row) => Array.from(row ?? [], (cell) => cell ?? ''));
    const field = byHandle.get(handle);
    values[handle] = field?.type === 'table' ? cells.filter((row) => !untouchedRow(field.columns, row)) : cells;
  }
  return values;
}

/**
 * A row a page offers for a new entry and nobody filled in: every cell empty or its column's
 * default. A classic page has no "add a row" script, so it always posts one such row.
 */
function untouchedRow(columns: readonly TableColumn[], row: readonly string[]): boolean {
  return row.every((cell, i) => cell === '' || (columns[i]?.type !== 'select' && cell === (columns[i]?.value ?? '')));
}

/**
 * @example
 * const post = readClassicPost(form, [['action', 'svc/submit'], ['email', 'a@b.test'], …], options);
 * await submitForm(pipeline, form, { request: post.request, … });
 */
export function readClassicPost(form: Form, entries: Entries, options: ClassicPostOptions): ClassicPost {
  if (entries.length > MAX_ENTRIES) throw new SvcError('PAYLOAD_INVALID', `A post may carry at most ${MAX_ENTRIES} entries.`);
  const honeypot = options.honeypotName ? entryValue(entries, options.honeypotName) : undefined;
  const captchas: NameValue[] = [];
  for (const name of options.captchaNames) {
    const value = entryValue(entries, name);
    if (value !== undefined) captchas.push({ name, value });
  }
  const request: SubmitRequest = {
    intent: classicIntent(entries),
    values: fieldValues(form, entries),
    meta: {
      // A honeypot left out entirely counts as filled by nothing: the input is the page's to render.
      ...(options.honeypotName ? { honeypot: { name: options.honeypotName, value: honeypot ?? '', ...(options.fillTimestamp ? { timestamp: options.fillTimestamp } : {}) } } : {}),
      ...(captchas.length > 0 ? { captchas } : {}),
      client: 'classic',
    },
    context: options.stateToken ? { stateToken: options.stateToken } : {},
  };
  return { request, formHash: entryValue(entries, 'formHash'), payload: entryValue(entries, 'svc_payload'), csrf: entryValue(entries, options.csrfName) };
}
