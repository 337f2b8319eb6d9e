/**
 * The HTML shell the demo's pages share (issue #6, #11): one look, and the two escapes every
 * value written into them goes through. Values a page takes from its own query are never
 * written here at all: its script reads location.search and sets attributes and text.
 */

import { escapeHtml } from '../http/html-page.js';
import { htmlLanguageAttributes, type PageLanguage } from '../http/page-language.js';

export { escapeHtml };

/** JSON inside a <script>: `<` escaped so no value can close the script element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * The headers every demo page is sent with. A page's address may hold a draft's token and key
 * (the resume link), so it is neither stored by caches nor sent on as a Referer (to a captcha
 * provider's script, say).
 */
export const DEMO_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'content-type': 'text/html; charset=utf-8',
};

export interface DemoDocument {
  /** Plain text; escaped here. */
  readonly title: string;
  /** The markup inside <main>, already escaped by the page that built it. */
  readonly main: string;
  /** The body of the page's module script; null for a page without one. */
  readonly script: string | null;
  /** The site's `lang` and `dir` (issue #34); absent or null: English, `lang="en"`. */
  readonly language?: PageLanguage | null;
}

/**
 * A complete demo page.
 *
 * @example
 * renderDemoDocument({ title: 'svc demo', main: '<h1>svc demo</h1>', script: 'await import("/demo/svc-elements.js");' });
 */
export function renderDemoDocument({ title, main, script, language = null }: DemoDocument): string {
  return `<!doctype html>
<html ${htmlLanguageAttributes(language, escapeHtml)}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<style>
  body { margin: 0; font-family: system-ui, sans-serif; color: #1f2328; background: #f6f7f9; }
  main { max-width: 52rem; margin: 0 auto; padding: 1.5rem 1rem 4rem; }
  section { background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 1rem 1.25rem 1.25rem; margin-top: 1.5rem; }
  h2 { margin-top: 0; font-size: 1.25rem; }
  code { background: #eef1f4; padding: 0 0.25rem; border-radius: 4px; direction: ltr; unicode-bidi: isolate; }
  ul.sites { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.5rem 1.25rem; }
  [aria-current=page] { font-weight: 600; }
</style>
</head>
<body>
<main>
${main}
</main>
${script === null ? '' : `<script type="module">\n${script}\n</script>\n`}</body>
</html>
`;
}
