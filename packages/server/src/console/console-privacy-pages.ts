/**
 * The console's privacy page (issue #37): find a person's submissions across forms, export them,
 * and erase them after a confirmation step, showing the signed receipt. The value asked about is
 * carried between the steps in POST bodies, never in a URL. Everything shown is escaped.
 */
import { escapeHtml } from '../http/html-page.js';
import type { SignedReceipt } from '../privacy/privacy-receipts.js';
import type { SubjectSubmission } from '../privacy/privacy-subjects.js';
import { CONSOLE_BASE, consolePage, scrollRegion, when, type Viewer } from './console-pages.js';

export interface PrivacyAsked {
  readonly kind: 'email' | 'identifier';
  readonly value: string;
}

const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;

function askedInputs(asked: PrivacyAsked, viewer: Viewer): string {
  return `${hidden('csrf', viewer.csrf)}${hidden('kind', asked.kind)}${hidden('value', asked.value)}`;
}

function findForm(viewer: Viewer, asked: PrivacyAsked | null): string {
  const kind = asked?.kind ?? 'email';
  const option = (value: string, label: string) => `<option value="${value}"${kind === value ? ' selected' : ''}>${label}</option>`;
  return `<form method="post" action="${CONSOLE_BASE}/privacy/find" class="card">
${hidden('csrf', viewer.csrf)}
<p><label for="privacy-kind">Find by</label> <select id="privacy-kind" name="kind">${option('email', 'Email address')}${option('identifier', 'Identifier')}</select></p>
<p><label for="privacy-value">Value</label> <input id="privacy-value" name="value" required maxlength="1000" autocomplete="off" value="${escapeHtml(asked?.value ?? '')}"></p>
<p><button type="submit">Find</button></p>
</form>`;
}

const INTRO = '<h1>Privacy requests</h1><p>Find everything held about a person in fields marked <code>personal</code>, export it as a zip, or erase it with a signed receipt. See <code>docs/privacy.md</code>.</p>';

export function renderPrivacy(viewer: Viewer, error: string | null = null): string {
  const alert = error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : '';
  return consolePage('Privacy · svc console', `${INTRO}${alert}${findForm(viewer, null)}`, viewer);
}

function submissionTable(found: readonly SubjectSubmission[], viewer: Viewer): string {
  const rows = found
    .map((s) => `<tr><td><a href="${CONSOLE_BASE}/forms/${encodeURIComponent(s.form)}/submissions/${s.id}">${s.id}</a></td><td>${escapeHtml(s.form)}</td><td>${when(s.createdAt, viewer)}</td></tr>`)
    .join('');
  return scrollRegion('Submissions found', `<table><thead><tr><th scope="col">Submission</th><th scope="col">Form</th><th scope="col">Received</th></tr></thead><tbody>${rows}</tbody></table>`);
}

export function renderFound(viewer: Viewer, asked: PrivacyAsked, found: readonly SubjectSubmission[], canErase: boolean): string {
  const heading = `<h2>${found.length} submission(s) found</h2>`;
  if (found.length === 0) return consolePage('Privacy · svc console', `${INTRO}${findForm(viewer, asked)}<section aria-live="polite">${heading}<p>Nothing is held under this value in the forms you may read.</p></section>`, viewer);
  const actions = `<form method="post" action="${CONSOLE_BASE}/privacy/export">${askedInputs(asked, viewer)}<button type="submit">Export as zip</button></form>${
    canErase ? `<form method="post" action="${CONSOLE_BASE}/privacy/erase">${askedInputs(asked, viewer)}<button type="submit">Erase…</button></form>` : ''
  }`;
  return consolePage('Privacy · svc console', `${INTRO}${findForm(viewer, asked)}<section aria-live="polite">${heading}${submissionTable(found, viewer)}<div class="actions">${actions}</div></section>`, viewer);
}

export function renderConfirmErase(viewer: Viewer, asked: PrivacyAsked, found: readonly SubjectSubmission[]): string {
  const body = `<h1>Erase ${found.length} submission(s)?</h1>
<p>This deletes the submissions below, their files and their pending notifications for good. It cannot be undone.</p>
${submissionTable(found, viewer)}
<form method="post" action="${CONSOLE_BASE}/privacy/erase">${askedInputs(asked, viewer)}${hidden('confirm', 'yes')}<button type="submit" class="danger">Erase permanently</button></form>
<p><a href="${CONSOLE_BASE}/privacy">Cancel</a></p>`;
  return consolePage('Confirm erasure · svc console', body, viewer);
}

export function renderReceipt(viewer: Viewer, signed: SignedReceipt): string {
  const body = `<h1>Erased</h1>
<p role="status">${signed.receipt.erased.length} submission(s) erased. Keep the receipt below: it is signed, and verifies against the key at <a href="/svc/privacy/receipt-key">/svc/privacy/receipt-key</a>.</p>
<h2>Receipt</h2>
<pre tabindex="0" aria-label="Signed receipt">${escapeHtml(JSON.stringify(signed, null, 2))}</pre>
<p><a href="${CONSOLE_BASE}/privacy">Another request</a></p>`;
  return consolePage('Erasure receipt · svc console', body, viewer);
}
