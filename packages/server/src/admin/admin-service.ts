/**
 * What the admin API reads, without HTTP (DESIGN.md principle 2): list forms with counts, page
 * through submissions, read one; the writes are in admin-writes.ts. The REST routes, the console
 * and the CLI call these.
 * Access: a form the key may not read is FORM_NOT_FOUND, a submission of one SUBMISSION_NOT_FOUND.
 */
import { listDead } from '../notifications/outbox-repository.js';
import type { SubmissionClient, SubmissionProfile } from '../submissions/submission-repository.js';
import { SvcError, type Form, type Values } from '@svc/core';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import type { FormRegistry } from '../forms/form-registry.js';
import type { UploadService } from '../files/upload-service.js';
import { paymentRecords, type PaymentRecord } from '../payments/payment-records.js';
import { countMatching, searchSubmissionsPage, decodeCursor, encodeCursor, type SubmissionRecord } from '../submissions/submission-search.js';
import { activityByForm, countByForm, countFiles, findWithFormHandle, type FormCounts } from '../submissions/submission-admin-repository.js';
import type { ListQuery } from './admin-query.js';
import type { AdminKey } from './admin-keys.js';
import type { DownloadLinks } from './download-links.js';
import type { DeliveryService } from '../notifications/delivery-service.js';
import type { ReportCounts } from '../submissions/report-counts.js';
import type { DeliveryRecord } from '../notifications/delivery-model.js';
import type { ValueSealer } from '../privacy/privacy-sealer.js';
import type { OpenPool } from '../privacy/privacy-open-pool.js';
import { notesFor, type SubmissionNote } from './admin-notes-repository.js';
import type { ErasureLedger } from '../privacy/privacy-ledger.js';
import type { BlindIndex } from '../privacy/privacy-blind-index.js';

export interface AdminServices {
  readonly db: Kysely<Database>;
  readonly forms: FormRegistry;
  readonly uploads: UploadService;
  readonly statuses: readonly string[];
  readonly links: DownloadLinks;
  readonly deliveries: DeliveryService;
  /** Opens (and an edit re-seals) the values and titles sealed at rest (issue #37 item 1). */
  readonly sealer: ValueSealer;
  /** Opens pages of rows on a worker thread (exports, lists: issue #37 item 6). */
  readonly opening?: Pick<OpenPool, 'open'>;
  /** Keeps the report's counts on every status, spam, edit and delete (issue #35 item 6). */
  readonly reportCounts: ReportCounts;
  readonly now: () => Date;
  /** Every delete writes the erasure ledger (issue #37 item 2: privacy/privacy-ledger.ts). */
  readonly ledger: ErasureLedger;
  /** The privacy room's blind index, rewritten when an owner edits the values (issue #37 item 3). */
  readonly blindIndex: BlindIndex;
}

export interface AdminFormSummary {
  readonly id: number;
  readonly uid: string;
  readonly handle: string;
  readonly name: string;
  readonly submissions: FormCounts;
}

export interface SubmissionItem {
  readonly id: number;
  readonly uid: string;
  readonly title: string;
  readonly status: string;
  readonly isSpam: boolean;
  readonly spamReasons: readonly string[];
  readonly createdAt: string;
  readonly values: Values;
  readonly fileCount: number;
  /** What the client said of itself: `{name, version, sourceUrl}` (contract §1), or null. */
  readonly client: SubmissionClient | null;
  /** The handle of the site it was made on (issue #34); null before sites existed. */
  readonly site: string | null;
}

export interface SubmissionFile {
  readonly id: string;
  readonly name: string;
  readonly kind: string;
  readonly size: number;
  readonly extension: string;
  readonly field: string;
  readonly downloadUrl: string;
}

export interface SubmissionDetail extends Omit<SubmissionItem, 'fileCount'> {
  readonly form: { readonly id: number; readonly handle: string };
  readonly updatedAt: string;
  readonly files: readonly SubmissionFile[];
  /** Every delivery job of the submission with its log of attempts. */
  readonly deliveries: readonly DeliveryRecord[];
  /** The payment that made this submission (issue #12), or null. */
  readonly payment: PaymentRecord | null;
  /** The profile it came through, its properties and the authenticated subject (issue #13), or null. */
  readonly profile: SubmissionProfile | null;
  /** How many times an owner has edited its values (issue #35); 0 as submitted. */
  readonly revision: number;
  /** Owners' notes on it, oldest first (issue #35). */
  readonly notes: readonly SubmissionNote[];
}

export function readableForm(services: Pick<AdminServices, 'forms'>, key: AdminKey, handle: string): Form {
  const form = key.canRead(handle) ? services.forms.get(handle) : undefined;
  if (!form) throw new SvcError('FORM_NOT_FOUND', `Form "${handle.slice(0, 100)}" not found.`);
  return form;
}

export async function listForms(services: AdminServices, key: AdminKey): Promise<AdminFormSummary[]> {
  const forms = services.forms.list().filter((f) => key.canRead(f.handle));
  const counts = await countByForm(services.db, forms.map((f) => f.id));
  return forms.map((form) => {
    const found = counts.get(form.id) ?? { total: 0, spam: 0, byStatus: {} };
    // Every configured status is listed, with 0 where there are none, so clients need no defaults.
    const byStatus = Object.fromEntries(services.statuses.map((s) => [s, found.byStatus[s] ?? 0]));
    return { id: form.id, uid: form.uid, handle: form.handle, name: form.name, submissions: { ...found, byStatus: { ...found.byStatus, ...byStatus } } };
  });
}

export interface FormActivity {
  readonly handle: string;
  readonly last: string | null;
  /** Clean and spam submissions per UTC day, oldest first, `days` of them ending today. */
  readonly days: readonly { readonly day: string; readonly clean: number; readonly spam: number }[];
}

/** A dead-lettered delivery as the owners see it (issue #15). */
export interface DeadDelivery {
  readonly id: number;
  readonly form: string;
  readonly submissionId: number | null;
  readonly kind: string;
  readonly destination: string;
  readonly attempts: number;
  readonly lastError: string | null;
  readonly deadAt: string;
}

/** The dead-letter list across the forms the key may read, newest first. */
export async function listDeadDeliveries(services: AdminServices, key: AdminKey, limit = 100): Promise<DeadDelivery[]> {
  const forms = services.forms.list().filter((f) => key.canRead(f.handle));
  const handles = new Map(forms.map((f) => [f.id, f.handle]));
  const rows = await listDead(services.db, forms.map((f) => f.id), limit, services.sealer);
  return rows.map(({ formId, ...row }) => ({ ...row, form: handles.get(formId) ?? '' }));
}

/** How many submissions of a form the key may read match `filter` (the console's count). */
export async function countSubmissions(services: AdminServices, key: AdminKey, handle: string, filter: ListQuery['filter']): Promise<number> {
  return countMatching(services, readableForm(services, key, handle).id, filter);
}

/** The forms a key may read with their newest submission and a per-day count (the console's overview). */
export async function formActivity(services: AdminServices, key: AdminKey, days = 30): Promise<FormActivity[]> {
  const forms = services.forms.list().filter((f) => key.canRead(f.handle));
  const today = Date.parse(services.now().toISOString().slice(0, 10));
  const labels = Array.from({ length: days }, (_v, i) => new Date(today - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10));
  const activity = await activityByForm(services.db, forms.map((f) => f.id), `${labels[0]}T00:00:00.000Z`);
  return forms.map((form) => {
    const found = activity.get(form.id);
    return { handle: form.handle, last: found?.last ?? null, days: labels.map((day) => ({ day, ...(found?.days.get(day) ?? { clean: 0, spam: 0 }) })) };
  });
}

function item(record: SubmissionRecord, fileCount: number): SubmissionItem {
  const { id, uid, title, status, isSpam, spamReasons, createdAt, values, client, site } = record;
  return { id, uid, title, status, isSpam, spamReasons, createdAt, values, fileCount, client, site };
}

export async function listSubmissions(
  services: AdminServices,
  key: AdminKey,
  handle: string,
  query: ListQuery,
): Promise<{ items: SubmissionItem[]; nextCursor: string | null }> {
  const form = readableForm(services, key, handle);
  const after = query.cursor === null ? null : decodeCursor(query.cursor, query.sort);
  if (query.cursor !== null && after === null) throw new SvcError('PAYLOAD_INVALID', '"cursor" is not valid for this sort.');
  // One row more than asked says whether there is a next page without a count.
  // A text search opens rows to match them (values are sealed, issue #37): a page that stopped at
  // the scan cap may hold fewer items than asked, with a cursor where the scan stopped.
  const { rows, stoppedAt } = await searchSubmissionsPage(services, form.id, query.filter, query.sort, query.limit + 1, after);
  const page = rows.slice(0, query.limit);
  const files = await countFiles(services.db, page.map((r) => r.id));
  const last = page[page.length - 1];
  return {
    items: page.map((r) => item(r, files.get(r.id) ?? 0)),
    nextCursor:
      rows.length > query.limit && last ? encodeCursor(query.sort, { createdAt: last.createdAt, id: last.id }) : stoppedAt ? encodeCursor(query.sort, stoppedAt) : null,
  };
}

function parseId(raw: string): number {
  const id = /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw new SvcError('SUBMISSION_NOT_FOUND');
  return id;
}

/** A submission of a form the key may read, with its form's handle; else SUBMISSION_NOT_FOUND. */
export async function readableSubmission(services: AdminServices, key: AdminKey, rawId: string) {
  const found = await findWithFormHandle(services, parseId(rawId));
  if (!found || !key.canRead(found.formHandle)) throw new SvcError('SUBMISSION_NOT_FOUND');
  return found;
}

export async function getSubmission(services: AdminServices, key: AdminKey, rawId: string, baseUrl: string): Promise<SubmissionDetail> {
  const { submission, formHandle, revision } = await readableSubmission(services, key, rawId);
  const files = await services.uploads.listForSubmissions([submission.id]);
  const { id, uid, title, status, isSpam, spamReasons, createdAt, updatedAt, values, client, profile, site } = submission;
  return {
    client,
    profile,
    site,
    id,
    uid,
    form: { id: submission.formId, handle: formHandle },
    title,
    status,
    isSpam,
    spamReasons,
    createdAt,
    updatedAt,
    values,
    files: files.map((f) => ({
      id: f.publicId,
      name: f.name,
      kind: f.kind,
      size: f.size,
      extension: f.extension,
      field: f.fieldHandle,
      downloadUrl: `${baseUrl}${services.links.create(f.publicId)}`,
    })),
    deliveries: await services.deliveries.list(submission.id),
    payment: (await paymentRecords(services.db, [submission.id])).get(submission.id) ?? null,
    revision,
    notes: (await notesFor(services.db, [submission.id])).get(submission.id) ?? [],
  };
}
