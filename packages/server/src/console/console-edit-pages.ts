/**
 * The console's Edit page for one submission (issue #35 item 2), drawn on the server: every
 * editable field as the demo's classic pages draw it (native, labelled controls; the same markup
 * and names a classic post carries, so the post is read by the classic entry reader), with the
 * stored value and, after a refused save, the posted value and its errors per field plus a summary
 * linking to each. Files, payments and signatures are shown as not editable.
 */
import type { Field, Form } from '@svc/core';
import { escapeHtml } from '../http/html-page.js';
import type { SubmissionDetail } from '../admin/admin-service.js';
import { NOT_EDITABLE_TYPES } from '../admin/admin-edit-values.js';
import { buildManifestField } from '../forms/manifest-fields.js';
import { renderClassicField } from '../demo/demo-classic-fields.js';
import { CONSOLE_BASE, consolePage, type Viewer } from './console-pages.js';

export interface EditView {
  readonly detail: SubmissionDetail;
  readonly form: Form;
  /** Values to show: the stored ones, or what was posted when a save was refused. */
  readonly values: Readonly<Record<string, unknown>>;
  readonly errors: Readonly<Record<string, readonly string[]>>;
}

const inputFields = (form: Form) => form.fields.filter((f) => f.handle !== null && f.type !== 'submit' && f.type !== 'hidden');

function fixedField(field: Field): string {
  const why = field.type === 'file' ? 'the uploaded files stay as they were sent' : field.type === 'payment' ? 'a payment stays as it was made' : 'a signature stays as it was drawn';
  return `<div class="field fixed"><p><strong>${escapeHtml(field.label)}</strong>: ${why} and cannot be edited.</p></div>`;
}

/** The id of the control a summary link moves focus to (the group's first control for choices). */
function controlId(field: Field): string {
  const grouped = ['radioGroup', 'checkboxGroup', 'dynamicRecipients', 'rating'].includes(field.type);
  return grouped ? `f-${field.handle}-0` : `f-${field.handle}`;
}

export function renderEdit(view: EditView, viewer: Viewer): string {
  const { detail, form, values, errors } = view;
  const back = `${CONSOLE_BASE}/submissions/${detail.id}`;
  const fields = inputFields(form)
    .map((field) => {
      if (NOT_EDITABLE_TYPES.has(field.type)) return fixedField(field);
      const handle = field.handle as string;
      return renderClassicField(buildManifestField(form, field, 0), values[handle], errors[handle] ?? [], false);
    })
    .join('\n');
  const failed = inputFields(form).filter((f) => (errors[f.handle as string] ?? []).length > 0);
  const summary = failed.length === 0
    ? ''
    : `<div class="summary" role="alert" aria-labelledby="summary-heading"><h2 id="summary-heading">Nothing was saved: ${failed.length} field(s) to correct</h2><ul>${failed
        .map((f) => `<li><a href="#${escapeHtml(controlId(f))}">${escapeHtml(f.label)}: ${escapeHtml((errors[f.handle as string] ?? []).join(' '))}</a></li>`)
        .join('')}</ul></div>`;
  const body = `<p><a href="${back}">Back to ${escapeHtml(detail.title || `submission #${detail.id}`)}</a></p>
<h1>Edit ${escapeHtml(detail.title || `submission #${detail.id}`)}</h1>
<p class="muted">#${detail.id} · ${escapeHtml(form.name)} · revision ${detail.revision}. Values are checked by the form's own rules; a field its rules hide cannot be filled in. The old and new values go into the audit log.</p>
${summary}
<form method="post" action="${back}/edit" class="edit" novalidate>
<input type="hidden" name="csrf" value="${escapeHtml(viewer.csrf)}">
${fields}
<div class="actions"><button type="submit">Save changes</button><a href="${back}">Cancel</a></div>
</form>`;
  return consolePage(`Edit submission #${detail.id} · svc console`, body, viewer);
}
