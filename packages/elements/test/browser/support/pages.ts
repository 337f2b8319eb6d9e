/**
 * The HTML the page server hands out: the service's own demo page (rendered by the server's demo
 * module for the test's two origins) and a page with a single `<svc-form>`, whose query string
 * (`allow-save`, `token`, `key`, `site`) becomes the element's attributes, as a host page would do.
 */
export { renderDemoPage } from '../../../../server/src/demo/demo-page.js';

export interface FormPageOptions {
  readonly allowSave?: boolean;
  readonly token?: string;
  readonly key?: string;
  /** The element's `site` attribute (issue #34). */
  readonly site?: string;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

export function renderFormPage(scriptUrl: string, baseUrl: string, handle: string, options: FormPageOptions = {}): string {
  const attributes = [`base-url="${escapeAttribute(baseUrl)}"`, `handle="${escapeAttribute(handle)}"`];
  if (options.allowSave) attributes.push('allow-save');
  if (options.token) attributes.push(`draft-token="${escapeAttribute(options.token)}"`);
  if (options.key) attributes.push(`draft-key="${escapeAttribute(options.key)}"`);
  if (options.site) attributes.push(`site="${escapeAttribute(options.site)}"`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>svc-form: ${escapeAttribute(handle)}</title>
<script type="module" src="${escapeAttribute(scriptUrl)}"></script>
</head>
<body>
<main>
<h1>${escapeAttribute(handle)}</h1>
<svc-form ${attributes.join(' ')}></svc-form>
</main>
</body>
</html>
`;
}
