/**
 * Filtered, sorted reads of stored submissions for the admin API, the exports and the CLI, with
 * keyset pagination: a page starts strictly after the last row of the previous page on the sort
 * key plus `id`, so rows inserted or deleted meanwhile never shift a page (no duplicates, no gaps).
 * The same query serves both dialects (timestamps are ISO text, JSON is text).
 */
import { parseSubmissionClient, type SubmissionClient, type SubmissionProfile } from './submission-repository.js';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Values } from '@svc/core';
import type { Database } from '../storage/database-schema.js';
import { withKeys } from './object-shapes.js';
import { parseStoredJson } from '../storage/stored-json.js';

type Db = Kysely<Database> | Transaction<Database>;

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

const COLUMNS = ['id', 'uid', 'form_id', 'title', 'status', 'is_spam', 'spam_reasons', 'values', 'created_at', 'updated_at', 'client', 'profile', 'site'] as const;

/** What a CSV export shows of a submission (export-format.ts). */
export type ListedSubmission = Pick<SubmissionRecord, 'id' | 'uid' | 'title' | 'status' | 'isSpam' | 'values' | 'createdAt' | 'client' | 'profile'>;

/** Its columns: a CSV export reads nothing else, a third fewer columns per row (issue #17). */
const LISTED_COLUMNS = ['id', 'uid', 'title', 'status', 'is_spam', 'values', 'created_at', 'client', 'profile'] as const;

function toListed(row: { id: number; uid: string; title: string; status: string; is_spam: number; values: string; created_at: string; client: string | null; profile: string | null }): ListedSubmission {
  return {
    id: Number(row.id),
    uid: row.uid,
    title: row.title,
    status: row.status,
    isSpam: Number(row.is_spam) === 1,
    // Rows are read by the thousand (lists, exports): parsed without filling V8's string table.
    values: parseStoredJson(row.values) as Values,
    createdAt: row.created_at,
    client: parseSubmissionClient(row.client),
    profile: row.profile ? (JSON.parse(row.profile) as SubmissionProfile) : null,
  };
}

export function toRecord(row: Parameters<typeof toListed>[0] & { form_id: number; spam_reasons: string; updated_at: string; site: string | null }): SubmissionRecord {
  return withKeys(toListed(row), { formId: Number(row.form_id), spamReasons: JSON.parse(row.spam_reasons) as string[], updatedAt: row.updated_at, site: row.site });
}

/** A LIKE pattern matching `text` literally: the wildcards and the escape character are escaped. */
export function likeContaining(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The rows of a form that `filter` matches, selecting no column yet (lists, counts, bulk actions). */
export function filtered(db: Db, formId: number, filter: SubmissionFilter) {
  let query = db.selectFrom('svc_submissions').where('form_id', '=', formId);
  if (filter.ids !== undefined) query = query.where('id', 'in', filter.ids.length > 0 ? filter.ids : [0]);
  if (filter.spam !== null) query = query.where('is_spam', '=', filter.spam ? 1 : 0);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('created_at', '<', filter.to);
  if (filter.q !== undefined && filter.q !== '') {
    // Values are stored as JSON text, where `"` and `\` are escaped: search for the JSON spelling.
    const inValues = likeContaining(JSON.stringify(filter.q).slice(1, -1));
    const inTitle = likeContaining(filter.q);
    query = query.where(
      sql<boolean>`(lower(${sql.ref('values')}) like ${inValues} escape '\\' or lower(${sql.ref('title')}) like ${inTitle} escape '\\')`,
    );
  }
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

/** db, formId, filter, sort, limit (rows at most), after (the last row of the previous page). */
type PageArgs = Parameters<typeof page>;

/** One page of whole submissions, in the order of `sort`. */
export async function searchSubmissions(...args: PageArgs): Promise<SubmissionRecord[]> {
  return (await page(...args).select(COLUMNS).execute()).map(toRecord);
}

/** The same page with only what a CSV export shows. */
export async function searchListedSubmissions(...args: PageArgs): Promise<ListedSubmission[]> {
  return (await page(...args).select(LISTED_COLUMNS).execute()).map(toListed);
}

export async function countMatching(db: Db, formId: number, filter: SubmissionFilter): Promise<number> {
  const row = await filtered(db, formId, filter)
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
