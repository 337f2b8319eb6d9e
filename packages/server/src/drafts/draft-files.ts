/**
 * The files of a loaded draft, for the answer that loaded it (issue #31 item 12b). A draft's values
 * hold only upload ids, so a client resuming it in another browser (the resume link) could list
 * them only as "Uploaded file"; the answer's `state.files` names them as their uploads did
 * (`{id, name, extension, size}`), by field handle.
 */
import type { Form, SubmitStateFile } from '@svc/core';
import type { UploadService } from '../files/upload-service.js';
import { fileSlots } from '../submissions/submit-files.js';

export type DraftFiles = Readonly<Record<string, readonly SubmitStateFile[]>>;

/**
 * The uploads named both by the draft as stored and by the answer's values, still unattached,
 * by field handle (a table's file cells under the table's handle). Ids only the request posted
 * are left out: their names are not the draft holder's to learn. Empty when there are none.
 *
 * @example
 * await draftFiles(uploads, form, draft.values, body.state.values);
 * // { portfolio: [{ id: '0193…', name: 'photo.png', extension: 'png', size: 2048 }] }
 */
export async function draftFiles(
  uploads: Pick<UploadService, 'unattached'>,
  form: Form,
  draftValues: Readonly<Record<string, unknown>>,
  answerValues: Readonly<Record<string, unknown>>,
): Promise<DraftFiles> {
  const held = new Set(fileSlots(form, draftValues).flatMap((slot) => slot.ids));
  const slots = fileSlots(form, answerValues).map((slot) => ({ ...slot, ids: slot.ids.filter((id) => held.has(id)) }));
  const ids = [...new Set(slots.flatMap((slot) => slot.ids))];
  if (ids.length === 0) return {};
  const rows = await uploads.unattached(form, ids);
  // Handles are user data ("__proto__"): collected in a Map, written out as entries.
  const files = new Map<string, SubmitStateFile[]>();
  for (const slot of slots) {
    for (const id of slot.ids) {
      const row = rows.get(id);
      if (!row || row.fieldHandle !== slot.handle) continue;
      const list = files.get(slot.handle) ?? [];
      if (!list.some((file) => file.id === id)) list.push({ id, name: row.name, extension: row.extension, size: row.size });
      files.set(slot.handle, list);
    }
  }
  return Object.fromEntries(files);
}
