/**
 * Filtered, sorted reads of stored submissions for the admin API, the exports and the CLI, with
 * keyset pagination: a page starts strictly after the last row of the previous page on the sort
 * key plus `id`, so rows inserted or deleted meanwhile never shift a page (no duplicates, no gaps).
 * The same query serves both dialects (timestamps are ISO text, JSON is text).
 *
 * Values and titles are sealed at rest (issue #37 item 1), so every row is opened as it is read,
 * and a text search (`q`) cannot run in SQL: the other filters narrow the rows in SQL, and the
 * text is matched here after opening, scanning in sort order (searchSubmissionsPage caps a list
 * page's scan at SEARCH_SCAN_CAP rows and says where it stopped).
 */
import { parseSubmissionClient, type SubmissionClient, type SubmissionProfile } from './submission-repository.js';
import type { Kysely, Transaction } from 'kysely';
import type { Values } from '@svc/core';
import type { Database } from '../storage/database-schema.js';
import { withKeys } from './object-shapes.js';
import { parseStoredJson } from '../storage/stored-json.js';
import { openSubmissionColumns, openSubmissionPage, type OpenedColumns, type SubmissionColumnsRow, type ValueSealer } from '../privacy/privacy-sealer.js';
import type { OpenPool } from '../privacy/privacy-open-pool.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Where submissions are read from, and the sealer that opens their values and titles. */
export interface SubmissionSource {
  readonly db: Db;
  readonly sealer: ValueSealer;
  /** Opens whole pages off the main thread (exports, lists); without it rows open here. */
  readonly opening?: Pick<OpenPool, 'open'>;
}

export interface SubmissionFilter {
  readonly status?: string;
  /** true: spam only; false: no spam; null: both. */
  readonly spam: boolean | null;
  /** createdAt >= from (ISO). */
  readonly from?: string;
  /** createdAt < to (ISO). */
  readonly to?: string;
  /** Case-insensitive substring of the title or of the stored values. */
  readonly q?: string;
  /** Only these submissions (a console selection exported, issue #35); at most 10,000. */
  readonly ids?: readonly number[];
}

export interface SubmissionSort {
  readonly key: 'createdAt' | 'id';
  readonly direction: 'asc' | 'desc';
}

/** Where a page ends: the sort key and id of its last row. */
export interface KeysetPosition {
  readonly createdAt: string;
  readonly id: number;
}

export interface SubmissionRecord {
  readonly id: number;
  readonly uid: string;
  readonly formId: number;
  readonly title: string;
  readonly status: string;
  readonly isSpam: boolean;
  readonly spamReasons: readonly string[];
  readonly values: Values;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** The client name and version and the source page it reported (contract §1), or null. */
  readonly client: SubmissionClient | null;
  /** The profile it came through, its properties and subject (issue #13), or null. */
  readonly profile: SubmissionProfile | null;
  /** The handle of the site it was made on (issue #34); null before sites existed. */
  readonly site: string | null;
}

const COLUMNS = ['id', 'uid', 'form_id', 'title', 'status', 'is_spam', 'spam_reasons', 'values', 'created_at', 'updated_at', 'client', 'profile', 'site', 'data_key'] as const;

/** What a CSV export shows of a submission (export-format.ts). */
export type ListedSubmission = Pick<SubmissionRecord, 'id' | 'uid' | 'title' | 'status' | 'isSpam' | 'values' | 'createdAt' | 'client' | 'profile'>;

/** Its columns: a CSV export reads nothing else, a third fewer columns per row (issue #17). */
const LISTED_COLUMNS = ['id', 'uid', 'title', 'status', 'is_spam', 'values', 'created_at', 'client', 'profile', 'data_key'] as const;

type ListedRow = SubmissionColumnsRow & { id: number; status: string; is_spam: number; created_at: string; client: string | null; profile: string | null };

function toListed(row: ListedRow, opened: OpenedColumns): ListedSubmission {
  return {
    id: Number(row.id),
    uid: row.uid,
    // A row that cannot be opened shows as empty rather than failing the whole page.
    title: opened.title ?? '',
    status: row.status,
    isSpam: Number(row.is_spam) === 1,
    // Rows are read by the thousand (lists, exports): parsed without filling V8's string table.
    values: opened.values === null ? {} : (parseStoredJson(opened.values) as Values),
    createdAt: row.created_at,
    client: parseSubmissionClient(row.client),
    profile: row.profile ? (JSON.parse(row.profile) as SubmissionProfile) : null,
  };
}

type RecordRow = ListedRow & { form_id: number; spam_reasons: string; updated_at: string; site: string | null };

function recordOf(row: RecordRow, opened: OpenedColumns): SubmissionRecord {
  return withKeys(toListed(row, opened), { formId: Number(row.form_id), spamReasons: JSON.parse(row.spam_reasons) as string[], updatedAt: row.updated_at, site: row.site });
}

/** A stored row as a record, its values and title opened. */
export function toRecord(sealer: ValueSealer, row: RecordRow): SubmissionRecord {
  return recordOf(row, openSubmissionColumns(sealer, row));
}

/**
 * Whether opened columns match a text search, as the SQL `like` over the stored JSON did before
 * values were sealed: case-insensitive, in the title or in the values' JSON spelling of the text.
 */
export function textMatcher(q: string): (opened: OpenedColumns) => boolean {
  const inTitle = q.toLowerCase();
  const inValues = JSON.stringify(q).slice(1, -1).toLowerCase();
  return (opened) => (opened.title !== null && opened.title.toLowerCase().includes(inTitle)) || (opened.values !== null && opened.values.toLowerCase().includes(inValues));
}

/**
 * The rows of a form that `filter` matches, selecting no column yet (lists, counts, bulk actions),
 * all but the text search `q`: sealed values are matched after opening (textMatcher).
 */
export function filtered(db: Db, formId: number, filter: SubmissionFilter) {
  let query = db.selectFrom('svc_submissions').where('form_id', '=', formId);
  if (filter.ids !== undefined) query = query.where('id', 'in', filter.ids.length > 0 ? filter.ids : [0]);
  if (filter.spam !== null) query = query.where('is_spam', '=', filter.spam ? 1 : 0);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('created_at', '<', filter.to);
  return query;
}

/** The query of one page (at most `limit` rows) after `after`, in the order of `sort`, selecting no column yet. */
function page(db: Db, formId: number, filter: SubmissionFilter, sort: SubmissionSort, limit: number, after: KeysetPosition | null) {
  let query = filtered(db, formId, filter);
  const op = sort.direction === 'asc' ? '>' : '<';
  if (after) {
    // Past (createdAt, id) in sort order. The first condition alone is a range the
    // (form_id, created_at) index can start from; the second only sorts out the rows that share
    // the last createdAt. Written as one OR, the database scanned every earlier row again for
    // each page, so a long export slowed down page by page (issue #17: 1,000,000 rows).
    query =
      sort.key === 'id'
        ? query.where('id', op, after.id)
        : query
            .where('created_at', sort.direction === 'asc' ? '>=' : '<=', after.createdAt)
            .where((eb) => eb.or([eb('created_at', op, after.createdAt), eb('id', op, after.id)]));
  }
  if (sort.key === 'createdAt') query = query.orderBy('created_at', sort.direction);
  return query.orderBy('id', sort.direction).limit(limit);
}

/** Rows a text search reads from the database at a time. */
const SCAN_STEP = 500;

/**
 * Rows a text search opens for one page of a list (admin API, console, CLI) at most: past it, the
 * page ends short with a cursor where the scan stopped (2,000 rows open in about 20 ms).
 */
export const SEARCH_SCAN_CAP = 5_000;

/** A page of a search: its rows, and where a capped text search stopped before filling it. */
export interface SearchPage<T> {
  readonly rows: T[];
  /** Non-null when the scan reached its cap: the next page starts after this position. */
  readonly stoppedAt: KeysetPosition | null;
}

/** What a page reads: where from, which columns, how a stored row becomes a result, and which rows. */
interface PageQuery<R extends ListedRow, T> {
  readonly source: SubmissionSource;
  readonly columns: readonly (keyof R & string)[];
  readonly convert: (row: R, opened: OpenedColumns) => T;
  readonly formId: number;
  readonly filter: SubmissionFilter;
  readonly sort: SubmissionSort;
}

/** Whether `filter` searches the opened text (rows must be opened to be matched). */
function searchesText(filter: SubmissionFilter): filter is SubmissionFilter & { q: string } {
  return filter.q !== undefined && filter.q !== '';
}

/** Up to `size` stored rows of `query` past `from`, unopened. */
function selectPage<R extends ListedRow, T>({ source, formId, filter, sort, columns }: PageQuery<R, T>, size: number, from: KeysetPosition | null): Promise<R[]> {
  return page(source.db, formId, filter, sort, size, from)
    .select(columns as never)
    .execute() as unknown as Promise<R[]>;
}

/**
 * Up to `limit` rows past `after` in sort order. Without a text search one query; with one, the
 * rows the other filters leave are read SCAN_STEP at a time, opened and matched until `limit`
 * match, the rows run out or `cap` rows were read.
 */
async function readPage<R extends ListedRow, T>(query: PageQuery<R, T>, limit: number, after: KeysetPosition | null, cap: number): Promise<SearchPage<T>> {
  const { source, convert, filter } = query;
  if (!searchesText(filter)) {
    const read = await selectPage(query, limit, after);
    const opened = source.opening ? await source.opening.open(read) : openSubmissionPage(source.sealer, read);
    return { rows: read.map((row, i) => convert(row, opened[i] as OpenedColumns)), stoppedAt: null };
  }
  const matches = textMatcher(filter.q);
  const rows: T[] = [];
  let position = after;
  let scanned = 0;
  for (;;) {
    const step = Math.min(SCAN_STEP, cap - scanned);
    const read = await selectPage(query, step, position);
    for (const row of read) {
      const opened = openSubmissionColumns(source.sealer, row);
      if (!matches(opened)) continue;
      rows.push(convert(row, opened));
      if (rows.length === limit) return { rows, stoppedAt: null };
    }
    scanned += read.length;
    if (read.length < step) return { rows, stoppedAt: null };
    const last = read[read.length - 1] as R;
    position = { createdAt: last.created_at, id: Number(last.id) };
    if (scanned >= cap) return { rows, stoppedAt: position };
  }
}

/** source, formId, filter, sort, limit (rows at most), after (the last row of the previous page). */
type SearchArgs = [source: SubmissionSource, formId: number, filter: SubmissionFilter, sort: SubmissionSort, limit: number, after: KeysetPosition | null];

const recordQuery = (source: SubmissionSource, formId: number, filter: SubmissionFilter, sort: SubmissionSort): PageQuery<RecordRow, SubmissionRecord> => ({
  source,
  columns: COLUMNS,
  convert: recordOf,
  formId,
  filter,
  sort,
});

/** One page of whole submissions, in the order of `sort`; a text search reads until the page is full. */
export async function searchSubmissions(...[source, formId, filter, sort, limit, after]: SearchArgs): Promise<SubmissionRecord[]> {
  return (await readPage(recordQuery(source, formId, filter, sort), limit, after, Infinity)).rows;
}

/** A page for a list: a text search opens SEARCH_SCAN_CAP rows at most and says where it stopped. */
export function searchSubmissionsPage(...[source, formId, filter, sort, limit, after]: SearchArgs): Promise<SearchPage<SubmissionRecord>> {
  return readPage(recordQuery(source, formId, filter, sort), limit, after, SEARCH_SCAN_CAP);
}

/** Pages an export keeps in flight: read and handed to the opening worker before the caller asks. */
const PAGES_AHEAD = 4;

/**
 * Every row `filter` matches, in pages of `size` in the order of `sort` (exports). With an opening
 * worker and no text search, the next pages are read and handed to the worker while the caller
 * formats the one before, up to PAGES_AHEAD: a keyset page needs only the last stored row of the
 * one before, not its opening, so the worker always has a page to open and the two threads run
 * side by side (issue #37 item 6: one page ahead left each thread idle half the time).
 */
async function* pagesOf<R extends ListedRow, T>(query: PageQuery<R, T>, size: number): AsyncGenerator<T[]> {
  const { source, convert, filter } = query;
  const { opening } = source;
  let after: KeysetPosition | null = null;
  if (!opening || searchesText(filter)) {
    for (;;) {
      const { rows } = await readPage(query, size, after, Infinity);
      if (rows.length > 0) yield rows;
      if (rows.length < size) return;
      const last = rows[rows.length - 1] as T & { createdAt: string; id: number };
      after = { createdAt: last.createdAt, id: last.id };
    }
  }
  const queue: Promise<T[]>[] = [];
  let more = true;
  const readAhead = async () => {
    const read = await selectPage(query, size, after);
    if (read.length < size) more = false;
    if (read.length === 0) return;
    const last = read[read.length - 1] as R;
    after = { createdAt: last.created_at, id: Number(last.id) };
    const opened = opening.open(read).then((list) => read.map((row, i) => convert(row, list[i] as OpenedColumns)));
    // A page read ahead of a consumer that stops is dropped; its failure then is nobody's to hear.
    opened.catch(() => undefined);
    queue.push(opened);
  };
  for (;;) {
    while (more && queue.length < PAGES_AHEAD) await readAhead();
    const next = queue.shift();
    if (!next) return;
    yield await next;
  }
}

/** Every page of whole submissions (JSONL exports). */
export function submissionPages(source: SubmissionSource, formId: number, filter: SubmissionFilter, sort: SubmissionSort, size: number): AsyncGenerator<SubmissionRecord[]> {
  return pagesOf(recordQuery(source, formId, filter, sort), size);
}

/** Every page with only what a CSV export shows. */
export function listedSubmissionPages(source: SubmissionSource, formId: number, filter: SubmissionFilter, sort: SubmissionSort, size: number): AsyncGenerator<ListedSubmission[]> {
  return pagesOf({ source, columns: LISTED_COLUMNS, convert: toListed, formId, filter, sort }, size);
}

/**
 * A query's rows past `after` in (created_at, id) order, SCAN_STEP at most: the order the
 * (form_id, created_at) index gives, so each step starts where the last ended. In id order
 * SQLite walked that index and sorted every time: counting a search over 100,000 rows took 8 s.
 */
function scanStep<Q extends ReturnType<typeof filtered>>(query: Q, after: KeysetPosition | null): Q {
  const next = after
    ? query.where('created_at', '>=', after.createdAt).where((eb) => eb.or([eb('created_at', '>', after.createdAt), eb('id', '>', after.id)]))
    : query;
  return next.orderBy('created_at').orderBy('id').limit(SCAN_STEP) as Q;
}

/** Every row of `query` (the other filters applied) opened and matched against `q`, in scan steps; stops once `visit` answers false. */
async function scanMatching<E extends string>(source: SubmissionSource, query: ReturnType<typeof filtered>, q: string, extra: readonly E[], visit: (row: Record<E | 'id', unknown>) => boolean): Promise<void> {
  const matches = textMatcher(q);
  let after: KeysetPosition | null = null;
  for (;;) {
    const read = (await scanStep(query, after)
      .select(['id', 'uid', 'title', 'values', 'data_key', 'created_at', ...extra] as never)
      .execute()) as unknown as (SubmissionColumnsRow & { id: number; created_at: string } & Record<E | 'id', unknown>)[];
    const opened = openSubmissionPage(source.sealer, read);
    for (const [i, row] of read.entries()) if (matches(opened[i] as OpenedColumns) && !visit(row)) return;
    if (read.length < SCAN_STEP) return;
    const last = read[read.length - 1] as { id: number; created_at: string };
    after = { createdAt: last.created_at, id: Number(last.id) };
  }
}

/** The rows of `query` (a form's, other filters applied) whose text matches `q`, with the `extra` columns (bulk actions); stops past `max` matches. */
export async function matchingIds<E extends string>(
  source: SubmissionSource,
  query: ReturnType<typeof filtered>,
  q: string,
  extra: readonly E[],
  max: number,
): Promise<Record<E | 'id', unknown>[]> {
  const out: Record<E | 'id', unknown>[] = [];
  await scanMatching(source, query, q, extra, (row) => {
    out.push(row);
    return out.length <= max;
  });
  return out;
}

/**
 * How many rows of a form `filter` matches. A text search opens every row the other filters
 * leave (one data key unwrapped and one envelope opened per row), so it costs a read of them all.
 */
export async function countMatching(source: SubmissionSource, formId: number, filter: SubmissionFilter): Promise<number> {
  if (searchesText(filter)) {
    let n = 0;
    await scanMatching(source, filtered(source.db, formId, filter), filter.q, [], () => {
      n++;
      return true;
    });
    return n;
  }
  const row = await filtered(source.db, formId, filter)
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Opaque to clients; carries the sort it was made for, so it cannot be replayed under another. */
export function encodeCursor(sort: SubmissionSort, last: KeysetPosition): string {
  return Buffer.from(JSON.stringify([sort.key, sort.direction, last.createdAt, last.id])).toString('base64url');
}

/** The position in a cursor, or null when it is malformed or made for another sort. */
export function decodeCursor(cursor: string, sort: SubmissionSort): KeysetPosition | null {
  if (cursor.length > 300 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(parsed) || parsed.length !== 4) return null;
    const [key, direction, createdAt, id] = parsed as unknown[];
    if (key !== sort.key || direction !== sort.direction) return null;
    if (typeof createdAt !== 'string' || createdAt.length > 40 || !Number.isSafeInteger(id)) return null;
    return { createdAt, id: id as number };
  } catch {
    return null;
  }
}
