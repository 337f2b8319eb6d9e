/**
 * An owner corrects a stored submission (issue #35 item 2): `PATCH …/submissions/{id}` with
 * `{"values": {...}}` and the console's Edit page both come here. Only the handles given change;
 * each is normalised and validated by the form's own rules with the engine the submit pipeline
 * uses (`@svc/core` validateValues and computeVisibility), against the submission's other values.
 *
 * Conditional rules, as a submit applies them (contract §4: hidden values are neither validated
 * nor stored):
 * - a value given for a field that is hidden under the merged values is refused (422), never
 *   silently dropped, so the caller learns its change did not take;
 * - a field the edit hides loses its value, as a submit would not have stored it (the audit entry
 *   keeps the old value), and a field the edit reveals is validated too (a required one must be given).
 * Files, payments and signatures are what the person sent or paid, so they are not editable.
 */
import { FIELD_MESSAGES, SvcError, computeVisibility, validateValues, type Field, type FieldValue, type Form, type Values, type Visibility } from '@svc/core';
import { renderSubmissionTitle } from '../submissions/submission-title.js';
import { sealSubmission } from '../submissions/submission-persist.js';
import { editTally, writeReportTally } from '../submissions/report-counts.js';
import { assertCanWrite, type AdminKey } from './admin-keys.js';
import { readableSubmission, type AdminServices } from './admin-service.js';
import { appendAudit, type AuditBy } from './audit-log.js';

/** What the person gave or paid for, not the owner's to rewrite. */
export const NOT_EDITABLE_TYPES: ReadonlySet<string> = new Set(['file', 'payment', 'signature', 'submit']);

/** Field errors as the submit answers them: `{fields: {handle: [message]}, form: []}`. */
export interface FieldErrors {
  readonly fields: Readonly<Record<string, readonly string[]>>;
  readonly form: readonly string[];
}

export const HIDDEN_MESSAGE = "This field is hidden by the form's rules for these values, so it cannot be set.";

/** The fields an owner may edit, in form order. */
export function editableFields(form: Form): Field[] {
  return form.fields.filter((f) => f.handle !== null && !NOT_EDITABLE_TYPES.has(f.type));
}

/** Checks a `values` object's shape and handles; values themselves are judged by validateEdit. */
export function parseValuesChange(form: Form, raw: unknown): Readonly<Record<string, unknown>> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new SvcError('PAYLOAD_INVALID', '"values" must be an object of field handles.');
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length === 0) throw new SvcError('PAYLOAD_INVALID', '"values" names no field.');
  const byHandle = new Map(form.fields.filter((f) => f.handle !== null).map((f) => [f.handle as string, f]));
  const unknown = entries.filter(([handle]) => !byHandle.has(handle)).map(([handle]) => handle.slice(0, 40));
  if (unknown.length > 0) throw new SvcError('PAYLOAD_INVALID', `Not a field of this form: ${unknown.join(', ')}.`);
  const fixed = entries.filter(([handle]) => NOT_EDITABLE_TYPES.has(byHandle.get(handle)?.type ?? '')).map(([handle]) => handle);
  if (fixed.length > 0) throw new SvcError('FIELD_NOT_EDITABLE', `Files, payments and signatures stay as they were sent: ${fixed.join(', ')} cannot be changed.`, { details: { fields: Object.fromEntries(fixed.map((h) => [h, ['This field cannot be changed after submission.']])), form: [] } });
  return Object.fromEntries(entries);
}

const shown = (field: Field, visibility: Visibility) => !visibility.hiddenPages.has(field.pageIndex) && !visibility.hiddenFields.has(field.handle as string);

/**
 * The values to store after the edit, or the field errors that refuse it. Pure: the same rules
 * and messages as a submit, so the console, the API and the browser cannot disagree.
 */
export function validateEdit(form: Form, stored: Values, given: Readonly<Record<string, unknown>>): { values: Values } | { errors: FieldErrors } {
  const handles = new Set(Object.keys(given));
  const before = computeVisibility(form, stored);
  // First pass: the given values normalised, to learn what the rules show for the merged values.
  const givenFields = form.fields.filter((f) => handles.has(f.handle as string));
  const first = validateValues(givenFields, given, stored, FIELD_MESSAGES);
  const merged: Values = { ...stored, ...first.values };
  const after = computeVisibility(form, merged);
  const revealed = form.fields.filter((f) => f.handle !== null && !NOT_EDITABLE_TYPES.has(f.type) && !handles.has(f.handle) && !shown(f, before) && shown(f, after));
  const checked = validateValues([...givenFields.filter((f) => shown(f, after)), ...revealed], { ...stored, ...given }, merged, FIELD_MESSAGES);
  const errors: Record<string, string[]> = { ...checked.errors } as Record<string, string[]>;
  for (const field of givenFields) if (!shown(field, after)) errors[field.handle as string] = [HIDDEN_MESSAGE];
  if (Object.keys(errors).length > 0) return { errors: { fields: errors, form: [] } };
  const values: Record<string, FieldValue> = {};
  for (const [handle, value] of Object.entries(merged)) {
    const field = form.fields.find((f) => f.handle === handle);
    // Keys of no current field (an older version of the form) stay; hidden fields' values go.
    if (!field || shown(field, after)) values[handle] = value;
  }
  return { values };
}

/** The handles whose stored value differs, with the value before and after (absent = null). */
function changes(before: Values, after: Values): { from: Record<string, FieldValue>; to: Record<string, FieldValue> } {
  const from: Record<string, FieldValue> = {};
  const to: Record<string, FieldValue> = {};
  for (const handle of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const old = before[handle] ?? null;
    const now = after[handle] ?? null;
    if (JSON.stringify(old) === JSON.stringify(now)) continue;
    from[handle] = old;
    to[handle] = now;
  }
  return { from, to };
}

export interface EditResult {
  readonly id: number;
  readonly revision: number;
  /** Handles whose value changed; empty when the edit changed nothing (then nothing is written). */
  readonly changed: readonly string[];
}

/**
 * Applies an edit with its audit entry (old and new values) and the revision count in one
 * transaction. The row is written only if nobody else edited it since it was read (its revision),
 * so two owners saving at once cannot lose one's change; the loser reads again and is re-judged.
 */
export async function editSubmissionValues(services: AdminServices, key: AdminKey, rawId: string, rawValues: unknown, by: AuditBy): Promise<EditResult> {
  assertCanWrite(key);
  for (let attempt = 0; ; attempt++) {
    const { submission, formHandle, revision, dataKey } = await readableSubmission(services, key, rawId);
    const form = services.forms.get(formHandle);
    if (!form) throw new SvcError('SUBMISSION_NOT_FOUND');
    const given = parseValuesChange(form, rawValues);
    const outcome = validateEdit(form, submission.values, given);
    if ('errors' in outcome) throw new SvcError('VALUES_INVALID', undefined, { details: outcome.errors });
    const diff = changes(submission.values, outcome.values);
    const changed = Object.keys(diff.to);
    if (changed.length === 0) return { id: submission.id, revision, changed };
    const at = services.now();
    const title = renderSubmissionTitle(form.settings.submissionTitleFormat, { values: outcome.values, formName: form.name, dateCreated: new Date(submission.createdAt) });
    // Re-sealed under the row's own data key (issue #37 item 1), so an erasure that destroys it
    // still shreds every copy; a legacy plaintext row is sealed under a new key by its first edit.
    // A key that no longer unwraps (destroyed, or its KEK removed) leaves nothing to edit.
    const seal = services.sealer.forRow(dataKey);
    if (!seal) throw new SvcError('SUBMISSION_NOT_FOUND');
    const sealed = sealSubmission(seal, submission.uid, outcome.values, title);
    const written = await services.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('svc_submissions')
        .set({ values: sealed.values, title: sealed.title, data_key: sealed.dataKey, revision: revision + 1, updated_at: at.toISOString() })
        .where('id', '=', submission.id)
        .where('revision', '=', revision)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      // issue #37 item 3: the blind index follows the values, so the person an edited address or
      // identifier now names is found, and the one it named before is not.
      await trx.deleteFrom('svc_privacy_index').where('submission_id', '=', submission.id).execute();
      await services.blindIndex.write(trx, submission.id, form.id, services.blindIndex.entries(form, outcome.values));
      // issue #35 item 6: the report's answers move from the old values to the new. The row as it is
      // now (the UPDATE holds it on PostgreSQL): its spam flag may have changed since it was read.
      const state = await trx.selectFrom('svc_submissions').select(['status', 'is_spam', 'created_at']).where('id', '=', submission.id).executeTakeFirstOrThrow();
      await writeReportTally(trx, editTally(form, { formId: form.id, createdAt: state.created_at, status: state.status, isSpam: Number(state.is_spam) === 1 }, submission.values, outcome.values));
      // The old and new values are a person's data: sealed in the entry (issue #37 item 1).
      const audit = { seal: services.sealer.forNew(), detail: { from: diff.from, to: diff.to } };
      await appendAudit(trx, { key, ...by, action: 'submission.edit', form: formHandle, target: `submission:${submission.id}`, detail: { revision: revision + 1 }, sealed: audit }, at);
      return true;
    });
    if (written) return { id: submission.id, revision: revision + 1, changed };
    if (attempt >= 4) throw new SvcError('SERVICE_UNAVAILABLE', 'The submission is being changed by someone else; please try again.', { headers: { 'Retry-After': '1' } });
  }
}
