/**
 * The HTML of a hosted page (issue #36 items 1 and 4): the form's title and description, Open
 * Graph tags, `noindex` unless the form opts in, the site's language and direction, one
 * stylesheet (the theme) and one script (the element's bundle), both files: no inline script or
 * style, so the CSP stays strict. Every value is escaped here.
 */
import { escapeHtml } from '../http/html-page.js';

export interface HostedDocument {
  readonly title: string;
  readonly description: string | null;
  /** BCP 47 tag of the site; `dir` follows it. */
  readonly language: string;
  readonly dir: 'ltr' | 'rtl';
  readonly indexable: boolean;
  /** Absolute address of the page (server.publicUrl), for og:url and the canonical link; null without one. */
  readonly canonicalUrl: string | null;
  readonly stylesheet: string;
  /** The element's bundle; null for a page that draws no element (a message, a finished form). */
  readonly script: string | null;
  /** The script that reports the page's height to an embedding page; null unless embedded. */
  readonly frameScript: string | null;
  readonly logo: { readonly url: string; readonly alt: string } | null;
  /** The markup under the heading, already escaped by whoever built it. */
  readonly body: string;
}

/** `<svc-form>` with its attributes (escaped here) around its no-JavaScript content. */
export function renderElement(attributes: Readonly<Record<string, string | null>>, fallback: string): string {
  const attrs = Object.entries(attributes)
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join('');
  return `<svc-form${attrs}>\n${fallback}\n</svc-form>`;
}

/**
 * @example
 * renderHostedDocument({ title: 'Contact', description: null, language: 'en-US', dir: 'ltr', indexable: false, canonicalUrl: null,
 *   stylesheet: '/f/contact/theme.css', script: '/f/_/svc-form.en.js', frameScript: null, logo: null, body: renderElement({ handle: 'contact' }, '') });
 */
export function renderHostedDocument(page: HostedDocument): string {
  const meta = (attribute: 'name' | 'property', key: string, value: string | null) =>
    value === null || value === '' ? '' : `<meta ${attribute}="${key}" content="${escapeHtml(value)}">\n`;
  const ogImage = page.logo && page.logo.url.startsWith('https://') ? page.logo.url : null;
  return `<!doctype html>
<html lang="${escapeHtml(page.language)}" dir="${page.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
${meta('name', 'description', page.description)}${page.indexable ? '' : '<meta name="robots" content="noindex, nofollow">\n'}${meta('property', 'og:type', 'website')}${meta('property', 'og:title', page.title)}${meta('property', 'og:description', page.description)}${meta('property', 'og:url', page.canonicalUrl)}${meta('property', 'og:image', ogImage)}${page.canonicalUrl ? `<link rel="canonical" href="${escapeHtml(page.canonicalUrl)}">\n` : ''}<link rel="icon" href="data:,">
<link rel="stylesheet" href="${escapeHtml(page.stylesheet)}">
${page.script ? `<script type="module" src="${escapeHtml(page.script)}"></script>\n` : ''}${page.frameScript ? `<script type="module" src="${escapeHtml(page.frameScript)}"></script>\n` : ''}</head>
<body>
<main class="hosted">
${page.logo ? `<img class="hosted-logo" src="${escapeHtml(page.logo.url)}" alt="${escapeHtml(page.logo.alt)}">\n` : ''}<h1>${escapeHtml(page.title)}</h1>
${page.description ? `<p class="hosted-description">${escapeHtml(page.description)}</p>\n` : ''}${page.body}
</main>
</body>
</html>
`;
}
