/**
 * A submission's notes on its console page (issue #35 item 3): who, when and the text, as plain
 * text (escaped; line breaks kept by `.value`'s pre-wrap), and for a writer the form that adds one.
 */
import { escapeHtml } from '../http/html-page.js';
import type { SubmissionNote } from '../admin/admin-notes-repository.js';
import { NOTE_MAX_CHARS } from '../admin/admin-notes-service.js';
import { CONSOLE_BASE, when, type Viewer } from './console-pages.js';

/** A note posted but refused, shown again in the form with the reason. */
export interface NoteDraft {
  readonly text: string;
  readonly error: string;
}

export function renderNotes(submissionId: number, notes: readonly SubmissionNote[], viewer: Viewer, draft: NoteDraft | null = null): string {
  const list = notes.length === 0
    ? '<p class="muted">No notes yet.</p>'
    : `<ol class="notes">${notes.map((n) => `<li id="note-${n.id}"><p class="meta"><strong>${escapeHtml(n.author)}</strong> · ${when(n.createdAt, viewer)}</p><p class="value">${escapeHtml(n.text)}</p></li>`).join('')}</ol>`;
  const error = draft ? `<p class="error" id="note-error" role="alert">${escapeHtml(draft.error)}</p>` : '';
  const form = viewer.canWrite
    ? `<form method="post" action="${CONSOLE_BASE}/submissions/${submissionId}/notes" class="note-form">
<input type="hidden" name="csrf" value="${escapeHtml(viewer.csrf)}">
<label for="note-text">Add a note</label><p class="muted" id="note-help">Plain text, up to ${NOTE_MAX_CHARS.toLocaleString('en')} characters. Only people who can see this form read it.</p>${error}
<textarea id="note-text" name="text" rows="4" maxlength="${NOTE_MAX_CHARS}" required aria-describedby="note-help${draft ? ' note-error' : ''}"${draft ? ' aria-invalid="true"' : ''}>${escapeHtml(draft?.text ?? '')}</textarea>
<button type="submit">Add note</button></form>`
    : '';
  return `<section aria-labelledby="notes-heading" id="notes"><h2 id="notes-heading">Notes</h2>${list}${form}</section>`;
}
