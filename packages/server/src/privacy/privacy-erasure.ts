/**
 * Erasure (issue #37 items 2, 4, 5): the ONE function every deletion of a submission goes through —
 * a data request, the admin and console deletes (single and bulk) and the retention purges. It
 * deletes the rows (and with them the wrapped data key their values are sealed under: that is the
 * shredding), their outbox jobs and blind-index rows, then their files, through the existing
 * submission deletion (submission-deletion.ts); and it writes each erased submission into the
 * erasure ledger (privacy-ledger.ts) in the same transaction, then into the ledger file, so a
 * backup restored later cannot bring the submission back (privacy-ledger-apply.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import { deleteSubmissions, type DeletionServices } from '../submissions/submission-deletion.js';
import { appendAudit, type AuditBy } from '../admin/audit-log.js';
import type { AdminKey } from '../admin/admin-keys.js';
import type { Subject } from './privacy-blind-index.js';
import type { ReceiptSigner, SignedReceipt, ErasedSubmission } from './privacy-receipts.js';
import type { ErasureLedger, ErasureReason } from './privacy-ledger.js';
import { findSubject } from './privacy-subjects.js';

export interface ErasureServices extends DeletionServices {
  readonly ledger: ErasureLedger;
}

export interface ErasureOptions {
  readonly reason: ErasureReason;
  readonly at: Date;
  /** The signed receipt's id, for a data request. */
  readonly receipt?: string;
  /** Runs in the rows' transaction (the audit rows of a delete commit with it). */
  readonly within?: (trx: Transaction<Database>) => Promise<void>;
}

/** Erases `ids` (ledger rows, rows, jobs, index rows, then files and the ledger file); answers how many rows went. */
export async function eraseSubmissions(services: ErasureServices, ids: readonly number[], options: ErasureOptions): Promise<number> {
  if (ids.length === 0) return 0;
  // Read before the delete, outside its transaction: a row deleted meanwhile by someone else
  // leaves an entry for a submission already gone, which is harmless; the delete takes only ids.
  const entries = await services.ledger.describe(services.db, ids, options.reason, options.at, options.receipt ?? null);
  const deleted = await deleteSubmissions(services, ids, async (trx) => {
    await services.ledger.record(trx, entries);
    await options.within?.(trx);
  });
  await services.ledger.mirror(entries);
  return deleted;
}

export interface SubjectErasureServices extends ErasureServices {
  readonly signer: ReceiptSigner;
  readonly now: () => Date;
}

/**
 * Erases every submission of `subject` the key may read and answers the signed receipt. The audit
 * entries (one per form touched, or one of no form when nothing was found) commit with the delete.
 */
export async function eraseSubject(services: SubjectErasureServices, key: AdminKey, subject: Subject, by: AuditBy): Promise<SignedReceipt> {
  const found = await findSubject(services.db, key, subject);
  const ids = found.map((s) => s.id);
  const files = new Map<number, number>();
  for (const file of await services.uploads.listForSubmissions(ids)) {
    if (file.submissionId !== null) files.set(file.submissionId, (files.get(file.submissionId) ?? 0) + 1);
  }
  const erased: ErasedSubmission[] = found.map((s) => ({ submission: s.id, form: s.form, files: files.get(s.id) ?? 0 }));
  const at = services.now();
  const receipt = { id: randomUUID(), subject: { kind: subject.kind, hash: subject.hash }, erased, at: at.toISOString(), by: by.actor ?? `key:${key.name}` };
  const audit = async (trx: Transaction<Database>) => {
    const forms = [...new Set(erased.map((e) => e.form))];
    const target = `subject:${subject.kind}:${subject.hash}`;
    if (forms.length === 0) await appendAudit(trx, { key, ...by, action: 'privacy.erase', form: null, target, detail: { receipt: receipt.id, submissions: [] } }, at);
    for (const form of forms) {
      const mine = erased.filter((e) => e.form === form);
      await appendAudit(trx, { key, ...by, action: 'privacy.erase', form, target, detail: { receipt: receipt.id, submissions: mine.map((e) => e.submission), files: mine.reduce((n, e) => n + e.files, 0) } }, at);
    }
  };
  if (ids.length === 0) await services.db.transaction().execute(audit);
  else await eraseSubmissions(services, ids, { reason: 'erase', at, receipt: receipt.id, within: audit });
  return services.signer.sign(receipt);
}
