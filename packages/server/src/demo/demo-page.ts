/**
 * The demo page of `npm start` (issue #6): one `<svc-form>` per example form. It is plain
 * HTML plus a small inline script, so the same page works served by svc itself or copied to
 * another origin (the browser tests do that): the service address comes from `?base=`, else
 * from the `baseUrl` given here, else from the page's own origin.
 */
import { escapeHtml, renderDemoDocument, scriptJson } from './demo-html.js';

/** The example forms of examples/forms, in the order the page shows them. */
export const DEMO_FORMS: readonly { readonly handle: string; readonly title: string; readonly allowSave: boolean }[] = [
  { handle: 'contact', title: 'Contact', allowSave: false },
  { handle: 'application', title: 'Application (three pages, rules, drafts)', allowSave: true },
  { handle: 'kitchen-sink', title: 'Kitchen sink (every field type)', allowSave: true },
  { handle: 'job-application', title: 'Job application (files)', allowSave: true },
  // Without Stripe keys the card fields are the offline test double's, labelled as such.
  { handle: 'donation', title: 'Donation (card payment)', allowSave: true },
];

/**
 * The page's HTML. `scriptUrl` is where the bundled element is served (absolute when the page
 * lives on another origin: the service answers it with CORS); `baseUrl` is the default service
 * address, null for "this page's origin".
 *
 * @example
 * reply.type('text/html').send(renderDemoPage('/demo/svc-elements.js', null));
 */
export function renderDemoPage(scriptUrl: string, baseUrl: string | null = null): string {
  const sections = DEMO_FORMS.map(
    (form) => `  <section aria-labelledby="title-${form.handle}">
    <h2 id="title-${form.handle}">${escapeHtml(form.title)}</h2>
    <svc-form handle="${form.handle}"${form.allowSave ? ' allow-save' : ''}></svc-form>
    <p><a href="${escapeHtml(baseUrl ?? '')}/demo/classic/${form.handle}">The same form drawn on the server from its properties JSON</a> (a plain HTML form; works without JavaScript).</p>
  </section>`,
  ).join('\n');
  return renderDemoDocument({
    title: 'svc demo: example forms',
    main: `  <h1>svc demo</h1>
  <p>Each example form below is a <code>&lt;svc-form&gt;</code> element talking to the service at <code id="service-address"></code>.
  Add <code>?base=URL</code> to use another service; a saved draft resumes with <code>?form=HANDLE&amp;token=…&amp;key=…</code>.</p>
${sections}`,
    script: `  const params = new URLSearchParams(location.search);
  const base = params.get('base') || ${scriptJson(baseUrl)} || location.origin;
  document.getElementById('service-address').textContent = base;
  const draft = params.get('token') && params.get('key') ? { form: params.get('form'), token: params.get('token'), key: params.get('key') } : null;
  for (const element of document.querySelectorAll('svc-form')) {
    element.setAttribute('base-url', base);
    // A draft belongs to one form; without ?form= it goes to the first that saves drafts.
    const handle = element.getAttribute('handle');
    const owner = draft && (draft.form ? draft.form === handle : element === document.querySelector('svc-form[allow-save]'));
    if (owner) {
      element.setAttribute('draft-token', draft.token);
      element.setAttribute('draft-key', draft.key);
    }
  }
  // Loaded after the attributes are set, so each element loads its form once.
  await import(${scriptJson(scriptUrl)});`,
  });
}
