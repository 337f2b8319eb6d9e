/**
 * The spam folder's pages (issue #35 item 4), per form and across forms: how long spam is kept
 * (retention.spamPurgeAfterDays), spam per day by reason as a small SVG chart with the same
 * figures in a table for screen readers, and the spam itself with the reasons the pipeline
 * recorded, a one-click "Not spam" per row and, on a form's folder, the bulk bar.
 */
import type { Form } from '@svc/core';
import { escapeHtml } from '../http/html-page.js';
import type { SubmissionItem } from '../admin/admin-service.js';
import { CONSOLE_BASE, consolePage, when, type Viewer } from './console-pages.js';
import { bulkBar, bulkCell, bulkHeadCell } from './console-bulk-pages.js';
import type { SpamDay } from './console-spam-counts.js';

/** What each recorded reason means, for people. */
const REASON_TEXT: Readonly<Record<string, string>> = {
  honeypot: 'honeypot filled in',
  javascript_test: 'JavaScript test failed',
  fill_time: 'filled in too fast',
  blocked_keyword: 'blocked keyword',
  blocked_email: 'blocked email address',
  blocked_ip: 'blocked IP address',
};
const reasonText = (reason: string) => REASON_TEXT[reason] ?? reason;
/** Reason colours, in order; a colour-blind reader has the table and the legend's words. */
const COLOURS = ['#d1242f', '#9a6700', '#8250df', '#0969da', '#1a7f37', '#57606a', '#bf3989'];

export interface SpamFolderView {
  /** The form, or null for the folder across forms. */
  readonly form: Form | null;
  readonly items: readonly (SubmissionItem & { readonly formHandle: string })[];
  readonly count: number;
  readonly days: readonly SpamDay[];
  readonly reasons: readonly string[];
  readonly retentionDays: number | null;
  /** Across forms: each form the viewer may read with its spam count. */
  readonly forms: readonly { readonly handle: string; readonly name: string; readonly spam: number }[];
  readonly statuses: readonly string[];
  readonly nextCursor: string | null;
}

function chart(days: readonly SpamDay[], reasons: readonly string[]): string {
  const max = Math.max(1, ...days.map((d) => Object.values(d.reasons).reduce((a, b) => a + b, 0)));
  const bars = days
    .map((d, i) => {
      let y = 100;
      return reasons
        .map((reason, r) => {
          const h = ((d.reasons[reason] ?? 0) / max) * 96;
          y -= h;
          return h > 0 ? `<rect x="${i * 10 + 1}" y="${y.toFixed(1)}" width="8" height="${h.toFixed(1)}" fill="${COLOURS[r % COLOURS.length]}"></rect>` : '';
        })
        .join('');
    })
    .join('');
  const total = days.reduce((sum, d) => sum + d.total, 0);
  const legend = reasons.map((reason, r) => `<li><svg width="12" height="12" aria-hidden="true"><rect width="12" height="12" fill="${COLOURS[r % COLOURS.length]}"></rect></svg> ${escapeHtml(reasonText(reason))}</li>`).join('');
  return `<svg class="spam-chart" viewBox="0 0 ${days.length * 10} 100" preserveAspectRatio="none" role="img" aria-label="${total} spam submissions in the last ${days.length} days, by reason; the table below has the figures">${bars}</svg><ul class="legend">${legend}</ul>`;
}

function table(days: readonly SpamDay[], reasons: readonly string[]): string {
  const shown = days.filter((d) => d.total > 0);
  if (shown.length === 0) return `<p class="muted">No spam in the last ${days.length} days.</p>`;
  const head = `<tr><th scope="col">Day (UTC)</th>${reasons.map((r) => `<th scope="col">${escapeHtml(reasonText(r))}</th>`).join('')}<th scope="col">Spam</th></tr>`;
  const rows = shown.map((d) => `<tr><th scope="row">${d.day}</th>${reasons.map((r) => `<td>${d.reasons[r] ?? 0}</td>`).join('')}<td>${d.total}</td></tr>`).join('');
  return `<div class="scroll" tabindex="0" role="region" aria-label="Spam by reason per day"><table><caption>Spam by reason per day (a submission with two reasons counts under both)</caption><thead>${head}</thead><tbody>${rows}</tbody></table></div>`;
}

function notSpamButton(item: SubmissionItem, back: string, viewer: Viewer): string {
  if (!viewer.canWrite) return '';
  return `<form method="post" action="${CONSOLE_BASE}/spam/${item.id}/not-spam" class="inline"><input type="hidden" name="csrf" value="${escapeHtml(viewer.csrf)}"><input type="hidden" name="back" value="${escapeHtml(back)}"><button type="submit" aria-label="Not spam: ${escapeHtml(item.title || `#${item.id}`)}">Not spam</button></form>`;
}

export function renderSpamFolder(view: SpamFolderView, viewer: Viewer): string {
  const { form } = view;
  const back = form ? `${CONSOLE_BASE}/forms/${encodeURIComponent(form.handle)}/spam` : `${CONSOLE_BASE}/spam`;
  const retention = view.retentionDays === null
    ? '<p>Spam is kept until someone deletes it (<code>retention.spamPurgeAfterDays</code> is off).</p>'
    : `<p>Spam is deleted with its files ${view.retentionDays} day(s) after it arrives, whatever the form says (<code>retention.spamPurgeAfterDays: ${view.retentionDays}</code>).</p>`;
  const pick = form !== null;
  const head = `<tr>${pick ? bulkHeadCell() : ''}<th scope="col">Title</th>${pick ? '' : '<th scope="col">Form</th>'}<th scope="col">Date</th><th scope="col">Reasons</th><th scope="col" class="action"><span class="sr-only">Action</span></th></tr>`;
  const rows = view.items
    .map((item) => `<tr>${pick ? bulkCell(item.id, item.title) : ''}<td><a href="${CONSOLE_BASE}/submissions/${item.id}">${escapeHtml(item.title || `#${item.id}`)}</a></td>${pick ? '' : `<td>${escapeHtml(item.formHandle)}</td>`}<td>${when(item.createdAt, viewer)}</td><td>${escapeHtml(item.spamReasons.map(reasonText).join(', ') || 'none recorded')}</td><td>${notSpamButton(item, back, viewer)}</td></tr>`)
    .join('');
  const list = `<div class="scroll" tabindex="0" role="region" aria-label="Spam submissions"><table><thead>${head}</thead><tbody>${rows || `<tr><td colspan="${pick ? 5 : 5}">No spam.</td></tr>`}</tbody></table></div>`;
  const bar = form ? bulkBar({ handle: form.handle, query: { spam: 'true' }, count: view.count, statuses: view.statuses, actions: ['delete', 'markNotSpam'], back }, viewer) : '';
  const forms = form
    ? ''
    : `<h2>By form</h2><div class="scroll" tabindex="0" role="region" aria-label="Spam by form"><table><thead><tr><th scope="col">Form</th><th scope="col">Spam</th></tr></thead><tbody>${view.forms.map((f) => `<tr><th scope="row"><a href="${CONSOLE_BASE}/forms/${encodeURIComponent(f.handle)}/spam">${escapeHtml(f.name)}</a></th><td>${f.spam}</td></tr>`).join('')}</tbody></table></div>`;
  const next = view.nextCursor && form ? `<p><a href="${back}?cursor=${encodeURIComponent(view.nextCursor)}">Older spam</a></p>` : '';
  const title = form ? `Spam · ${form.name}` : 'Spam · all forms';
  const crumbs = form ? `<p><a href="${CONSOLE_BASE}/forms/${encodeURIComponent(form.handle)}">${escapeHtml(form.name)}</a> · <a href="${CONSOLE_BASE}/spam">Spam of all forms</a></p>` : `<p><a href="${CONSOLE_BASE}/">All forms</a></p>`;
  const body = `${crumbs}<h1>${escapeHtml(title)}</h1>${retention}
<h2>Last ${view.days.length} days by reason</h2>${chart(view.days, view.reasons)}${table(view.days, view.reasons)}${forms}
<h2>${view.count} spam submission(s)${form ? '' : ', newest first'}</h2>${bar}${list}${next}`;
  return consolePage(`${title} · svc console`, body, viewer);
}
