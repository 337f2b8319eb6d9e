/**
 * The console's pages (issue #15), drawn on the server: plain HTML with one stylesheet, and a
 * script file only where it adds something (export progress), so the Content-Security-Policy
 * allows nothing inline and every page works without script. Every value goes through
 * escapeHtml; form names and anything submitted are text, never markup.
 */
import { escapeHtml } from '../http/html-page.js';
import { CONSOLE_EDIT_CSS } from './console-edit-styles.js';
import { timeHtml } from './console-time.js';

export const CONSOLE_BASE = '/svc/console';

export const CONSOLE_CSS = `${CONSOLE_EDIT_CSS}
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1f2328;background:#f6f7f9}
header{background:#24292f;color:#fff;padding:.6rem 1rem;display:flex;gap:1rem;align-items:center;justify-content:space-between}
header form{margin:0}header a{color:#fff}main{max-width:60rem;margin:0 auto;padding:1.5rem 1rem}
table{border-collapse:collapse;width:100%;background:#fff}th,td{text-align:left;padding:.5rem;border-bottom:1px solid #d0d7de;vertical-align:middle}
.card{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:1.25rem;max-width:26rem;margin:3rem auto}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}input{width:100%;box-sizing:border-box;padding:.45rem;font:inherit}
button{font:inherit;padding:.4rem .9rem;margin-top:1rem}.error{color:#b42318}.muted{color:#57606a}
svg .day{fill:#2f6feb}svg .spam{fill:#d1242f}
.filters{display:grid;grid-template-columns:repeat(auto-fill,minmax(11rem,1fr));gap:.25rem 1rem;align-items:end;margin-bottom:1rem}
.filters fieldset{grid-column:1/-1}label.choice{display:inline-block;font-weight:normal;margin-right:1rem}label.choice input{width:auto}
select{font:inherit;padding:.4rem;width:100%}.value{white-space:pre-wrap}td,.value{unicode-bidi:isolate}
.export{margin:.5rem 0}.export label{display:inline;margin-right:.5rem}.export progress{width:16rem;vertical-align:middle}.export button{margin:0 0 0 .5rem}
/* bulk actions and the spam folder (issue #35 items 1, 4) */
.bulk{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:end;margin:1rem 0;padding:.75rem;background:#fff;border:1px solid #d0d7de;border-radius:6px}
.bulk fieldset{border:0;padding:0;margin:0}.bulk legend{font-weight:600}.bulk>div{min-width:10rem}.bulk button{margin-top:0}
td.pick,th.pick{width:2.5rem}th.pick,th.action{position:relative}td.pick input,th.pick input{width:1.25rem;height:1.25rem;margin:0}
.confirm{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:1.25rem;max-width:36rem}.confirm .actions{display:flex;gap:1rem;align-items:center;flex-wrap:wrap}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
svg.spam-chart{display:block;width:100%;max-width:40rem;height:8rem;background:#fff;border:1px solid #d0d7de}.legend{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;padding:0}
form.inline{display:inline;margin:0}form.inline button{margin:0}
.flash{background:#dafbe1;border:1px solid #4ac26b;border-radius:6px;padding:.5rem .75rem}
header{flex-wrap:wrap;row-gap:.4rem}header nav{display:flex;flex-wrap:wrap;gap:.25rem .75rem}header form button{margin:0}
.scroll{max-width:100%;overflow-x:auto;margin-bottom:1rem}.scroll:focus-visible{outline:3px solid #2f6feb;outline-offset:2px}.scroll>table{width:max-content;min-width:100%}.scroll td{max-width:24rem}
td,th{overflow-wrap:break-word}img,svg{max-width:100%}
svg.chart{display:block;width:100%;max-width:46rem;height:auto;margin:.5rem 0}svg.chart text{font-size:11px;fill:#1f2328}
.report-table caption{text-align:left;font-weight:600;padding:.25rem 0}
kbd{font:.9em ui-monospace,monospace;border:1px solid #8c959f;border-bottom-width:2px;border-radius:4px;padding:0 .3rem;background:#fff}
tr.current{outline:3px solid #2f6feb;outline-offset:-3px}
.saved-filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end;margin:.5rem 0 1rem}.saved-filters form{margin:0;display:flex;gap:.5rem;align-items:end}.saved-filters button{margin:0}.saved-filters label{margin:0}.saved-filters input{width:12rem}
@media (max-width:40rem){main{padding:1rem .75rem}h1{font-size:1.5rem}}`;

/**
 * A table that scrolls inside itself (issue #35: a phone's page never scrolls sideways): a region
 * a keyboard can focus and scroll, named for screen readers.
 */
export function scrollRegion(label: string, tableHtml: string): string {
  return `<div class="scroll" tabindex="0" role="region" aria-label="${escapeHtml(label)}">${tableHtml}</div>`;
}


/** Who a page is drawn for: the bar's name, the session's CSRF token, and whether writes are offered. */
export interface Viewer {
  readonly name: string;
  readonly csrf: string;
  readonly canWrite: boolean;
  /** Holds the privacy scope (issue #37): the bar links the privacy requests page. */
  readonly canPrivacy?: boolean;
  /** The IANA zone dates are shown in (issue #35): the default site's, else UTC. */
  readonly zone?: string;
}

/** An ISO instant as the viewer reads it: in the site's zone, the zone named (console-time.ts). */
export function when(iso: string, viewer: { readonly zone?: string } | null): string {
  return timeHtml(iso, viewer?.zone ?? 'UTC');
}

/** A console page: the bar (with sign-out when signed in), one stylesheet, a script file when named. */
export function consolePage(title: string, body: string, signedInAs: { name: string; csrf: string; canPrivacy?: boolean } | null, script?: string): string {
  // The privacy requests page only for those who may use it (issue #37); the others get a 403 there.
  const privacy = signedInAs?.canPrivacy ? ` · <a href="${CONSOLE_BASE}/privacy">Privacy</a>` : '';
  const bar = signedInAs
    ? `<header><strong>svc console</strong><nav aria-label="Console"><a href="${CONSOLE_BASE}/">Forms</a> · <a href="${CONSOLE_BASE}/spam">Spam</a> · <a href="${CONSOLE_BASE}/deliveries">Dead letters</a> · <a href="${CONSOLE_BASE}/audit">Audit log</a>${privacy} · <a href="${CONSOLE_BASE}/help">Help</a></nav><form method="post" action="${CONSOLE_BASE}/sign-out"><input type="hidden" name="csrf" value="${escapeHtml(signedInAs.csrf)}"><span>${escapeHtml(signedInAs.name)}</span> <button type="submit">Sign out</button></form></header>`
    : '<header><strong>svc console</strong></header>';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><link rel="icon" href="data:,"><link rel="stylesheet" href="${CONSOLE_BASE}/console.css">${script ? `<script src="${CONSOLE_BASE}/${script}" defer></script>` : ''}${signedInAs ? `<script src="${CONSOLE_BASE}/console-shortcuts.js" defer></script>` : ''}</head><body>${bar}<main>${body}</main></body></html>`;
}

/**
 * @example
 * reply.type('text/html').send(renderSignIn({ error: null, csrf }));
 */
export function renderSignIn(options: { error: string | null; csrf: string; username?: string }): string {
  const error = options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : '';
  const body = `<div class="card"><h1>Sign in</h1>${error}
<form method="post" action="${CONSOLE_BASE}/sign-in">
<input type="hidden" name="csrf" value="${escapeHtml(options.csrf)}">
<label for="username">Username</label><input id="username" name="username" autocomplete="username" value="${escapeHtml(options.username ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password">
<p class="muted">Or sign in with an admin API key instead of a username and password:</p>
<label for="apiKey">API key</label><input id="apiKey" name="apiKey" type="password" autocomplete="off">
<button type="submit">Sign in</button>
</form></div>`;
  return consolePage('Sign in · svc console', body, null);
}

export interface FormRow {
  readonly handle: string;
  readonly name: string;
  readonly total: number;
  readonly spam: number;
  readonly last: string | null;
  /** Submissions per day over the last 30 days, oldest first: clean and spam. */
  readonly days: readonly { readonly clean: number; readonly spam: number }[];
}

/** Thirty small bars, spam stacked on top in its own colour; the numbers are in the title. */
function chart(days: FormRow['days']): string {
  const max = Math.max(1, ...days.map((d) => d.clean + d.spam));
  const bars = days
    .map((d, i) => {
      const clean = Math.round((d.clean / max) * 28);
      const spam = Math.round((d.spam / max) * 28);
      return `<rect class="day" x="${i * 4}" y="${30 - clean}" width="3" height="${clean}"></rect><rect class="spam" x="${i * 4}" y="${30 - clean - spam}" width="3" height="${spam}"></rect>`;
    })
    .join('');
  const total = days.reduce((sum, d) => sum + d.clean, 0);
  const spam = days.reduce((sum, d) => sum + d.spam, 0);
  return `<svg width="120" height="30" viewBox="0 0 120 30" role="img" aria-label="${total} submissions and ${spam} spam in the last 30 days">${bars}</svg>`;
}

export function renderForms(rows: readonly FormRow[], signedInAs: Viewer): string {
  const body = rows.length === 0
    ? '<h1>Forms</h1><p>No form is visible to you.</p>'
    : `<h1>Forms</h1>${scrollRegion('Forms', `<table><thead><tr><th scope="col">Form</th><th scope="col">Submissions</th><th scope="col">Spam</th><th scope="col">Last submission</th><th scope="col">Last 30 days</th></tr></thead><tbody>${rows
        .map((row) => `<tr><th scope="row"><a href="${CONSOLE_BASE}/forms/${encodeURIComponent(row.handle)}">${escapeHtml(row.name)}</a> <span class="muted">${escapeHtml(row.handle)}</span></th><td>${row.total - row.spam}</td><td>${row.spam}</td><td>${row.last ? when(row.last, signedInAs) : '—'}</td><td>${chart(row.days)}</td></tr>`)
        .join('')}</tbody></table>`)}`;
  return consolePage('Forms · svc console', body, signedInAs);
}
