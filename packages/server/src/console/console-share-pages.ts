/**
 * The console's share page of a form (issue #36 item 3): the link to its hosted page, a QR code
 * of that link drawn on the server as SVG, and the two embed snippets (the element as a script,
 * and an iframe that sizes itself). Every value is escaped; the QR code's SVG is markup svc made.
 */
import { escapeHtml } from '../http/html-page.js';
import { CONSOLE_BASE, consolePage, type Viewer } from './console-pages.js';

export interface SharePage {
  readonly handle: string;
  readonly name: string;
  /** The page's address; null when the form has no hosted page (then `reason` says why). */
  readonly url: string | null;
  readonly reason: string | null;
  readonly qrSvg: string | null;
  readonly snippets: { readonly script: string; readonly iframe: string } | null;
}

/**
 * @example
 * pageHeaders(reply).send(renderShare({ handle: 'contact', name: 'Contact', url, reason: null, qrSvg, snippets }, viewer));
 */
export function renderShare(page: SharePage, viewer: Viewer): string {
  const handle = escapeHtml(page.handle);
  const back = `<p><a href="${CONSOLE_BASE}/forms/${handle}">${escapeHtml(page.name)}</a></p>`;
  if (page.url === null || page.qrSvg === null || page.snippets === null) {
    return consolePage(`Share ${page.name} · svc console`, `<h1>Share: ${escapeHtml(page.name)}</h1>${back}<p>${escapeHtml(page.reason ?? '')}</p>`, viewer);
  }
  const code = (id: string, label: string, text: string) =>
    `<h2 id="${id}">${escapeHtml(label)}</h2><pre tabindex="0" aria-labelledby="${id}"><code>${escapeHtml(text)}</code></pre>`;
  const body = `<h1>Share: ${escapeHtml(page.name)}</h1>${back}
<h2 id="link">Link</h2>
<p><a id="hosted-link" href="${escapeHtml(page.url)}">${escapeHtml(page.url)}</a></p>
<figure><div class="qr" role="img" aria-label="QR code of ${escapeHtml(page.url)}">${page.qrSvg}</div>
<figcaption><a href="${CONSOLE_BASE}/forms/${handle}/share/qr.svg" download="${handle}-qr.svg">Download the QR code (SVG)</a></figcaption></figure>
${code('embed-script', 'Embed: the element', page.snippets.script)}
<p class="muted">The page that embeds it must be among the form's allowed origins (headless.allowedOrigins).</p>
${code('embed-iframe', 'Embed: an iframe that sizes itself', page.snippets.iframe)}
<p class="muted">Only the form's allowed origins may frame the page.</p>`;
  return consolePage(`Share ${page.name} · svc console`, body, viewer);
}
