/**
 * Bulk actions on a form's submissions (issue #35 item 1), for the admin API and the console:
 * change the status, mark spam or not spam, delete with files, on listed ids or on everything a
 * list filter matches. Only the submissions the action really changes are touched and counted;
 * each gets its own audit entry, written in the transaction of the change. The work is done in
 * chunked statements (an UPDATE and one multi-row audit INSERT per 500 rows), so 10,000 rows are
 * a few dozen statements, not tens of thousands.
 */
import { SvcError, type Form } from '@svc/core';
import type { Transaction } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import { filtered, matchingIds, type SubmissionFilter } from '../submissions/submission-search.js';
import type { ValueSealer } from '../privacy/privacy-sealer.js';
import { eraseSubmissions } from '../privacy/privacy-erasure.js';
import { countFiles } from '../submissions/submission-admin-repository.js';
import { countStateChange } from '../submissions/report-counts.js';
import { parseFilter } from './admin-query.js';
import { assertCanWrite, type AdminKey } from './admin-keys.js';
import { readableForm, type AdminServices } from './admin-service.js';
import type { AuditBy } from './audit-log.js';

/** The most submissions one call may change: one transaction stays short on both dialects. */
export const BULK_MAX = 10_000;
/** Rows per UPDATE and per audit INSERT (7 parameters a row, far below either dialect's limit). */
const CHUNK = 500;

export type BulkAction =
  | { readonly kind: 'setStatus'; readonly status: string }
  | { readonly kind: 'markSpam' }
  | { readonly kind: 'markNotSpam' }
  | { readonly kind: 'delete' };

export type BulkSelection = { readonly ids: readonly number[] } | { readonly filter: SubmissionFilter };

export interface BulkRequest {
  readonly selection: BulkSelection;
  readonly action: BulkAction;
}

const ACTIONS = ['setStatus', 'markSpam', 'markNotSpam', 'delete'] as const;

function invalid(message: string): SvcError {
  return new SvcError('PAYLOAD_INVALID', message);
}

/** Ids as JSON numbers (or digit strings, which a console form posts), each a positive integer. */
export function parseIds(raw: unknown, digits = false): number[] {
  if (!Array.isArray(raw) || raw.length === 0) throw invalid('"ids" must be a non-empty array of submission ids.');
  if (raw.length > BULK_MAX) throw new SvcError('BULK_TOO_LARGE', `At most ${BULK_MAX} ids per call; ${raw.length} were sent.`);
  const ids = raw.map((value) => (digits && typeof value === 'string' && /^[1-9]\d{0,14}$/.test(value) ? Number(value) : value));
  if (!ids.every((id) => typeof id === 'number' && Number.isSafeInteger(id) && id > 0)) throw invalid('"ids" must hold positive integer submission ids.');
  return [...new Set(ids as number[])];
}

/** A filter object as the list route's query: strings (spam also true/false), unknown keys refused. */
function parseFilterObject(raw: unknown, statuses: readonly string[]): SubmissionFilter {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid('"filter" must be an object of the list filters.');
  const entries = Object.entries(raw as Record<string, unknown>);
  const unknown = entries.filter(([name]) => !['status', 'spam', 'from', 'to', 'q'].includes(name)).map(([name]) => name.slice(0, 40));
  if (unknown.length > 0) throw invalid(`Unknown filter(s): ${unknown.join(', ')}.`);
  const strings = entries.map(([name, value]) => {
    if (name === 'spam' && (typeof value === 'boolean' || value === null)) return [name, value === null ? 'all' : String(value)];
    if (typeof value !== 'string') throw invalid(`filter "${name}" must be a string.`);
    return [name, value];
  });
  return parseFilter(Object.fromEntries(strings) as Record<string, string>, statuses);
}

/** Parses `{ids | filter, action, status?}`; every mistake is 400 PAYLOAD_INVALID naming it. */
export function parseBulkRequest(body: unknown, statuses: readonly string[]): BulkRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('The body must be a JSON object.');
  const { ids, filter, action, status, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length > 0) throw invalid(`Unknown key(s): ${Object.keys(rest).map((k) => k.slice(0, 40)).join(', ')}.`);
  if ((ids === undefined) === (filter === undefined)) throw invalid('Send either "ids" or "filter", not both.');
  if (typeof action !== 'string' || !(ACTIONS as readonly string[]).includes(action)) throw invalid(`"action" must be one of ${ACTIONS.join(', ')}.`);
  if (action === 'setStatus' && (typeof status !== 'string' || !statuses.includes(status))) throw invalid(`"status" must be one of ${statuses.join(', ')}.`);
  if (action !== 'setStatus' && status !== undefined) throw invalid('"status" goes only with the setStatus action.');
  const selection = ids !== undefined ? { ids: parseIds(ids) } : { filter: parseFilterObject(filter, statuses) };
  const parsed: BulkAction = action === 'setStatus' ? { kind: 'setStatus', status: status as string } : { kind: action as 'markSpam' | 'markNotSpam' | 'delete' };
  return { selection, action: parsed };
}

interface Target {
  readonly id: number;
  readonly status: string;
  readonly isSpam: boolean;
}

/** Only rows the action changes: a status they do not have yet, a spam flag they do not carry yet. */
function changedBy(trx: Transaction<Database>, form: Form, filter: SubmissionFilter, action: BulkAction) {
  let query = filtered(trx, form.id, filter);
  if (action.kind === 'setStatus') query = query.where('status', '<>', action.status);
  if (action.kind === 'markSpam') query = query.where('is_spam', '=', 0);
  if (action.kind === 'markNotSpam') query = query.where('is_spam', '=', 1);
  return query;
}

function targetQuery(trx: Transaction<Database>, form: Form, filter: SubmissionFilter, action: BulkAction) {
  const query = changedBy(trx, form, filter, action);
  // No ORDER BY: with one, both databases walked the primary key from the first row up to the
  // last one wanted (a filter on dates, or ids late in a big form) instead of reading only the
  // rows named; the order of the changes does not matter, and the caller sorts the few it gets.
  return query.select(['id', 'status', 'is_spam']).limit(BULK_MAX + 1);
}

/** Whether the action changes a row: a status it does not have yet, a spam flag it does not carry yet. */
function changes(action: BulkAction, row: Target): boolean {
  if (action.kind === 'setStatus') return row.status !== action.status;
  if (action.kind === 'markSpam') return !row.isSpam;
  if (action.kind === 'markNotSpam') return row.isSpam;
  return true;
}

async function selectTargets(trx: Transaction<Database>, sealer: ValueSealer, form: Form, request: BulkRequest): Promise<Target[]> {
  const rows: Target[] = [];
  if ('ids' in request.selection) {
    // Listed ids are read by primary key alone, CHUNK at a time, and judged here: with the form
    // and the action's test in the WHERE too, SQLite scanned the form's whole index for each chunk
    // (29 s for 10,000 of 1,000,000 rows instead of 3).
    for (const ids of chunks(request.selection.ids)) {
      const found = await trx.selectFrom('svc_submissions').select(['id', 'form_id', 'status', 'is_spam']).where('id', 'in', ids).execute();
      for (const r of found) {
        const row = { id: Number(r.id), status: r.status, isSpam: Number(r.is_spam) === 1 };
        if (Number(r.form_id) === form.id && changes(request.action, row)) rows.push(row);
      }
    }
  } else if (request.selection.filter.q) {
    // A text search matches sealed values (issue #37 item 1): the rows the other filters leave are
    // opened and matched in id order, until more than BULK_MAX match.
    const query = changedBy(trx, form, request.selection.filter, request.action);
    for (const r of await matchingIds({ db: trx, sealer }, query, request.selection.filter.q, ['status', 'is_spam'], BULK_MAX)) {
      rows.push({ id: Number(r.id), status: String(r.status), isSpam: Number(r.is_spam) === 1 });
    }
  } else {
    for (const r of await targetQuery(trx, form, request.selection.filter, request.action).execute()) rows.push({ id: Number(r.id), status: r.status, isSpam: Number(r.is_spam) === 1 });
  }
  if (rows.length > BULK_MAX) throw new SvcError('BULK_TOO_LARGE', `The filter matches more than ${BULK_MAX} submissions this action would change; narrow it.`);
  return rows.sort((a, b) => a.id - b.id);
}

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_v, i) => items.slice(i * size, (i + 1) * size));
}

interface AuditRow {
  readonly target: number;
  readonly action: 'submission.update' | 'submission.delete';
  readonly detail: Readonly<Record<string, unknown>>;
}

/** One audit entry per submission, many per statement (audit-log.ts appendAudit's columns). */
async function appendAuditRows(trx: Transaction<Database>, key: AdminKey, by: AuditBy, form: Form, rows: readonly AuditRow[], at: string): Promise<void> {
  for (const part of chunks(rows)) {
    await trx
      .insertInto('svc_audit_log')
      .values(part.map((row) => ({ at, actor: by.actor ?? `key:${key.name}`, action: row.action, form_handle: form.handle, target: `submission:${row.target}`, detail: JSON.stringify(row.detail), ip: by.ip })))
      .execute();
  }
}

/** Whether a bulk action changes the spam flag or the status, and to what. */
function changeOf(action: BulkAction): { status?: string; isSpam?: boolean } {
  if (action.kind === 'setStatus') return { status: action.status };
  return { isSpam: action.kind === 'markSpam' };
}

/**
 * Runs a bulk action on one form (write scope). Answers how many submissions it changed; ids of
 * other forms, of submissions already gone or already in the asked state are not counted.
 */
export async function runBulk(services: AdminServices, key: AdminKey, handle: string, request: BulkRequest, by: AuditBy): Promise<{ changed: number }> {
  const form = readableForm(services, key, handle);
  assertCanWrite(key);
  const at = services.now().toISOString();
  if (request.action.kind === 'delete') return { changed: await bulkDelete(services, key, form, request, by, at) };
  const change = changeOf(request.action);
  let queued = 0;
  const changed = await services.db.transaction().execute(async (trx) => {
    const targets = await selectTargets(trx, services.sealer, form, request);
    // issue #35 item 6: the report's counts move with the rows, in their transaction.
    await countStateChange(trx, services.reportCounts, targets.map((t) => t.id), change);
    for (const part of chunks(targets)) {
      const set = change.status !== undefined ? { status: change.status, updated_at: at } : { is_spam: change.isSpam ? 1 : 0, updated_at: at };
      await trx.updateTable('svc_submissions').set(set).where('id', 'in', part.map((t) => t.id)).execute();
    }
    const from = (t: Target) => (change.status !== undefined ? { status: t.status } : { isSpam: t.isSpam });
    await appendAuditRows(trx, key, by, form, targets.map((t) => ({ target: t.id, action: 'submission.update', detail: { from: from(t), to: change, bulk: true } })), at);
    // Not spam after all: the deliveries a clean submission would have had, as the single change does.
    if (request.action.kind === 'markNotSpam') queued = await services.deliveries.queueHeldBackMany(trx, targets.map((t) => t.id));
    return targets.length;
  });
  if (queued > 0) services.deliveries.poke();
  return { changed };
}

/** Deletes through the one deletion path (deliveries with the rows, files after the commit). */
async function bulkDelete(services: AdminServices, key: AdminKey, form: Form, request: BulkRequest, by: AuditBy, at: string): Promise<number> {
  // The targets are read first (outside the deletion's transaction) for the audit entries'
  // file counts; the deletion itself deletes only those ids, so a row added meanwhile is kept.
  const targets = await services.db.transaction().execute((trx) => selectTargets(trx, services.sealer, form, request));
  const ids = targets.map((t) => t.id);
  const files = new Map<number, number>();
  for (const part of chunks(ids)) for (const [id, n] of await countFiles(services.db, part)) files.set(id, n);
  // issue #37 item 2: through the erasure, so the delete reaches backups (the erasure ledger).
  return eraseSubmissions(services, ids, {
    reason: 'delete',
    at: new Date(at),
    within: (trx) => appendAuditRows(trx, key, by, form, ids.map((id) => ({ target: id, action: 'submission.delete', detail: { files: files.get(id) ?? 0, bulk: true } })), at),
  });
}
