/**
 * The console's insights page (issue #38): a form's funnel, drop-off per page and the fields with
 * the most errors, each as an inline SVG chart (shapes and classes only: the CSP allows no inline
 * style or script) with a table of the same figures under it. Counts from 1 to 4 are shown as
 * "<5", here and in every chart label, so a small form's figures never point at one person.
 */
import { escapeHtml } from '../http/html-page.js';
import type { InsightsReport } from '../insights/insights-report.js';
import { CONSOLE_BASE, consolePage, type Viewer } from './console-pages.js';

/** The console's rule for small counts: 0 is 0, 1–4 are "<5", the rest as they are. */
export function shownCount(n: number): string {
  return n > 0 && n < 5 ? '<5' : String(n);
}

interface Bar {
  readonly label: string;
  readonly value: number;
  /** The second, red part of the bar (left, errors): drawn over the first. */
  readonly part?: number;
}

/** Horizontal bars scaled to the largest; each bar's figures are in its title, as text. */
function barChart(title: string, bars: readonly Bar[]): string {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const rows = bars
    .map((bar, i) => {
      const y = i * 22;
      const width = Math.round((bar.value / max) * 300);
      const part = bar.part === undefined ? '' : `<rect class="spam" x="100" y="${y}" width="${Math.round((bar.part / max) * 300)}" height="16"></rect>`;
      return `<g><title>${escapeHtml(`${bar.label}: ${shownCount(bar.value)}${bar.part === undefined ? '' : `, ${shownCount(bar.part)} left`}`)}</title><text x="0" y="${y + 12}" font-size="12">${escapeHtml(bar.label.slice(0, 16))}</text><rect class="day" x="100" y="${y}" width="${width}" height="16"></rect>${part}<text x="${106 + width}" y="${y + 12}" font-size="12">${escapeHtml(shownCount(bar.value))}</text></g>`;
    })
    .join('');
  const height = Math.max(22, bars.length * 22);
  return `<svg width="460" height="${height}" viewBox="0 0 460 ${height}" role="img" aria-label="${escapeHtml(title)}">${rows}</svg>`;
}

function table(caption: string, head: readonly string[], rows: readonly (readonly string[])[]): string {
  const body = rows.length === 0 ? `<tr><td colspan="${head.length}">Nothing counted in this period.</td></tr>` : rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('');
  return `<table><caption>${escapeHtml(caption)}</caption><thead><tr>${head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${body}</tbody></table>`;
}

function rate(report: InsightsReport): string {
  // A rate of a handful of starts says as much as the counts the "<5" rule hides.
  return report.starts < 5 ? '—' : `${Math.round(report.completionRate * 1000) / 10}%`;
}

export interface InsightsPageOptions {
  readonly handle: string;
  readonly name: string;
  readonly report: InsightsReport;
  readonly query: Readonly<Record<string, string>>;
  readonly sites: readonly string[];
}

export function renderInsights(options: InsightsPageOptions, viewer: Viewer): string {
  const { report, handle } = options;
  const action = `${CONSOLE_BASE}/forms/${encodeURIComponent(handle)}/insights`;
  const siteOptions = ['', ...options.sites].map((s) => `<option value="${escapeHtml(s)}"${(options.query['site'] ?? '') === s ? ' selected' : ''}>${s === '' ? 'All sites' : escapeHtml(s)}</option>`).join('');
  const filters = `<form method="get" action="${action}" class="filters"><label>From <input type="date" name="from" value="${escapeHtml(options.query['from'] ?? '')}"></label><label>To <input type="date" name="to" value="${escapeHtml(options.query['to'] ?? '')}"></label><label>Site <select name="site">${siteOptions}</select></label><button type="submit">Show</button></form>`;
  const funnel = [
    { label: 'Views', value: report.views },
    { label: 'Starts', value: report.starts },
    { label: 'Completions', value: report.completions },
  ];
  const pages = report.pages.map((p) => ({ label: `Page ${p.index + 1}`, value: p.reached, part: p.left }));
  const fields = report.fields.slice(0, 10).map((f) => ({ label: f.handle, value: f.errors }));
  const body = `<h1>${escapeHtml(options.name)} <span class="muted">insights</span></h1>
<p class="muted">${escapeHtml(report.from.slice(0, 16).replace('T', ' '))} to ${escapeHtml(report.to.slice(0, 16).replace('T', ' '))} UTC. Counts only: nothing here identifies a person; counts of 1 to 4 are shown as &lt;5. <a href="${CONSOLE_BASE}/forms/${encodeURIComponent(handle)}">Submissions</a></p>
${filters}
<h2>Funnel</h2>${barChart('Views, starts and completions', funnel)}
${table('Funnel', ['Views', 'Starts', 'Completions', 'Completion rate', 'Draft saves', 'Draft resumes'], [[shownCount(report.views), shownCount(report.starts), shownCount(report.completions), rate(report), shownCount(report.drafts.saves), shownCount(report.drafts.resumes)]])}
<h2>Drop-off by page</h2>${barChart('Journeys that reached each page, and in red those that left on it', pages)}
${table('Drop-off by page', ['Page', 'Reached', 'Left here', 'Median time (s)'], report.pages.map((p) => [String(p.index + 1), shownCount(p.reached), shownCount(p.left), p.medianSeconds === null ? '—' : String(p.medianSeconds)]))}
<h2>Fields with errors</h2>${barChart('Validation errors per field', fields)}
${table('Fields with errors', ['Field', 'Errors', 'Messages'], report.fields.map((f) => [f.handle, shownCount(f.errors), f.messages.map((m) => `${m.key}: ${shownCount(m.count)}`).join(', ')]))}`;
  return consolePage(`Insights · ${options.name} · svc console`, body, viewer);
}
