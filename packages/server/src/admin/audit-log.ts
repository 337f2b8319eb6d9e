/**
 * The audit log (issue #15): every write a site owner makes, appended with who, what, when and
 * from where, and readable by the owners who may see the form it touched. Nothing updates or
 * deletes an entry. Entries name what changed, not submitted values, except an owner's edit of
 * values (issue #35), whose entry holds the old and new values of the handles it changed, sealed
 * under a data key of its own (issue #37 item 1: `detail.sealed`, the key in `data_key`), opened
 * as the log is read.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import type { AdminKey } from './admin-keys.js';
import type { RowSeal, ValueSealer } from '../privacy/privacy-sealer.js';

export type AuditAction = 'submission.update' | 'submission.edit' | 'submission.note' | 'submission.delete' | 'delivery.resend' | 'export' | 'profile.link' | 'sign-in' | 'privacy.export' | 'privacy.erase';

export interface AuditEntry {
  readonly id: number;
  readonly at: string;
  readonly actor: string;
  readonly action: string;
  readonly form: string | null;
  readonly target: string | null;
  readonly detail: Readonly<Record<string, unknown>>;
  readonly ip: string | null;
}

export interface AuditInput {
  readonly key: AdminKey;
  /** Who, when not the key itself: `user:<name>` for a console user (a console key stays `key:<name>`). */
  readonly actor?: string;
  readonly action: AuditAction;
  readonly form: string | null;
  readonly target: string | null;
  readonly detail?: Readonly<Record<string, unknown>>;
  /** Part of the detail that holds a person's values: stored sealed under `seal`, shown merged into the detail. */
  readonly sealed?: { readonly seal: RowSeal; readonly detail: Readonly<Record<string, unknown>> };
  readonly ip: string | null;
}

/** What an entry's sealed detail is bound to: its target (`submission:<id>`). */
const sealedAad = (target: string | null) => `audit:${target ?? ''}`;

/** The `detail` column of an entry: the plain detail, with the part holding values sealed in as `sealed`. */
export function storedDetail(detail: Readonly<Record<string, unknown>> | undefined, sealed: AuditInput['sealed'], target: string | null): string {
  return JSON.stringify(sealed ? { ...detail, sealed: sealed.seal.sealJson(sealed.detail, sealedAad(target)) } : (detail ?? {}));
}

/** The detail as shown: the sealed part opened and merged in, or `erased: true` when it no longer opens. */
export function shownDetail(row: { detail: string; data_key: string | null; target: string | null }, sealer: Pick<ValueSealer, 'openJson'>): Record<string, unknown> {
  const detail = JSON.parse(row.detail) as Record<string, unknown>;
  if (row.data_key === null || typeof detail['sealed'] !== 'string') return detail;
  const { sealed, ...rest } = detail;
  const opened = sealer.openJson<Record<string, unknown>>(row.data_key, sealed as string, sealedAad(row.target));
  return opened ? { ...rest, ...opened } : { ...rest, erased: true };
}

/**
 * A deleted submission's values leave the log with it (issue #37): the entries of its edits stay
 * (who changed it, when, which revision) but lose the old and new values and their data key, so
 * no copy of them outlives the submission. The one change ever made to an entry.
 */
export async function shredAuditValues(db: Kysely<Database> | Transaction<Database>, submissionIds: readonly number[]): Promise<void> {
  if (submissionIds.length === 0) return;
  const rows = await db
    .selectFrom('svc_audit_log')
    .select(['id', 'detail'])
    .where('target', 'in', submissionIds.map((id) => `submission:${id}`))
    .where('action', '=', 'submission.edit')
    .execute();
  for (const row of rows) {
    const { sealed: _sealed, from: _from, to: _to, ...rest } = JSON.parse(row.detail) as Record<string, unknown>;
    await db.updateTable('svc_audit_log').set({ detail: JSON.stringify({ ...rest, erased: true }), data_key: null }).where('id', '=', row.id).execute();
  }
}

/** Who writes and from where, as a transport knows it; the service adds the key and what changed. */
export interface AuditBy {
  /** `user:<name>` for a console user; omitted, the key's own name is recorded. */
  readonly actor?: string;
  readonly ip: string | null;
}

/** Appends one entry; given a transaction, the entry commits or rolls back with the change it records. */
export async function appendAudit(db: Kysely<Database>, input: AuditInput, at: Date): Promise<void> {
  await db
    .insertInto('svc_audit_log')
    .values({
      at: at.toISOString(),
      actor: input.actor ?? `key:${input.key.name}`,
      action: input.action,
      form_handle: input.form,
      target: input.target,
      detail: storedDetail(input.detail, input.sealed, input.target),
      ip: input.ip,
      data_key: input.sealed?.seal.wrapped ?? null,
    })
    .execute();
}

/**
 * Newest first, `limit` at a time, before the entry id `before` (keyset); only entries of forms
 * the key may read, and entries of no form only for a key that sees every form.
 */
export async function listAudit(
  db: Kysely<Database>,
  key: AdminKey,
  options: { limit: number; before: number | null },
  sealer: Pick<ValueSealer, 'openJson'>,
): Promise<{ items: AuditEntry[]; nextCursor: string | null }> {
  const items: AuditEntry[] = [];
  let before = options.before;
  // Entries of forms the key cannot see are skipped in the page, not counted against it.
  for (let round = 0; items.length < options.limit && round < 20; round++) {
    let query = db.selectFrom('svc_audit_log').selectAll().orderBy('id', 'desc').limit(options.limit * 2);
    if (before !== null) query = query.where('id', '<', before);
    const rows = await query.execute();
    if (rows.length === 0) break;
    for (const row of rows) {
      before = row.id;
      const visible = row.form_handle === null ? key.allForms : key.canRead(row.form_handle);
      if (!visible) continue;
      items.push({ id: row.id, at: row.at, actor: row.actor, action: row.action, form: row.form_handle, target: row.target, detail: shownDetail(row, sealer), ip: row.ip });
      if (items.length === options.limit) break;
    }
    if (rows.length < options.limit * 2) {
      if (items.length < options.limit) before = null;
      break;
    }
  }
  const last = items.at(-1);
  return { items, nextCursor: items.length === options.limit && last && before !== null ? String(last.id) : null };
}
