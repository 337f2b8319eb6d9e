/**
 * Erasure (issue #37 item 4): the ONE function every erasure goes through. Today it deletes the
 * submissions' rows, their outbox jobs and blind-index rows (foreign key) and, after the commit,
 * their files, through the existing submission deletion (submission-deletion.ts). When values are
 * sealed under per-submission data keys (issue #37 items 1, 2, 5), this is also where the wrapped
 * data key is destroyed first (crypto-shredding), so retention and the admin delete must come
 * through here too then.
 */
import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import { deleteSubmissions, type DeletionServices } from '../submissions/submission-deletion.js';
import { appendAudit, type AuditBy } from '../admin/audit-log.js';
import type { AdminKey } from '../admin/admin-keys.js';
import type { Subject } from './privacy-blind-index.js';
import type { ReceiptSigner, SignedReceipt, ErasedSubmission } from './privacy-receipts.js';
import { findSubject } from './privacy-subjects.js';

/** Erases `ids` (rows, jobs, index rows, then files); `within` runs in the rows' transaction. */
export async function eraseSubmissions(services: DeletionServices, ids: readonly number[], within?: (trx: Transaction<Database>) => Promise<void>): Promise<number> {
  return deleteSubmissions(services, ids, within);
}

export interface SubjectErasureServices extends DeletionServices {
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
  else await eraseSubmissions(services, ids, audit);
  return services.signer.sign(receipt);
}
