/**
 * A write batch's plain submissions and their delivery jobs as one PostgreSQL statement (issue
 * #17). A data-modifying WITH inserts the rows, and the jobs are inserted from its RETURNING,
 * joined by uid: the statement is atomic by itself, so the batch needs no BEGIN and COMMIT and
 * costs one round trip instead of four (on loopback each is a socket write whose kernel work for
 * both ends is charged to svc). The jobs' payloads are written before their submissions have ids;
 * the outbox reads the id from the job's `submission_id` column (outbox-repository.ts).
 */
import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import { deliveryRows, type NewDelivery } from '../notifications/outbox-repository.js';
import { idsInOrder, submissionRow, type NewSubmission } from './submission-repository.js';
import { runCompiled } from '../storage/compiled-queries.js';
import type { TallyStatements } from './report-counts.js';

export interface BatchSubmission {
  readonly row: NewSubmission;
  /** Its jobs, with a null submission id (the statement sets it). */
  readonly jobs: readonly NewDelivery[];
}

/** The delivery columns that are integers: a VALUES list's untyped parameters arrive as text. */
const INTEGER_COLUMNS = new Set(['form_id', 'attempts']);
/** PostgreSQL binds at most 65,535 parameters a statement; a batch over this many runs its inputs one by one. */
const MAX_PARAMETERS = 32_000;
const quote = (column: string) => `"${column}"`;

function placeholders(count: number, width: number, first: number): string {
  const rows: string[] = [];
  for (let r = 0; r < count; r++) {
    const cells: string[] = [];
    for (let c = 0; c < width; c++) cells.push(`$${first + r * width + c}`);
    rows.push(`(${cells.join(', ')})`);
  }
  return rows.join(', ');
}

/** The statement for `rows` submissions and `jobs` jobs, built once per shape (runCompiled keeps it). */
function statementText(rowColumns: readonly string[], rows: number, jobColumns: readonly string[], jobs: number, also: readonly string[]): string {
  // Further data-modifying statements (the report counts, issue #35 item 6) run with the rest.
  const more = also.map((text, i) => `, r${i} AS (${text})`).join('');
  const insertRows = `INSERT INTO svc_submissions (${rowColumns.map(quote).join(', ')}) VALUES ${placeholders(rows, rowColumns.length, 1)} RETURNING id, uid`;
  if (jobs === 0) return `WITH s AS (${insertRows})${more} SELECT id, uid FROM s`;
  // The jobs' VALUES carry their submission's uid first, then every delivery column but the id.
  const carried = jobColumns.filter((c) => c !== 'submission_id');
  const select = jobColumns.map((c) => (c === 'submission_id' ? 's.id' : INTEGER_COLUMNS.has(c) ? `j.${quote(c)}::integer` : `j.${quote(c)}`));
  const values = placeholders(jobs, carried.length + 1, rows * rowColumns.length + 1);
  const insertJobs = `INSERT INTO svc_deliveries (${jobColumns.map(quote).join(', ')})
    SELECT ${select.join(', ')} FROM (VALUES ${values}) AS j(submission_uid, ${carried.map(quote).join(', ')}) JOIN s ON s.uid = j.submission_uid`;
  return `WITH s AS (${insertRows}), d AS (${insertJobs})${more} SELECT id, uid FROM s`;
}

/** Inserts the batch (and `also`'s statements); answers the submissions' ids in the order given (matched by uid). */
export async function insertSubmissionBatch(db: Kysely<Database>, batch: readonly BatchSubmission[], now: string, also?: TallyStatements): Promise<number[]> {
  const rows = batch.map((b) => submissionRow(b.row));
  const jobRows = batch.flatMap((b) => deliveryRows(b.jobs, now).map((job) => ({ submissionUid: b.row.uid, job })));
  const rowColumns = Object.keys(rows[0] ?? {});
  const jobColumns = Object.keys(jobRows[0]?.job ?? {});
  const parameters: unknown[] = rows.flatMap((row) => Object.values(row));
  for (const { submissionUid, job } of jobRows) {
    parameters.push(submissionUid);
    for (const [column, value] of Object.entries(job)) if (column !== 'submission_id') parameters.push(value);
  }
  const alsoTexts = also?.texts(parameters.length + 1) ?? [];
  if (also) parameters.push(...also.parameters);
  if (parameters.length > MAX_PARAMETERS) throw new Error('a write batch too large for one statement');
  const build = () => ({ compile: () => CompiledQuery.raw(statementText(rowColumns, rows.length, jobColumns, jobRows.length, alsoTexts), parameters) });
  const result = await runCompiled<{ id: number | string; uid: string }>(db, `submission-batch-${rows.length}-${jobRows.length}-${also?.shape ?? ''}`, build, parameters);
  return idsInOrder(batch.map((b) => b.row), result.rows);
}
