/**
 * The console's lists across forms (issue #15): dead-lettered deliveries with resend, and the
 * audit log. Server-drawn, text only.
 */
import { escapeHtml } from '../http/html-page.js';
import type { DeadDelivery } from '../admin/admin-service.js';
import type { AuditEntry } from '../admin/audit-log.js';
import { CONSOLE_BASE, consolePage, scrollRegion, when, type Viewer } from './console-pages.js';

export function renderDeadLetters(rows: readonly DeadDelivery[], viewer: Viewer): string {
  const resend = (row: DeadDelivery) =>
    viewer.canWrite
      ? `<form method="post" action="${CONSOLE_BASE}/deliveries/${row.id}/resend"><input type="hidden" name="csrf" value="${escapeHtml(viewer.csrf)}"><button type="submit">Resend</button></form>`
      : '';
  const body = rows.length === 0
    ? '<h1>Dead letters</h1><p>No delivery has failed for good.</p>'
    : `<h1>Dead letters</h1>${scrollRegion('Dead letters', `<table><thead><tr><th scope="col">Form</th><th scope="col">Submission</th><th scope="col">Kind</th><th scope="col">To</th><th scope="col">Attempts</th><th scope="col">Last error</th><th scope="col">Since</th><th scope="col"><span class="muted">Action</span></th></tr></thead><tbody>${rows
        .map((row) => `<tr><td>${escapeHtml(row.form)}</td><td>${row.submissionId === null ? '—' : `<a href="${CONSOLE_BASE}/submissions/${row.submissionId}">#${row.submissionId}</a>`}</td><td>${escapeHtml(row.kind)}</td><td>${escapeHtml(row.destination)}</td><td>${row.attempts}</td><td>${escapeHtml(row.lastError ?? '')}</td><td>${when(row.deadAt, viewer)}</td><td>${resend(row)}</td></tr>`)
        .join('')}</tbody></table>`)}`;
  return consolePage('Dead letters · svc console', body, viewer);
}

export function renderAudit(entries: readonly AuditEntry[], nextCursor: string | null, viewer: Viewer): string {
  const rows = entries
    .map((e) => `<tr><td>${when(e.at, viewer)}</td><td>${escapeHtml(e.actor)}</td><td>${escapeHtml(e.action)}</td><td>${escapeHtml(e.form ?? '')}</td><td>${escapeHtml(e.target ?? '')}</td><td>${escapeHtml(JSON.stringify(e.detail))}</td><td>${escapeHtml(e.ip ?? '')}</td></tr>`)
    .join('');
  const next = nextCursor ? `<p><a href="${CONSOLE_BASE}/audit?before=${encodeURIComponent(nextCursor)}">Older entries</a></p>` : '';
  const body = `<h1>Audit log</h1>${scrollRegion('Audit log', `<table><thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Form</th><th scope="col">Target</th><th scope="col">Detail</th><th scope="col">From</th></tr></thead><tbody>${rows || '<tr><td colspan="7">Nothing yet.</td></tr>'}</tbody></table>`)}${next}`;
  return consolePage('Audit log · svc console', body, viewer);
}
