/**
 * The console's submission pages (issue #15): a form's submissions as a table with the columns
 * the owner picks, filters, search, keyset paging and a count; and one submission with every value
 * drawn by its field type, as text (choices by label, files as signed download links, tables as
 * tables, a signature as an image), its status and spam controls and delete. The only script is
 * the export progress (console-export-script.ts); without it the export links are plain downloads.
 */
import type { Field, Form } from '@svc/core';
import { escapeHtml } from '../http/html-page.js';
import type { SubmissionDetail, SubmissionItem } from '../admin/admin-service.js';
import { CONSOLE_BASE, consolePage, scrollRegion, when, type Viewer } from './console-pages.js';
import { renderFiles } from './console-files-pages.js';
import { renderNotes, type NoteDraft } from './console-notes-pages.js';
import { bulkBar, bulkCell, bulkHeadCell } from './console-bulk-pages.js';

function optionLabel(field: Field, value: string): string {
  const options = 'options' in field ? (field.options as readonly { value: string; label: string }[]) : [];
  return options.find((o) => o.value === value)?.label ?? value;
}

/** A stored value as text for a table cell (lists joined, choices by label, files counted). */
export function valueText(field: Field, value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  if (field.type === 'checkbox' || field.type === 'mailingList') return value === true ? 'Yes' : 'No';
  if (field.type === 'file') return `${Array.isArray(value) ? value.length : 1} file(s)`;
  if (field.type === 'signature') return 'Signed';
  if (field.type === 'table') return `${Array.isArray(value) ? value.length : 0} row(s)`;
  if (Array.isArray(value)) return value.map((v) => optionLabel(field, String(v))).join(', ');
  if (field.type === 'select' || field.type === 'radioGroup') return optionLabel(field, String(value));
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function valueHtml(field: Field, value: unknown, detail: SubmissionDetail): string {
  const handle = field.handle as string;
  if (field.type === 'file') {
    // issue #35: images as thumbnails opening the viewer, PDFs shown by the browser, the rest downloads.
    return renderFiles(detail.id, detail.files.filter((f) => f.field === handle));
  }
  if (field.type === 'signature' && typeof value === 'string' && /^data:image\/png;base64,[A-Za-z0-9+/=]+$/.test(value)) {
    return `<img src="${escapeHtml(value)}" alt="Signature of this submission" width="300">`;
  }
  if (field.type === 'table' && Array.isArray(value)) {
    const rows = value.map((row: unknown) => `<tr>${(Array.isArray(row) ? row : []).map((cell: unknown) => `<td>${escapeHtml(Array.isArray(cell) ? `${cell.length} file(s)` : String(cell ?? ''))}</td>`).join('')}</tr>`).join('');
    return `<table>${rows}</table>`;
  }
  const text = valueText(field, value);
  return text === '' ? '<span class="muted">empty</span>' : `<span class="value">${escapeHtml(text)}</span>`;
}

export interface SubmissionsView {
  readonly form: Form;
  readonly items: readonly SubmissionItem[];
  readonly count: number;
  readonly columns: readonly Field[];
  /** The filters as given, for the form and the links. */
  readonly query: Readonly<Record<string, string>>;
  readonly nextCursor: string | null;
  readonly statuses: readonly string[];
  /** The saved-filters bar (console-filters-pages.ts), drawn under the filters. */
  readonly savedFilters?: string;
}

function link(path: string, query: Readonly<Record<string, string>>): string {
  const search = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== '')).toString();
  return `${path}${search ? `?${search}` : ''}`;
}

export function renderSubmissions(view: SubmissionsView, viewer: Viewer): string {
  const { form, query } = view;
  const base = `${CONSOLE_BASE}/forms/${encodeURIComponent(form.handle)}`;
  const selectedColumns = new Set(view.columns.map((c) => c.handle as string));
  const statusOptions = ['', ...view.statuses].map((s) => `<option value="${escapeHtml(s)}"${query['status'] === s ? ' selected' : ''}>${s === '' ? 'any' : escapeHtml(s)}</option>`).join('');
  const spamOptions = [['false', 'not spam'], ['true', 'spam only'], ['all', 'both']].map(([v, l]) => `<option value="${v}"${(query['spam'] ?? 'false') === v ? ' selected' : ''}>${l}</option>`).join('');
  const columnChoices = form.fields
    .filter((f) => f.handle !== null && f.type !== 'submit')
    .map((f) => `<label class="choice"><input type="checkbox" name="columns" value="${escapeHtml(f.handle as string)}"${selectedColumns.has(f.handle as string) ? ' checked' : ''}> ${escapeHtml(f.label)}</label>`)
    .join('');
  const filters = `<form method="get" action="${base}" class="filters">
<div><label for="q">Search</label><input id="q" name="q" value="${escapeHtml(query['q'] ?? '')}"></div>
<div><label for="status">Status</label><select id="status" name="status">${statusOptions}</select></div>
<div><label for="spam">Spam</label><select id="spam" name="spam">${spamOptions}</select></div>
<div><label for="order">Order</label><select id="order" name="order"><option value="desc"${query['order'] === 'asc' ? '' : ' selected'}>newest first</option><option value="asc"${query['order'] === 'asc' ? ' selected' : ''}>oldest first</option></select></div>
<div><label for="from">From</label><input id="from" name="from" type="date" value="${escapeHtml(query['from'] ?? '')}"></div>
<div><label for="to">To</label><input id="to" name="to" type="date" value="${escapeHtml(query['to'] ?? '')}"></div>
<fieldset><legend>Columns</legend>${columnChoices}</fieldset>
<div><button type="submit">Show</button></div></form>`;
  const head = `<tr>${bulkHeadCell()}<th scope="col">Title</th><th scope="col">Status</th><th scope="col">Date</th><th scope="col">Spam</th>${view.columns.map((c) => `<th scope="col">${escapeHtml(c.label)}</th>`).join('')}</tr>`;
  const rows = view.items
    .map((item) => `<tr>${bulkCell(item.id, item.title)}<td><a href="${CONSOLE_BASE}/submissions/${item.id}">${escapeHtml(item.title || `#${item.id}`)}</a></td><td>${escapeHtml(item.status)}</td><td>${when(item.createdAt, viewer)}</td><td>${item.isSpam ? 'spam' : ''}</td>${view.columns.map((c) => `<td>${escapeHtml(valueText(c, item.values[c.handle as string]))}</td>`).join('')}</tr>`)
    .join('');
  const kept = { ...query, columns: '' };
  const next = view.nextCursor ? `<p><a href="${escapeHtml(link(base, { ...kept, cursor: view.nextCursor }))}${view.columns.map((c) => `&amp;columns=${encodeURIComponent(c.handle as string)}`).join('')}">Next page</a></p>` : '';
  const body = `<p><a href="${CONSOLE_BASE}/">All forms</a> · <a href="${base}/reports">Report</a> · <a href="${base}/insights">Insights</a> · <a href="${base}/share">Share</a></p><h1>${escapeHtml(form.name)}</h1>${filters}${view.savedFilters ?? ''}
<p>${view.count} matching submission(s) · Export them: <a href="${escapeHtml(link(`${base}/export`, { ...query, format: 'csv', bom: 'true' }))}" download data-export data-count="${view.count}">CSV (Excel)</a> · <a href="${escapeHtml(link(`${base}/export`, { ...query, format: 'jsonl' }))}" download data-export data-count="${view.count}">JSON Lines</a></p>
<div id="export-progress" class="export" hidden><label for="export-bar">Export progress</label><progress id="export-bar" max="1" value="0"></progress> <span id="export-figures"></span><button type="button" id="export-cancel" hidden>Cancel export</button></div>
<p id="export-status" role="status"></p>
${bulkBar({ handle: form.handle, query, count: view.count, statuses: view.statuses, actions: ['setStatus', 'markSpam', 'markNotSpam', 'delete', 'export'], back: link(base, query) }, viewer)}
${scrollRegion('Submissions', `<table><thead>${head}</thead><tbody>${rows || `<tr><td colspan="${5 + view.columns.length}">None.</td></tr>`}</tbody></table>`)}${next}`;
  return consolePage(`${form.name} · svc console`, body, viewer, 'console-export.js');
}

export function renderSubmission(detail: SubmissionDetail, form: Form, statuses: readonly string[], viewer: Viewer, noteDraft: NoteDraft | null = null): string {
  const values = form.fields
    .filter((f) => f.handle !== null && f.type !== 'submit')
    .map((f) => `<tr><th scope="row">${escapeHtml(f.label)}</th><td>${valueHtml(f, detail.values[f.handle as string], detail)}</td></tr>`)
    .join('');
  const deliveries = detail.deliveries.length === 0
    ? '<p class="muted">No deliveries.</p>'
    : `<table><thead><tr><th scope="col">Kind</th><th scope="col">To</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last error</th><th scope="col"><span class="muted">Action</span></th></tr></thead><tbody>${detail.deliveries
        .map((d) => `<tr><td>${escapeHtml(d.kind)}</td><td>${escapeHtml(d.destination)}</td><td>${escapeHtml(d.status)}</td><td>${d.attempts}</td><td>${escapeHtml(d.lastError ?? '')}</td><td>${viewer.canWrite ? `<form method="post" action="${CONSOLE_BASE}/deliveries/${d.id}/resend"><input type="hidden" name="csrf" value="${escapeHtml(viewer.csrf)}"><input type="hidden" name="back" value="${CONSOLE_BASE}/submissions/${detail.id}"><button type="submit">Resend</button></form>` : ''}</td></tr>`)
        .join('')}</tbody></table>`;
  const controls = viewer.canWrite
    ? `<form method="post" action="${CONSOLE_BASE}/submissions/${detail.id}">
<input type="hidden" name="csrf" value="${escapeHtml(viewer.csrf)}">
<label for="status">Status</label><select id="status" name="status">${statuses.map((s) => `<option value="${escapeHtml(s)}"${s === detail.status ? ' selected' : ''}>${escapeHtml(s)}</option>`).join('')}</select>
<label class="choice"><input type="checkbox" name="isSpam" value="true"${detail.isSpam ? ' checked' : ''}> Spam</label>
<button type="submit">Save</button></form>
<form method="post" action="${CONSOLE_BASE}/submissions/${detail.id}/delete">
<input type="hidden" name="csrf" value="${escapeHtml(viewer.csrf)}">
<label class="choice"><input type="checkbox" name="confirm" value="yes" required> Delete this submission and its files for good</label>
<button type="submit">Delete</button></form>`
    : '';
  const spam = detail.isSpam ? `<p class="error">Flagged as spam: ${escapeHtml(detail.spamReasons.join(', '))}</p>` : '';
  const payment = detail.payment ? `<p>Payment: ${escapeHtml(detail.payment.amountFormatted)} ${escapeHtml(detail.payment.currency.toUpperCase())}, ${escapeHtml(detail.payment.status)}</p>` : '';
  const body = `<p><a href="${CONSOLE_BASE}/forms/${encodeURIComponent(form.handle)}">${escapeHtml(form.name)}</a></p>
<h1>${escapeHtml(detail.title || `Submission #${detail.id}`)}</h1>
<p class="muted">#${detail.id} · ${when(detail.createdAt, viewer)} · ${escapeHtml(detail.status)} · revision ${detail.revision}</p>${spam}${payment}
<table><tbody>${values}</tbody></table>${viewer.canWrite ? `<p><a href="${CONSOLE_BASE}/submissions/${detail.id}/edit">Edit values</a></p>` : ''}
${renderNotes(detail.id, detail.notes, viewer, noteDraft)}
<h2>Deliveries</h2>${deliveries}
${controls}`;
  return consolePage(`Submission #${detail.id} · svc console`, body, viewer);
}
