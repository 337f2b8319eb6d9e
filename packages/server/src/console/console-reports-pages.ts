/**
 * The console's report page (issue #35 item 6): submissions over time, by status and spam, and
 * each choice, rating and opinion-scale field's answers, each as an inline SVG chart (shapes and
 * classes only: the CSP allows no inline style) with a table of the same figures under it for
 * screen readers and for copying. The SVGs scale to the page's width (CSS), so a phone sees them whole.
 */
import { escapeHtml } from '../http/html-page.js';
import type { FormReport } from '../admin/admin-reports-service.js';
import { CONSOLE_BASE, consolePage, scrollRegion, type Viewer } from './console-pages.js';
import { formatInZone } from './console-time.js';

/** Columns over time: clean at the bottom, spam stacked on top; every bar's figures in its title. */
function seriesChart(report: FormReport): string {
  const width = 720;
  const height = 160;
  const n = Math.max(1, report.series.length);
  const step = width / n;
  const max = Math.max(1, ...report.series.map((s) => s.clean + s.spam));
  const bars = report.series
    .map((s, i) => {
      const clean = Math.round((s.clean / max) * (height - 20));
      const spam = Math.round((s.spam / max) * (height - 20));
      const x = (i * step).toFixed(1);
      const w = Math.max(1, step - 2).toFixed(1);
      return `<g><title>${escapeHtml(`${s.bucket}: ${s.clean} submissions, ${s.spam} spam`)}</title><rect class="day" x="${x}" y="${height - clean}" width="${w}" height="${clean}"></rect><rect class="spam" x="${x}" y="${height - clean - spam}" width="${w}" height="${spam}"></rect></g>`;
    })
    .join('');
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(`Submissions per ${report.interval}, spam in red: ${report.total} and ${report.spam} spam in all`)}">${bars}</svg>`;
}

/** Horizontal bars scaled to the largest; label left, count right. */
function barChart(title: string, bars: readonly { label: string; value: number }[]): string {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const rows = bars
    .map((bar, i) => {
      const y = i * 22;
      const w = Math.round((bar.value / max) * 420);
      return `<g><title>${escapeHtml(`${bar.label}: ${bar.value}`)}</title><text x="0" y="${y + 12}">${escapeHtml(bar.label.slice(0, 24))}</text><rect class="day" x="170" y="${y}" width="${w}" height="16"></rect><text x="${176 + w}" y="${y + 12}">${bar.value}</text></g>`;
    })
    .join('');
  const height = Math.max(22, bars.length * 22);
  return `<svg class="chart" viewBox="0 0 660 ${height}" role="img" aria-label="${escapeHtml(title)}">${rows}</svg>`;
}

function table(caption: string, head: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const body = rows.length === 0 ? `<tr><td colspan="${head.length}">Nothing in this period.</td></tr>` : rows.map((r) => `<tr>${r.map((c, i) => (i === 0 ? `<th scope="row">${escapeHtml(String(c))}</th>` : `<td>${escapeHtml(String(c))}</td>`)).join('')}</tr>`).join('');
  return scrollRegion(caption, `<table class="report-table"><caption>${escapeHtml(caption)}</caption><thead><tr>${head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${body}</tbody></table>`);
}

const percent = (count: number, total: number) => (total === 0 ? '—' : `${Math.round((count / total) * 1000) / 10}%`);

export interface ReportsPageOptions {
  readonly handle: string;
  readonly name: string;
  readonly report: FormReport;
  /** The query as given, for the form. */
  readonly query: Readonly<Record<string, string>>;
}

export function renderReports(options: ReportsPageOptions, viewer: Viewer): string {
  const { report, handle, query } = options;
  const base = `${CONSOLE_BASE}/forms/${encodeURIComponent(handle)}`;
  const intervals = (['day', 'week', 'month'] as const).map((i) => `<option value="${i}"${report.interval === i ? ' selected' : ''}>${i}</option>`).join('');
  const filters = `<form method="get" action="${base}/reports" class="filters">
<div><label for="report-from">From</label><input id="report-from" type="date" name="from" value="${escapeHtml(query['from'] ?? '')}"></div>
<div><label for="report-to">To</label><input id="report-to" type="date" name="to" value="${escapeHtml(query['to'] ?? '')}"></div>
<div><label for="report-interval">Per</label><select id="report-interval" name="interval">${intervals}</select></div>
<div><button type="submit">Show</button></div></form>`;
  const fields = report.fields
    .map((f) => {
      const multi = f.type === 'multipleSelect' || f.type === 'checkboxGroup';
      return `<h3>${escapeHtml(f.label)}</h3>${barChart(`Answers to ${f.label}`, f.answers.map((a) => ({ label: a.label, value: a.count })))}
${table(`Answers to ${f.label}${multi ? ' (several answers each)' : ''}`, ['Answer', 'Submissions', 'Share of all'], f.answers.map((a) => [a.label, a.count, percent(a.count, report.total)]))}`;
    })
    .join('');
  const body = `<p><a href="${base}">${escapeHtml(options.name)}</a></p><h1>${escapeHtml(options.name)} <span class="muted">report</span></h1>
<p class="muted">${escapeHtml(formatInZone(report.from, report.timezone))} to ${escapeHtml(formatInZone(report.to, report.timezone))}, per ${report.interval} of ${escapeHtml(report.timezone)}. ${report.total} submission(s), ${report.spam} spam.</p>
${filters}
<h2>Submissions over time</h2>${seriesChart(report)}
${table(`Submissions per ${report.interval}`, [report.interval === 'week' ? 'Week from' : report.interval === 'month' ? 'Month' : 'Day', 'Submissions', 'Spam'], report.series.map((s) => [s.bucket, s.clean, s.spam]))}
<h2>By status</h2>${barChart('Submissions by status', report.statuses.map((s) => ({ label: s.status, value: s.clean })))}
${table('By status and spam', ['Status', 'Submissions', 'Spam'], report.statuses.map((s) => [s.status, s.clean, s.spam]))}
<h2>Answers</h2>${fields || '<p>This form has no choice, rating or opinion-scale field.</p>'}`;
  return consolePage(`Report · ${options.name} · svc console`, body, viewer);
}
