/**
 * What site owners change (issue #15), for the admin API and the console alike: status and spam,
 * deletes, resends; and the two writes that change no submission, exports and console sign-ins.
 * Each change and its audit row are written in one transaction, so a crash leaves neither a change
 * without its entry nor an entry for a change that rolled back. Anything that acts outside the
 * database (waking the delivery worker, removing files) happens after the commit.
 */
import type { Readable } from 'node:stream';
import { SvcError, type Form } from '@svc/core';
import { updateSubmissionState } from '../submissions/submission-admin-repository.js';
import { countStateChange } from '../submissions/report-counts.js';
import { eraseSubmissions } from '../privacy/privacy-erasure.js';
import { requeueDelivery } from '../notifications/outbox-repository.js';
import { exportStream } from '../exports/export-stream.js';
import type { ExportQuery } from './admin-query.js';
import { assertCanWrite, type AdminKey } from './admin-keys.js';
import { readableForm, readableSubmission, type AdminServices } from './admin-service.js';
import { appendAudit, type AuditBy } from './audit-log.js';

export interface SubmissionChange {
  readonly status?: string;
  readonly isSpam?: boolean;
}

/** Parses a PATCH body: `status` (a configured handle) and/or `isSpam`, nothing else. */
export function parseChange(body: unknown, statuses: readonly string[]): SubmissionChange {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new SvcError('PAYLOAD_INVALID', 'The body must be a JSON object.');
  const { status, isSpam, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length > 0) throw new SvcError('PAYLOAD_INVALID', `Unknown key(s): ${Object.keys(rest).map((k) => k.slice(0, 40)).join(', ')}.`);
  if (status === undefined && isSpam === undefined) throw new SvcError('PAYLOAD_INVALID', 'Send status and/or isSpam.');
  if (status !== undefined && (typeof status !== 'string' || !statuses.includes(status))) {
    throw new SvcError('PAYLOAD_INVALID', `"status" must be one of ${statuses.join(', ')}.`);
  }
  if (isSpam !== undefined && typeof isSpam !== 'boolean') throw new SvcError('PAYLOAD_INVALID', '"isSpam" must be true or false.');
  return { ...(status !== undefined ? { status } : {}), ...(isSpam !== undefined ? { isSpam } : {}) };
}

/**
 * Applies a change with its audit row; a submission taken out of spam gets, in the same commit,
 * the deliveries a clean one would have had.
 */
export async function updateSubmission(
  services: AdminServices,
  key: AdminKey,
  rawId: string,
  change: SubmissionChange,
  by: AuditBy,
): Promise<{ id: number; formId: number; before: SubmissionChange; queued: number }> {
  const { submission, formHandle } = await readableSubmission(services, key, rawId);
  assertCanWrite(key);
  const before = { ...(change.status !== undefined ? { status: submission.status } : {}), ...(change.isSpam !== undefined ? { isSpam: submission.isSpam } : {}) };
  const markedNotSpam = submission.isSpam && change.isSpam === false;
  const at = services.now();
  const queued = await services.db.transaction().execute(async (trx) => {
    // issue #35 item 6: the report's counts move with the row, in its transaction.
    await countStateChange(trx, services.reportCounts, [submission.id], change);
    await updateSubmissionState(trx, submission.id, change, at.toISOString());
    const jobs = markedNotSpam ? await services.deliveries.queueHeldBack(trx, submission.id) : 0;
    await appendAudit(trx, { key, ...by, action: 'submission.update', form: formHandle, target: `submission:${submission.id}`, detail: { from: before, to: change } }, at);
    return jobs;
  });
  if (queued > 0) services.deliveries.poke();
  return { id: submission.id, formId: submission.formId, before, queued };
}

/** Deletes a submission, its delivery jobs and (after the commit) its files, with its audit row. */
export async function deleteSubmission(services: AdminServices, key: AdminKey, rawId: string, by: AuditBy): Promise<{ id: number; formId: number; formHandle: string; files: number }> {
  const { submission, formHandle } = await readableSubmission(services, key, rawId);
  assertCanWrite(key);
  const files = (await services.uploads.listForSubmissions([submission.id])).length;
  const at = services.now();
  // issue #37 item 2: through the erasure, so the delete reaches backups (the erasure ledger).
  await eraseSubmissions(services, [submission.id], {
    reason: 'delete',
    at,
    within: (trx) => appendAudit(trx, { key, ...by, action: 'submission.delete', form: formHandle, target: `submission:${submission.id}`, detail: { files } }, at),
  });
  return { id: submission.id, formId: submission.formId, formHandle, files };
}

/** Queues a delivery again (write scope); a delivery of a form the key cannot see is not found. */
export async function resendDelivery(services: AdminServices, key: AdminKey, rawId: string, by: AuditBy): Promise<{ id: number; formId: number; formHandle: string }> {
  assertCanWrite(key);
  const id = /^[1-9]\d{0,14}$/.test(rawId) ? Number(rawId) : NaN;
  const row = Number.isSafeInteger(id)
    ? await services.db.selectFrom('svc_deliveries').select(['id', 'form_id']).where('id', '=', id).executeTakeFirst()
    : undefined;
  const form = row && services.forms.list().find((f) => f.id === row.form_id);
  if (!row || !form || !key.canRead(form.handle)) throw new SvcError('DELIVERY_NOT_FOUND');
  const at = services.now();
  const queued = await services.db.transaction().execute(async (trx) => {
    if (!(await requeueDelivery(trx, id, at.toISOString()))) return false;
    await appendAudit(trx, { key, ...by, action: 'delivery.resend', form: form.handle, target: `delivery:${id}` }, at);
    return true;
  });
  if (!queued) throw new SvcError('DELIVERY_NOT_FOUND');
  services.deliveries.poke();
  return { id, formId: form.id, formHandle: form.handle };
}

/**
 * An export changes nothing but takes data away, so it is recorded: its entry is committed before
 * the first byte leaves (an entry for an export cut short is the safe side of the two).
 */
export async function startExport(services: AdminServices, key: AdminKey, handle: string, query: ExportQuery, by: AuditBy): Promise<{ form: Form; stream: Readable; filename: string }> {
  const form = readableForm(services, key, handle);
  await appendAudit(services.db, { key, ...by, action: 'export', form: form.handle, target: null, detail: { format: query.format, filter: query.filter } }, services.now());
  const day = services.now().toISOString().slice(0, 10);
  return { form, stream: exportStream(services, form, query), filename: `${form.handle}-${day}.${query.format}` };
}

/** A console sign-in: the entry is the only thing written (the session lives in a signed cookie). */
export async function recordSignIn(services: AdminServices, key: AdminKey, by: AuditBy): Promise<void> {
  await appendAudit(services.db, { key, ...by, action: 'sign-in', form: null, target: 'console' }, services.now());
}
