/**
 * The demo's resume page (issue #11): where a saved draft's link leads, e.g. job-application's
 * `saveRedirectUrl`, /demo/resume?form=job-application&token={token}&key={key} (svc puts its own
 * address in front: http/service-address.ts).
 * It renders one `<svc-form>` for `?form=` and hands it the draft through the `draft-token` and
 * `draft-key` attributes. The query is read by the page's script and only ever set as attributes
 * and text, never written into the HTML, so a crafted link cannot add markup.
 */
import { escapeHtml, renderDemoDocument, scriptJson } from './demo-html.js';
import { ENGLISH_DEMO, type DemoLanguage } from './demo-language.js';
import { DEMO_FORMS } from './demo-page.js';

/** Where svc serves the page under `npm start` (config.demo). */
export const DEMO_RESUME_PATH = '/demo/resume';

/**
 * The page's HTML. `scriptUrl` is where the bundled element is served; `baseUrl` is the service
 * address, null for "this page's origin" (svc serves the page itself).
 *
 * @example
 * reply.headers(DEMO_PAGE_HEADERS).send(renderResumePage('/demo/svc-elements.js', null));
 */
/** Where the script puts a form handle the page has no title for; no message contains it. */
const FORM_MARK = '\u0001';

export function renderResumePage(scriptUrl: string, baseUrl: string | null = null, language: DemoLanguage = ENGLISH_DEMO): string {
  const t = language;
  // "Continue: <form>" per form, worded here: the script only picks one by the link's ?form=.
  const titles = Object.fromEntries(DEMO_FORMS.map((form) => [form.handle, t.text('demo.resumeFor', { form: t.text(form.titleKey) })]));
  const site = t.site === null ? '' : ` site="${escapeHtml(t.site)}"`;
  return renderDemoDocument({
    title: t.text('demo.resumeTitle'),
    language: t.page,
    main: `  <h1 id="resume-title">${escapeHtml(t.text('demo.resumeHeading'))}</h1>
  <p id="resume-note">${escapeHtml(t.text('demo.resumeNote'))}</p>
  <p><a href="./${escapeHtml(t.query)}">${escapeHtml(t.text('demo.allForms'))}</a></p>
  <section aria-labelledby="resume-title">
    <svc-form allow-save${site}></svc-form>
  </section>`,
    script: `  const params = new URLSearchParams(location.search);
  const handle = params.get('form');
  const token = params.get('token');
  const key = params.get('key');
  const element = document.querySelector('svc-form');
  if (handle && token && key) {
    const titles = ${scriptJson(titles)};
    document.getElementById('resume-title').textContent = Object.hasOwn(titles, handle) ? titles[handle] : ${scriptJson(t.text('demo.resumeFor', { form: FORM_MARK }))}.replace(${scriptJson(FORM_MARK)}, handle);
    element.setAttribute('base-url', ${scriptJson(baseUrl)} || location.origin);
    element.setAttribute('draft-token', token);
    element.setAttribute('draft-key', key);
    // The handle last: it is what makes the element load, with the draft already in place.
    element.setAttribute('handle', handle);
  } else {
    element.closest('section').remove();
    document.getElementById('resume-note').textContent = ${scriptJson(t.text('demo.resumeIncomplete'))};
  }
  await import(${scriptJson(scriptUrl)});`,
  });
}
