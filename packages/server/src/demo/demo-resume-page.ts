/**
 * The demo's resume page (issue #11): where a saved draft's link leads, e.g. job-application's
 * `saveRedirectUrl`, /demo/resume?form=job-application&token={token}&key={key} (svc puts its own
 * address in front: http/service-address.ts).
 * It renders one `<svc-form>` for `?form=` and hands it the draft through the `draft-token` and
 * `draft-key` attributes. The query is read by the page's script and only ever set as attributes
 * and text, never written into the HTML, so a crafted link cannot add markup.
 */
import { renderDemoDocument, scriptJson } from './demo-html.js';
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
export function renderResumePage(scriptUrl: string, baseUrl: string | null = null): string {
  const titles = Object.fromEntries(DEMO_FORMS.map((form) => [form.handle, form.title]));
  return renderDemoDocument({
    title: 'svc demo: continue a saved form',
    main: `  <h1 id="resume-title">Continue a saved form</h1>
  <p id="resume-note">Your saved answers are filled in below; finish the form, or save it again for later.</p>
  <p><a href="./">All demo forms</a></p>
  <section aria-labelledby="resume-title">
    <svc-form allow-save></svc-form>
  </section>`,
    script: `  const params = new URLSearchParams(location.search);
  const handle = params.get('form');
  const token = params.get('token');
  const key = params.get('key');
  const element = document.querySelector('svc-form');
  if (handle && token && key) {
    const titles = ${scriptJson(titles)};
    document.getElementById('resume-title').textContent = 'Continue: ' + (Object.hasOwn(titles, handle) ? titles[handle] : handle);
    element.setAttribute('base-url', ${scriptJson(baseUrl)} || location.origin);
    element.setAttribute('draft-token', token);
    element.setAttribute('draft-key', key);
    // The handle last: it is what makes the element load, with the draft already in place.
    element.setAttribute('handle', handle);
  } else {
    element.closest('section').remove();
    document.getElementById('resume-note').textContent = 'This link is incomplete: a resume link names the form and carries the draft\\'s token and key. Open the link you were given in full.';
  }
  await import(${scriptJson(scriptUrl)});`,
  });
}
