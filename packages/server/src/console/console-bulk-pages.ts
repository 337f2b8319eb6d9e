/**
 * What the console draws for bulk actions (issue #35 item 1): a checkbox per list row, the bulk bar
 * (what to do, the new status, the selected rows or everything the filter matches, Apply) and the
 * confirmation page the server draws before anything changes. The row checkboxes sit in the table
 * and join the bar's form through their `form` attribute, so the page needs no script; the one
 * script (console-bulk.js) only adds "select every row on this page".
 * The console's body parser keeps one value per name, so each checkbox is named `id.<n>`.
 */
import { escapeHtml } from '../http/html-page.js';
import { BULK_MAX } from '../admin/admin-bulk-writes.js';
import { CONSOLE_BASE, consolePage, type Viewer } from './console-pages.js';

export const BULK_FORM_ID = 'bulk-form';
/** The list filters a bulk action over "all matching" carries along. */
export const BULK_FILTERS = ['status', 'spam', 'from', 'to', 'q'] as const;

export type ConsoleBulkAction = 'setStatus' | 'markSpam' | 'markNotSpam' | 'delete' | 'export';

const ACTION_LABELS: Readonly<Record<ConsoleBulkAction, string>> = {
  setStatus: 'Change status',
  markSpam: 'Mark as spam',
  markNotSpam: 'Mark as not spam',
  delete: 'Delete with files',
  export: 'Export as CSV',
};

/** The first cell of a list row: a labelled checkbox that belongs to the bulk bar's form. */
export function bulkCell(id: number, title: string): string {
  return `<td class="pick"><input type="checkbox" form="${BULK_FORM_ID}" name="id.${id}" value="${id}" id="pick-${id}" aria-label="Select ${escapeHtml(title || `#${id}`)}"></td>`;
}

/** The header cell above the checkboxes (console-bulk.js puts a select-all box in it). */
export function bulkHeadCell(): string {
  return '<th scope="col" class="pick"><span class="sr-only">Select</span></th>';
}

export interface BulkBarOptions {
  readonly handle: string;
  /** The list's filters as shown, carried to the confirmation for "all matching". */
  readonly query: Readonly<Record<string, string>>;
  readonly count: number;
  readonly statuses: readonly string[];
  readonly actions: readonly ConsoleBulkAction[];
  /** Where to go back to after the action (the list or the spam folder). */
  readonly back: string;
}

/** The bar above the list: the action, the status for "Change status", which rows, Apply. */
export function bulkBar(options: BulkBarOptions, viewer: Viewer): string {
  const actions = viewer.canWrite ? options.actions : options.actions.filter((a) => a === 'export');
  if (actions.length === 0) return '';
  const hidden = BULK_FILTERS.filter((name) => options.query[name] !== undefined && options.query[name] !== '')
    .map((name) => `<input type="hidden" name="filter.${name}" value="${escapeHtml(options.query[name] ?? '')}">`)
    .join('');
  const statusChoice = actions.includes('setStatus')
    ? `<div><label for="bulk-status">New status</label><select id="bulk-status" name="status">${options.statuses.map((s) => `<option value="${escapeHtml(s)}">${escapeHtml(s)}</option>`).join('')}</select></div>`
    : '';
  return `<form id="${BULK_FORM_ID}" class="bulk" method="post" action="${CONSOLE_BASE}/forms/${encodeURIComponent(options.handle)}/bulk" aria-label="Bulk actions">
<input type="hidden" name="csrf" value="${escapeHtml(viewer.csrf)}"><input type="hidden" name="back" value="${escapeHtml(options.back)}">${hidden}
<div><label for="bulk-action">With the chosen submissions</label><select id="bulk-action" name="action">${actions.map((a) => `<option value="${a}">${ACTION_LABELS[a]}</option>`).join('')}</select></div>
${statusChoice}
<fieldset><legend>Which</legend><label class="choice"><input type="radio" name="scope" value="selected" checked> the rows ticked below</label><label class="choice"><input type="radio" name="scope" value="all"> all ${options.count} matching this filter</label></fieldset>
<div><button type="submit">Apply…</button></div></form><script src="${CONSOLE_BASE}/console-bulk.js" defer></script>`;
}

export interface BulkConfirmView {
  readonly handle: string;
  readonly formName: string;
  readonly action: Exclude<ConsoleBulkAction, 'export'>;
  readonly status: string | null;
  /** The ids ticked, or null for everything the filter matches. */
  readonly ids: readonly number[] | null;
  readonly filter: Readonly<Record<string, string>>;
  /** How many the selection holds now (the ids ticked, or the filter's count). */
  readonly count: number;
  readonly back: string;
}

function sentence(view: BulkConfirmView): string {
  const what = view.ids === null ? `all ${view.count} submission(s) of ${view.formName} matching this filter` : `${view.count} selected submission(s) of ${view.formName}`;
  if (view.action === 'setStatus') return `Change the status of ${what} to “${view.status ?? ''}”?`;
  if (view.action === 'markSpam') return `Mark ${what} as spam?`;
  if (view.action === 'markNotSpam') return `Mark ${what} as not spam? Their held-back notifications will be sent.`;
  return `Delete ${what}, with their files, for good?`;
}

/** The page between Apply and the change: what will happen to how many, Confirm or go back. */
export function renderBulkConfirm(view: BulkConfirmView, viewer: Viewer): string {
  const base = `${CONSOLE_BASE}/forms/${encodeURIComponent(view.handle)}`;
  const tooMany = view.count > BULK_MAX;
  const fields = [
    ['csrf', viewer.csrf],
    ['action', view.action],
    ['back', view.back],
    ['scope', view.ids === null ? 'all' : 'selected'],
    ...(view.status !== null ? [['status', view.status]] : []),
    ...(view.ids ?? []).map((id) => [`id.${id}`, String(id)]),
    ...Object.entries(view.filter).map(([name, value]) => [`filter.${name}`, value]),
  ];
  const hidden = fields.map(([name, value]) => `<input type="hidden" name="${escapeHtml(name ?? '')}" value="${escapeHtml(value ?? '')}">`).join('');
  const body = tooMany
    ? `<p class="error" role="alert">This filter matches ${view.count} submissions; one bulk action changes at most ${BULK_MAX}. Narrow the filter (a date range, a status) and try again.</p>`
    : view.count === 0
      ? '<p role="alert">Nothing is selected: tick rows in the list, or choose “all matching this filter”.</p>'
      : `<form method="post" action="${base}/bulk/apply">${hidden}<p class="actions"><button type="submit" class="${view.action === 'delete' ? 'danger' : ''}">Confirm</button></p></form>`;
  const page = `<p><a href="${escapeHtml(view.back)}">Back to the list</a></p><section class="confirm" aria-labelledby="confirm-title"><h1 id="confirm-title">Confirm the bulk action</h1><p>${escapeHtml(sentence(view))}</p>${body}</section>`;
  return consolePage(`Confirm · ${view.formName} · svc console`, page, viewer);
}
