/**
 * Notes on a submission (issue #35 item 3): who, when, text. Plain text, not Markdown: a note is
 * read where it was written (the console escapes it and keeps its line breaks) and in exports and
 * scripts, where Markdown would be noise and a renderer one more thing to keep safe. A note is
 * written with its audit entry in one transaction; it goes with its submission (foreign key on
 * delete cascade), whether the owner, a bulk action or the retention purge deletes it.
 */
import { SvcError } from '@svc/core';
import { notesFor, type SubmissionNote } from './admin-notes-repository.js';
import { assertCanWrite, type AdminKey } from './admin-keys.js';
import { readableSubmission, type AdminServices } from './admin-service.js';
import { appendAudit, type AuditBy } from './audit-log.js';

export type { SubmissionNote };

/** Characters (code points) a note may hold: a long paragraph or two, not a document store. */
export const NOTE_MAX_CHARS = 5_000;

/** A note's text: line breaks kept (CRLF made LF), surrounding blank space trimmed, not empty, capped. */
export function parseNoteText(raw: unknown): string {
  if (typeof raw !== 'string') throw new SvcError('PAYLOAD_INVALID', '"text" must be a string.');
  const text = raw.replace(/\r\n?/g, '\n').trim();
  if (text === '') throw new SvcError('PAYLOAD_INVALID', 'A note needs some text.');
  // Control characters other than tab and line feed say nothing to a reader and can hide text.
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(text)) throw new SvcError('PAYLOAD_INVALID', 'A note may not hold control characters.');
  const length = Array.from(text).length;
  if (length > NOTE_MAX_CHARS) throw new SvcError('NOTE_TOO_LONG', `A note holds at most ${NOTE_MAX_CHARS} characters; this one has ${length}.`);
  return text;
}

/** The notes of a submission the key may read, oldest first. */
export async function listNotes(services: AdminServices, key: AdminKey, rawId: string): Promise<SubmissionNote[]> {
  const { submission } = await readableSubmission(services, key, rawId);
  return (await notesFor(services.db, [submission.id])).get(submission.id) ?? [];
}

/** Adds a note (write scope) with its audit entry, which names the note but does not copy its text. */
export async function addNote(services: AdminServices, key: AdminKey, rawId: string, rawText: unknown, by: AuditBy): Promise<SubmissionNote> {
  const { submission, formHandle } = await readableSubmission(services, key, rawId);
  assertCanWrite(key);
  const text = parseNoteText(rawText);
  const author = by.actor ?? `key:${key.name}`;
  const at = services.now();
  const id = await services.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('svc_submission_notes')
      .values({ submission_id: submission.id, author, created_at: at.toISOString(), text })
      .returning('id')
      .executeTakeFirstOrThrow();
    await appendAudit(trx, { key, ...by, action: 'submission.note', form: formHandle, target: `submission:${submission.id}`, detail: { note: Number(row.id), characters: Array.from(text).length } }, at);
    return Number(row.id);
  });
  return { id, author, createdAt: at.toISOString(), text };
}
