/**
 * Who a privacy request is about and where their submissions are (issue #37 item 3): a body
 * `{email}` or `{identifier}` becomes a Subject (kind and keyed hash; the value itself goes no
 * further), and the blind index answers every submission of that subject across the forms the
 * principal may read. Values travel in bodies, never in query strings, which land in access logs.
 */
import { SvcError, type PersonalKind } from '@svc/core';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import type { AdminKey } from '../admin/admin-keys.js';
import type { BlindIndex, Subject } from './privacy-blind-index.js';

/** The longest value looked up: longer than any email address or identifier a form takes. */
const MAX_VALUE = 1000;

export interface SubjectSubmission {
  readonly id: number;
  readonly uid: string;
  readonly form: string;
  readonly createdAt: string;
}

export interface SubjectRequest {
  readonly subject: Subject;
  /** Only `erase` takes it: `confirm: true`. */
  readonly confirm: boolean;
}

/**
 * `{email}` or `{identifier}` (exactly one, a non-empty string), plus `confirm` where `allowConfirm`.
 * Error messages never repeat the value.
 */
export function parseSubjectRequest(body: unknown, index: BlindIndex, allowConfirm = false): SubjectRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new SvcError('PAYLOAD_INVALID', 'The body must be a JSON object with "email" or "identifier".');
  const entries = body as Record<string, unknown>;
  const allowed = allowConfirm ? ['email', 'identifier', 'confirm'] : ['email', 'identifier'];
  const unknown = Object.keys(entries).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) throw new SvcError('PAYLOAD_INVALID', `Unknown key(s): ${unknown.map((k) => k.slice(0, 40)).join(', ')}.`);
  const kinds = (['email', 'identifier'] as const).filter((k) => entries[k] !== undefined);
  if (kinds.length !== 1) throw new SvcError('PAYLOAD_INVALID', 'Send exactly one of "email" and "identifier".');
  const kind = kinds[0] as PersonalKind;
  const value = entries[kind];
  if (typeof value !== 'string' || value.length > MAX_VALUE) throw new SvcError('PAYLOAD_INVALID', `"${kind}" must be a string of at most ${MAX_VALUE} characters.`);
  const subject = index.subject(kind, value);
  if (!subject) throw new SvcError('PAYLOAD_INVALID', `"${kind}" must not be empty.`);
  const confirm = entries['confirm'];
  if (confirm !== undefined && typeof confirm !== 'boolean') throw new SvcError('PAYLOAD_INVALID', '"confirm" must be true or false.');
  return { subject, confirm: confirm === true };
}

/** The privacy scope: finding, exporting and erasing a person's data are not plain reads (issue #37). */
export function assertCanPrivacy(key: AdminKey, erase = false): void {
  if (!key.canPrivacy) throw new SvcError('ADMIN_FORBIDDEN', 'This key lacks the privacy scope.');
  if (erase && !key.canWrite) throw new SvcError('ADMIN_FORBIDDEN', 'Erasing needs the write scope too.');
}

/** Every submission of `subject` in the forms `key` may read, oldest first. */
export async function findSubject(db: Kysely<Database>, key: AdminKey, subject: Subject): Promise<SubjectSubmission[]> {
  const rows = await db
    .selectFrom('svc_privacy_index as i')
    .innerJoin('svc_submissions as s', 's.id', 'i.submission_id')
    .innerJoin('svc_forms as f', 'f.id', 's.form_id')
    .select(['s.id', 's.uid', 's.created_at', 'f.handle'])
    .where('i.hash', '=', subject.hash)
    .where('i.kind', '=', subject.kind)
    .orderBy('s.id')
    .execute();
  return rows.filter((r) => key.canRead(r.handle)).map((r) => ({ id: Number(r.id), uid: r.uid, form: r.handle, createdAt: r.created_at }));
}
