/**
 * The counts a form's report is answered from (issue #35 item 6), kept in app code at write time,
 * where a submission's values are in hand: issue #37 seals values at rest, so SQL cannot read them,
 * and reading them took 35-65 s at 1,000,000 rows. Every write that changes what a report shows
 * adds its difference here, in its own transaction: a submission +1, a delete -1, a status or spam
 * change -1 of the row as it was and +1 as it is, an edit -1 of the old values and +1 of the new.
 *
 * A tally is the difference of one write (or one batch of writes), merged in memory and written as
 * one upsert per table (`n = n + excluded.n`), its keys sorted so two PostgreSQL transactions that
 * add to the same rows lock them in the same order and cannot deadlock.
 */
import type { Form, Values } from '@svc/core';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import type { DialectName } from '../storage/database-factory.js';
import type { SubmissionColumnsRow } from '../privacy/privacy-sealer.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Field types whose answers a report counts: one answer each ... */
const SINGLE = new Set(['select', 'radioGroup', 'opinionScale', 'rating']);
/** ... or one per chosen option. */
const LIST = new Set(['multipleSelect', 'checkboxGroup']);

export const HOUR_MS = 3_600_000;

export interface ReportedField {
  readonly handle: string;
  /** A list answer (checkboxes, multiple select) counts each element. */
  readonly list: boolean;
}

const fieldsByForm = new WeakMap<Form, readonly ReportedField[]>();

/** The choice, rating and opinion-scale fields of a form, in its order (kept per Form object). */
export function reportedFields(form: Form): readonly ReportedField[] {
  let fields = fieldsByForm.get(form);
  if (!fields) {
    fields = form.fields.filter((f) => f.handle !== null && (SINGLE.has(f.type) || LIST.has(f.type))).map((f) => ({ handle: f.handle as string, list: LIST.has(f.type) }));
    fieldsByForm.set(form, fields);
  }
  return fields;
}

/** What a report counts of one submission. `values` null: its answers are not counted (spam, or a change that leaves them as they are). */
export interface CountedSubmission {
  readonly formId: number;
  /** ISO 8601, as stored. */
  readonly createdAt: string;
  readonly status: string;
  readonly isSpam: boolean;
  readonly values: Values | null;
}

/** The UTC hour (since the epoch) of a stored `created_at`. */
export function hourOf(createdAt: string): number {
  return Math.floor(Date.parse(createdAt) / HOUR_MS);
}

/** An answer as the report shows it: text; empty, null and nested values are no answer. */
function answerText(value: unknown): string | null {
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

interface CountRow {
  readonly form_id: number;
  readonly hour: number;
  readonly status: string;
  readonly is_spam: number;
  n: number;
}

interface AnswerRow {
  readonly form_id: number;
  readonly hour: number;
  readonly handle: string;
  readonly answer: string;
  n: number;
}

/** Differences to the report's counts, merged by key; written with writeReportTally. */
export class ReportTally {
  readonly counts = new Map<string, CountRow>();
  readonly answers = new Map<string, AnswerRow>();

  /** Adds (`sign` 1) or takes away (-1) one submission; its answers only when it is clean and has values. */
  add(fields: readonly ReportedField[], row: CountedSubmission, sign: 1 | -1): this {
    const hour = hourOf(row.createdAt);
    const spam = row.isSpam ? 1 : 0;
    const key = `${row.formId}\u0000${hour}\u0000${row.status}\u0000${spam}`;
    const count = this.counts.get(key);
    if (count) count.n += sign;
    else this.counts.set(key, { form_id: row.formId, hour, status: row.status, is_spam: spam, n: sign });
    if (row.isSpam || row.values === null) return this;
    for (const field of fields) {
      const value = row.values[field.handle];
      if (field.list) {
        if (Array.isArray(value)) for (const element of value) this.addAnswer(row.formId, hour, field.handle, answerText(element), sign);
      } else {
        this.addAnswer(row.formId, hour, field.handle, answerText(value), sign);
      }
    }
    return this;
  }

  private addAnswer(formId: number, hour: number, handle: string, answer: string | null, sign: 1 | -1): void {
    if (answer === null) return;
    const key = `${formId}\u0000${hour}\u0000${handle}\u0000${answer}`;
    const entry = this.answers.get(key);
    if (entry) entry.n += sign;
    else this.answers.set(key, { form_id: formId, hour, handle, answer, n: sign });
  }

  /** Adds another tally's differences to this one. */
  merge(other: ReportTally): this {
    for (const [key, row] of other.counts) {
      const entry = this.counts.get(key);
      if (entry) entry.n += row.n;
      else this.counts.set(key, { ...row });
    }
    for (const [key, row] of other.answers) {
      const entry = this.answers.get(key);
      if (entry) entry.n += row.n;
      else this.answers.set(key, { ...row });
    }
    return this;
  }
}

/** Rows per upsert: 5 parameters each, far below either dialect's limit. */
const CHUNK = 1000;

/** The non-zero differences in key order (the order PostgreSQL takes the rows' locks in). */
function changed<T extends { n: number }>(rows: Map<string, T>): T[] {
  return [...rows.entries()].filter(([, row]) => row.n !== 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

/** The hourly differences summed per UTC day, keyed as the hourly ones (the day in the hour's place). */
function byDay<T extends { readonly hour: number; n: number }>(rows: Map<string, T>, key: (row: T, day: number) => string): Map<string, Omit<T, 'hour'> & { day: number }> {
  const days = new Map<string, Omit<T, 'hour'> & { day: number }>();
  for (const row of rows.values()) {
    const day = Math.floor(row.hour / 24);
    const k = key(row, day);
    const entry = days.get(k);
    if (entry) entry.n += row.n;
    else {
      const { hour: _hour, ...rest } = row;
      days.set(k, { ...rest, day });
    }
  }
  return days;
}

/** Upserts `rows` into `table` (adding to `n`, in slot 0), 1,000 at a time. */
async function upsert<T extends 'svc_report_counts' | 'svc_report_answers' | 'svc_report_count_days' | 'svc_report_answer_days'>(db: Db, table: T, key: readonly string[], rows: readonly object[]): Promise<void> {
  for (let start = 0; start < rows.length; start += CHUNK) {
    // The table and columns are the constants below, never input.
    await db
      .insertInto(table)
      .values(rows.slice(start, start + CHUNK).map((row) => ({ ...row, slot: 0 })) as never)
      .onConflict((oc) => oc.columns([...key, 'slot'] as never).doUpdateSet({ n: sql`${sql.table(table)}.n + excluded.n` } as never))
      .execute();
  }
}

/** Writes a tally per hour and per day (one upsert per table and 1,000 keys); nothing when it changes nothing. */
export async function writeReportTally(db: Db, tally: ReportTally): Promise<void> {
  await upsert(db, 'svc_report_counts', ['form_id', 'hour', 'status', 'is_spam'], changed(tally.counts));
  await upsert(db, 'svc_report_count_days', ['form_id', 'day', 'status', 'is_spam'], changed(byDay(tally.counts, (r, day) => `${r.form_id}\u0000${day}\u0000${r.status}\u0000${r.is_spam}`)));
  await upsert(db, 'svc_report_answers', ['form_id', 'hour', 'handle', 'answer'], changed(tally.answers));
  await upsert(db, 'svc_report_answer_days', ['form_id', 'day', 'handle', 'answer'], changed(byDay(tally.answers, (r, day) => `${r.form_id}\u0000${day}\u0000${r.handle}\u0000${r.answer}`)));
}

/**
 * A stored row's values opened (issue #37: sealed under the row's data key, or plain in a row from
 * before sealing); null when they cannot be opened (the key destroyed), so its answers are not counted.
 */
export type StoredValuesReader = (row: SubmissionColumnsRow) => Values | null;

/**
 * What deleting submissions needs to take them out of the report: their forms' reported fields and
 * a reader for their values. Built once in the composition root (app.ts).
 */
export interface ReportCounts {
  /** The live form of an id, for its reported fields; undefined for a form no longer defined. */
  formOf(formId: number): Form | undefined;
  readonly readValues: StoredValuesReader;
  /** PostgreSQL locks the rows a change reads (FOR UPDATE); SQLite has one writer already. */
  readonly dialect: DialectName;
}

const READ_CHUNK = 500;

/**
 * Takes the submissions `ids` out of the report, in the transaction that deletes them (before the
 * DELETE: it reads the rows). The one place a delete's difference is made: submission-deletion.ts
 * calls it for the admin delete, bulk delete, retention purge and privacy erasure alike. Answers
 * of a form no longer defined are left as they are (its report is not served).
 */
export async function forgetSubmissions(trx: Transaction<Database>, counts: ReportCounts, ids: readonly number[]): Promise<void> {
  const tally = new ReportTally();
  // Locked on PostgreSQL until the DELETE: a status or spam change committed in between would
  // otherwise be taken out twice (once by itself, once here as it was before).
  for await (const row of countedRows(trx, counts, ids)) {
    const form = counts.formOf(Number(row.form_id));
    const isSpam = Number(row.is_spam) === 1;
    // Spam has no answers counted, so its values need not be opened.
    const values = form && !isSpam ? counts.readValues(row) : null;
    tally.add(form ? reportedFields(form) : [], { formId: Number(row.form_id), createdAt: row.created_at, status: row.status, isSpam, values }, -1);
  }
  await writeReportTally(trx, tally);
}

/** The rows of `ids` as the counts read them, a chunk at a time, locked on PostgreSQL until the write that follows. */
async function* countedRows(trx: Transaction<Database>, counts: ReportCounts, ids: readonly number[]) {
  for (let start = 0; start < ids.length; start += READ_CHUNK) {
    let query = trx
      .selectFrom('svc_submissions')
      .select(['uid', 'form_id', 'created_at', 'status', 'is_spam', 'title', 'values', 'data_key'])
      .where('id', 'in', ids.slice(start, start + READ_CHUNK));
    if (counts.dialect === 'postgres') query = query.forUpdate();
    yield* await query.execute();
  }
}

/** The ReportCounts of a form registry (only its list is read: forms by id, rebuilt when the list changes). */
export function createReportCounts(forms: { list(): readonly Form[] }, readValues: StoredValuesReader, dialect: DialectName): ReportCounts {
  let listed: readonly Form[] | null = null;
  let byId = new Map<number, Form>();
  return {
    formOf(formId) {
      const list = forms.list();
      if (list !== listed) {
        listed = list;
        byId = new Map(list.map((form) => [form.id, form]));
      }
      return byId.get(formId);
    },
    readValues,
    dialect,
  };
}

/**
 * The report's difference of a status or spam change to `ids`, in the change's transaction and
 * before its UPDATE: each row as it is now (locked on PostgreSQL, so no other change slips in
 * between) comes out, and comes back with the change applied. Values are read only when the spam
 * flag changes, the one change that moves answers (they count clean submissions).
 */
export async function countStateChange(trx: Transaction<Database>, counts: ReportCounts, ids: readonly number[], change: { readonly status?: string; readonly isSpam?: boolean }): Promise<void> {
  const tally = new ReportTally();
  for await (const row of countedRows(trx, counts, ids)) {
    const form = counts.formOf(Number(row.form_id));
    const fields = form ? reportedFields(form) : [];
    const isSpam = Number(row.is_spam) === 1;
    const flips = change.isSpam !== undefined && change.isSpam !== isSpam;
    const values = flips && form ? counts.readValues(row) : null;
    const before = { formId: Number(row.form_id), createdAt: row.created_at, status: row.status, isSpam, values };
    tally.add(fields, before, -1).add(fields, { ...before, status: change.status ?? row.status, isSpam: change.isSpam ?? isSpam }, 1);
  }
  await writeReportTally(trx, tally);
}

/** The report's difference of an owner's edit of one submission's values (issue #35 item 2). */
export function editTally(form: Form, row: Omit<CountedSubmission, 'values'>, before: Values, after: Values): ReportTally {
  const fields = reportedFields(form);
  return new ReportTally().add(fields, { ...row, values: before }, -1).add(fields, { ...row, values: after }, 1);
}

/** A tally's upserts as the parts of a PostgreSQL WITH, for the batch statement (submission-batch-statement.ts). */
export interface TallyStatements {
  /** Distinguishes statement texts: the number of rows of each upsert. */
  readonly shape: string;
  /** The data-modifying statements, their parameters numbered from `first`. */
  texts(first: number): readonly string[];
  readonly parameters: readonly unknown[];
}

const UPSERTS = [
  { table: 'svc_report_counts', columns: ['form_id', 'hour', 'status', 'is_spam', 'slot', 'n'] },
  { table: 'svc_report_count_days', columns: ['form_id', 'day', 'status', 'is_spam', 'slot', 'n'] },
  { table: 'svc_report_answers', columns: ['form_id', 'hour', 'handle', 'answer', 'slot', 'n'] },
  { table: 'svc_report_answer_days', columns: ['form_id', 'day', 'handle', 'answer', 'slot', 'n'] },
] as const;

/** Copies of each row the PostgreSQL batch statements spread over: one per write lane (write-batcher.ts). */
const SLOTS = 4;

/**
 * The tally as SQL text (PostgreSQL), so a write batch that is one statement stays one statement
 * and one round trip with its report counts in it: a transaction around the batch instead took
 * PostgreSQL submits from 0.94 of the bare insert to 0.30 (four round trips more, and the hour's
 * rows locked from the upsert to the commit while the other lanes waited for them). A random slot
 * of the batch's rows: concurrent batches mostly add to different copies of the hour's rows.
 */
export function tallyStatements(tally: ReportTally, slot = Math.floor(Math.random() * SLOTS)): TallyStatements {
  const rows = [changed(tally.counts), changed(byDay(tally.counts, (r, day) => `${r.form_id}\u0000${day}\u0000${r.status}\u0000${r.is_spam}`)), changed(tally.answers), changed(byDay(tally.answers, (r, day) => `${r.form_id}\u0000${day}\u0000${r.handle}\u0000${r.answer}`))] as const;
  const parameters: unknown[] = [];
  rows.forEach((part, i) => {
    const { columns } = UPSERTS[i] as (typeof UPSERTS)[number];
    for (const row of part) for (const column of columns) parameters.push(column === 'slot' ? slot : (row as Record<string, unknown>)[column]);
  });
  return {
    shape: rows.map((part) => part.length).join('.'),
    parameters,
    texts(first) {
      const out: string[] = [];
      let at = first;
      rows.forEach((part, i) => {
        if (part.length === 0) return;
        const { table, columns } = UPSERTS[i] as (typeof UPSERTS)[number];
        const values = part.map(() => `(${columns.map(() => `$${at++}`).join(', ')})`).join(', ');
        out.push(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${values} ON CONFLICT (${columns.slice(0, 5).join(', ')}) DO UPDATE SET n = ${table}.n + excluded.n`);
      });
      return out;
    },
  };
}
