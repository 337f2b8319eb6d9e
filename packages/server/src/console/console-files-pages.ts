/**
 * Files you can see (issue #35 item 5): a submission's images as thumbnails that open a viewer,
 * PDFs opened in the browser, anything else a download, every one through the short-lived signed
 * link, so the console's CSP (`img-src 'self'`) holds. The browser scales the thumbnail from the
 * image itself (no server-side resizing: svc has no image library, and adds none for this).
 */
import { escapeHtml } from '../http/html-page.js';
import type { SubmissionFile } from '../admin/admin-service.js';
import { CONSOLE_BASE, consolePage, type Viewer } from './console-pages.js';

/** Extensions a browser draws as an image by itself (SVG is not one: it can carry script). */
const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'avif', 'bmp']);

export const isImage = (file: SubmissionFile) => file.kind === 'image' && IMAGE_EXTENSIONS.has(file.extension.toLowerCase());
export const isPdf = (file: SubmissionFile) => file.extension.toLowerCase() === 'pdf';

/** The signed link asking for `Content-Disposition: inline` (granted to images and PDFs only). */
export const inlineUrl = (file: SubmissionFile) => `${file.downloadUrl}&inline=1`;

export const viewerPath = (submissionId: number, file: SubmissionFile) => `${CONSOLE_BASE}/submissions/${submissionId}/files/${encodeURIComponent(file.id)}`;

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** One file field's uploads: thumbnails for images, then PDFs and other files as links. */
export function renderFiles(submissionId: number, files: readonly SubmissionFile[]): string {
  if (files.length === 0) return '<span class="muted">none</span>';
  const images = files.filter(isImage);
  const others = files.filter((f) => !isImage(f));
  const thumbs = images.length === 0
    ? ''
    : `<ul class="thumbs">${images.map((f) => `<li><a href="${escapeHtml(viewerPath(submissionId, f))}"><img src="${escapeHtml(inlineUrl(f))}" alt="${escapeHtml(`${f.name}, open in the viewer`)}" loading="lazy" width="120" height="120"></a></li>`).join('')}</ul>`;
  const links = others.length === 0
    ? ''
    : `<ul class="files-list">${others
        .map((f) => isPdf(f)
          ? `<li><a href="${escapeHtml(inlineUrl(f))}" target="_blank" rel="noopener">${escapeHtml(f.name)}</a> <span class="muted">PDF, ${size(f.size)}, opens in the browser</span> · <a href="${escapeHtml(f.downloadUrl)}" download>Download<span class="visually-hidden"> ${escapeHtml(f.name)}</span></a></li>`
          : `<li><a href="${escapeHtml(f.downloadUrl)}" download>${escapeHtml(f.name)}</a> <span class="muted">${size(f.size)}</span></li>`)
        .join('')}</ul>`;
  return `${thumbs}${links}`;
}

export interface ViewerView {
  readonly submissionId: number;
  readonly title: string;
  /** Every image of the submission in field order; `index` is the one shown. */
  readonly images: readonly SubmissionFile[];
  readonly index: number;
}

/** One image large, with its neighbours as links (and the arrow keys, console-files.js). */
export function renderViewer(view: ViewerView, viewer: Viewer): string {
  const { images, index, submissionId } = view;
  const file = images[index] as SubmissionFile;
  const prev = images[index - 1];
  const next = images[index + 1];
  const back = `${CONSOLE_BASE}/submissions/${submissionId}`;
  const pager = `<nav class="pager" aria-label="Images">${prev ? `<a href="${escapeHtml(viewerPath(submissionId, prev))}" rel="prev" data-key="ArrowLeft">← Previous<span class="visually-hidden">: ${escapeHtml(prev.name)}</span></a>` : '<span aria-disabled="true">← Previous</span>'}
<span>${index + 1} of ${images.length}</span>
${next ? `<a href="${escapeHtml(viewerPath(submissionId, next))}" rel="next" data-key="ArrowRight">Next →<span class="visually-hidden">: ${escapeHtml(next.name)}</span></a>` : '<span aria-disabled="true">Next →</span>'}</nav>`;
  const body = `<p><a href="${back}" data-key="Escape">Back to ${escapeHtml(view.title)}</a></p>
<h1>${escapeHtml(file.name)}</h1>
<figure class="viewer"><img src="${escapeHtml(inlineUrl(file))}" alt="${escapeHtml(file.name)}"><figcaption>${escapeHtml(file.field)} · ${size(file.size)} · <a href="${escapeHtml(file.downloadUrl)}" download>Download</a></figcaption></figure>
${pager}<p class="muted">Keys: ← and → for the previous and next image, Esc back to the submission.</p>`;
  return consolePage(`${file.name} · svc console`, body, viewer, 'console-files.js');
}
