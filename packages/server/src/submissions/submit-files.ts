/**
 * The file steps of the submit pipeline (contract §7). Upload ids a client posts must be its
 * own: uploaded in this very multipart request, or by drag and drop under the request's
 * `context.uploadToken`, or, when the request names no upload token (the official client never
 * does), by drag and drop from the same browser (its binding cookie). Ids carried forward in a state token or a draft were checked when they
 * were posted, so they only need to still exist. Nothing here trusts an id for more than that.
 */
import type { Form } from '@svc/core';
import type { UploadService } from '../files/upload-service.js';
import { sha256 } from '../security/token-crypto.js';
import type { SubmitRequest } from './submit-request.js';

/** What a multipart submit received before the pipeline ran. */
export interface ReceivedUploads {
  /** Ids stored from this request's file parts. */
  readonly ids: ReadonlySet<string>;
  /** Files refused while streaming (size, kind, count), by field handle. */
  readonly errors: Readonly<Record<string, readonly string[]>>;
  /** The values as posted, before received ids were added, and what was received: the idempotency fingerprint. */
  readonly fingerprint: unknown;
}

interface FileSlot {
  readonly handle: string;
  readonly column: number | null;
  readonly ids: readonly string[];
}

/** The upload ids a field or cell value holds: one id alone, or a list. */
export function idList(raw: unknown): string[] {
  if (typeof raw === 'string') return raw === '' ? [] : [raw];
  return Array.isArray(raw) ? raw.filter((id): id is string => typeof id === 'string') : [];
}

function rowsOf(raw: unknown): unknown[] {
  if (Array.isArray(raw)) return raw;
  return raw !== null && typeof raw === 'object' ? Object.values(raw) : [];
}

/** Every upload id in `values` (raw or stored), with the field (and table column) it sits in. */
export function fileSlots(form: Form, values: Readonly<Record<string, unknown>>, handles?: ReadonlySet<string>): FileSlot[] {
  const slots: FileSlot[] = [];
  for (const field of form.fields) {
    const handle = field.handle as string;
    if (handles && !handles.has(handle)) continue;
    if (!Object.hasOwn(values, handle)) continue;
    if (field.type === 'file') {
      slots.push({ handle, column: null, ids: idList(values[handle]) });
    } else if (field.type === 'table') {
      const fileColumns = field.columns.flatMap((c, i) => (c.type === 'file' ? [i] : []));
      if (fileColumns.length === 0) continue;
      for (const row of rowsOf(values[handle])) {
        const cells = rowsOf(row);
        for (const column of fileColumns) slots.push({ handle, column, ids: idList(cells[column]) });
      }
    }
  }
  return slots.filter((slot) => slot.ids.length > 0);
}

export function allIds(slots: readonly FileSlot[]): string[] {
  return [...new Set(slots.flatMap((slot) => slot.ids))];
}

function addError(errors: Record<string, string[]>, handle: string, message: string): void {
  const list = (errors[handle] ??= []);
  if (!list.includes(message)) list.push(message);
}

/**
 * Field errors for the files of this step: refusals from the multipart stream, posted ids that
 * are not the client's, and ids (posted or carried) whose upload is gone or belongs elsewhere.
 */
export async function checkUploads(
  uploads: UploadService,
  form: Form,
  request: SubmitRequest,
  raw: Readonly<Record<string, unknown>>,
  readHandles: ReadonlySet<string>,
  received: ReceivedUploads | undefined,
  carried: Readonly<Record<string, unknown>>,
  browserHash: string | null,
): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  for (const [handle, messages] of Object.entries(received?.errors ?? {})) for (const m of messages) addError(errors, handle, m);
  const slots = fileSlots(form, raw);
  if (slots.length === 0) return errors;
  const rows = await uploads.unattached(form, allIds(slots));
  const posted = new Set(allIds(fileSlots(form, request.values, readHandles)));
  const token = request.context.uploadToken;
  const owner = token ? { ownerHash: sha256(token.toLowerCase()) } : browserHash ? { bindingHash: browserHash } : null;
  const ownedByClient = owner && posted.size > 0 ? new Set((await uploads.unattached(form, [...posted], owner)).keys()) : new Set<string>();
  // Ids the state token or draft already carries were checked when first posted; a client that
  // posts them again (after `back`, or on a resumed page) is not claiming anything new.
  const vetted = new Set(allIds(fileSlots(form, carried)));
  for (const slot of slots) {
    for (const id of slot.ids) {
      const row = rows.get(id);
      if (!row || row.fieldHandle !== slot.handle || row.columnIndex !== slot.column) {
        addError(errors, slot.handle, 'An uploaded file is no longer available; please upload it again');
      } else if (posted.has(id) && !received?.ids.has(id) && !ownedByClient.has(id) && !vetted.has(id)) {
        // contract §7: ids of another upload token (or, without one, another browser) are a field error.
        addError(errors, slot.handle, token ? 'An uploaded file does not belong to this upload token' : 'An uploaded file was not uploaded from this browser; please upload it again');
      }
    }
  }
  return errors;
}
