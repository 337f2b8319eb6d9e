/** Stored submissions (DESIGN.md principle 7: typed Kysely, no dialect branches here). */
import type { Kysely, Transaction } from 'kysely';
import type { Values } from '@svc/core';
import type { Database } from '../storage/database-schema.js';
import { runCompiled } from '../storage/compiled-queries.js';
import { openSubmissionColumns, parseOpenedValues, type ValueSealer } from '../privacy/privacy-sealer.js';

export interface NewSubmission {
  readonly uid: string;
  readonly formId: number;
  readonly tokenHash: string;
  readonly title: string;
  readonly status: string;
  readonly isSpam: boolean;
  readonly spamReasons: readonly string[];
  readonly ip: string | null;
  readonly ipHash?: string | null;
  readonly values: Values;
  readonly createdAt: string;
  /** What the client said of itself (contract §1); null when it said nothing. */
  readonly client?: SubmissionClient | null;
  /** The profile the submission came through (issue #13). */
  readonly profile?: SubmissionProfile | null;
  /** The handle of the site it was made on (issue #34). */
  readonly site?: string | null;
  /**
   * The values and title as stored, sealed under the row's data key (issue #37 item 1; persist()
   * always gives it). Without it the row is written plain, as a legacy row: fixtures only.
   */
  readonly sealed?: SealedColumns | null;
}

/** A submission's sealed columns (privacy-sealer.ts sealSubmissionColumns) under the data key wrapped in `dataKey`. */
export interface SealedColumns {
  readonly dataKey: string;
  readonly values: string;
  readonly title: string;
}

/** Who and what a profile submission was for: the profile, its properties and the authenticated subject. */
export interface SubmissionProfile {
  readonly name: string;
  readonly properties: Readonly<Record<string, string | number | boolean>>;
  /** The bearer token's `sub` (requiresAuth) or the signed link's, else null. */
  readonly subject: string | null;
  readonly issuer: string | null;
}

/** The client name and version and the source page a submit carried (`meta`, `context`). */
export interface SubmissionClient {
  readonly name: string | null;
  readonly version: string | null;
  readonly sourceUrl: string | null;
}

export interface StoredSubmission extends NewSubmission {
  readonly id: number;
  readonly finished: boolean;
  readonly updatedAt: string;
}

type Db = Kysely<Database> | Transaction<Database>;

export function submissionRow(row: NewSubmission) {
  // Key order is the column order of the precompiled insert below and of the batch statement
  // (submission-batch-statement.ts); keep it fixed.
  return {
    uid: row.uid,
    form_id: row.formId,
    token_hash: row.tokenHash,
    title: row.sealed ? row.sealed.title : row.title,
    status: row.status,
    is_spam: row.isSpam ? 1 : 0,
    spam_reasons: JSON.stringify(row.spamReasons),
    ip: row.ip,
    ip_hash: row.ipHash ?? null,
    values: row.sealed ? row.sealed.values : JSON.stringify(row.values),
    client: row.client ? JSON.stringify(row.client) : null,
    profile: row.profile ? JSON.stringify(row.profile) : null,
    site: row.site ?? null,
    finished: 1,
    created_at: row.createdAt,
    updated_at: row.createdAt,
    data_key: row.sealed?.dataKey ?? null,
  };
}

export async function insertSubmission(db: Db, row: NewSubmission): Promise<number> {
  const [id] = await insertSubmissions(db, [row]);
  return id as number;
}

/** At most this many rows per INSERT (17 binds each): a write batch's worth. */
const ROWS_PER_STATEMENT = 64;

/**
 * Many submissions in one statement per `ROWS_PER_STATEMENT` (a write batch's plain submits,
 * issue #17), compiled once per row count; answers their ids in the order given. RETURNING's row
 * order is not promised by either database, so ids are matched back by uid.
 */
export async function insertSubmissions(db: Db, rows: readonly NewSubmission[]): Promise<number[]> {
  const inserted: { id: number | string; uid: string }[] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_PER_STATEMENT).map(submissionRow);
    const build = () => db.insertInto('svc_submissions').values(chunk).returning(['id', 'uid']);
    const result = await runCompiled(db, `insert-submissions-${chunk.length}`, build, chunk.flatMap((row) => Object.values(row)));
    inserted.push(...result.rows);
  }
  return idsInOrder(rows, inserted);
}

/** The ids of `rows` in their order, from RETURNING rows in any order (matched by uid). */
export function idsInOrder(rows: readonly Pick<NewSubmission, 'uid'>[], inserted: readonly { id: number | string; uid: string }[]): number[] {
  const ids = new Map(inserted.map((r) => [r.uid, Number(r.id)]));
  return rows.map((row) => {
    const id = ids.get(row.uid);
    if (id === undefined) throw new Error('insert returned no id');
    return id;
  });
}

/** One submission, its values and title opened (a row that cannot be opened reads as empty). */
export async function findSubmission(db: Db, id: number, sealer: ValueSealer): Promise<StoredSubmission | undefined> {
  const row = await db.selectFrom('svc_submissions').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const opened = openSubmissionColumns(sealer, row);
  return {
    id: row.id,
    uid: row.uid,
    formId: row.form_id,
    tokenHash: row.token_hash,
    title: opened.title ?? '',
    status: row.status,
    isSpam: row.is_spam === 1,
    spamReasons: JSON.parse(row.spam_reasons) as string[],
    ip: row.ip,
    values: parseOpenedValues<Values>(opened) ?? {},
    client: parseSubmissionClient(row.client),
    profile: row.profile ? (JSON.parse(row.profile) as SubmissionProfile) : null,
    site: row.site,
    finished: row.finished === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function parseSubmissionClient(text: string | null): SubmissionClient | null {
  return text ? (JSON.parse(text) as SubmissionClient) : null;
}

/** Submissions that count against limits: not spam, optionally since a time and from one IP. */
export async function countLimitedSubmissions(db: Db, formId: number, filter: { since?: string; ipHash?: string } = {}): Promise<number> {
  let query = db
    .selectFrom('svc_submissions')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('form_id', '=', formId)
    .where('is_spam', '=', 0);
  if (filter.since !== undefined) query = query.where('created_at', '>=', filter.since);
  if (filter.ipHash !== undefined) query = query.where('ip_hash', '=', filter.ipHash);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

export async function countSubmissions(db: Db, formId: number): Promise<number> {
  const row = await db
    .selectFrom('svc_submissions')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('form_id', '=', formId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
