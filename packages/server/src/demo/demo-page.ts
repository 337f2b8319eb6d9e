/**
 * The demo page of `npm start` (issue #6): one `<svc-form>` per example form. It is plain
 * HTML plus a small inline script, so the same page works served by svc itself or copied to
 * another origin (the browser tests do that): the service address comes from `?base=`, else
 * from the `baseUrl` given here, else from the page's own origin. With `?site=` it speaks that
 * site's language (issue #34): its own words, `<html lang dir>`, and `<svc-form site>`.
 */
import { formatPageMessage, type PageMessageKey } from '@svc/core';
import { escapeHtml, renderDemoDocument, scriptJson } from './demo-html.js';
import { ENGLISH_DEMO, type DemoLanguage } from './demo-language.js';

interface DemoForm {
  readonly handle: string;
  /** The form's title in English; `titleKey` names it in the pages' catalogue. */
  readonly title: string;
  readonly titleKey: PageMessageKey;
  readonly allowSave: boolean;
}

function demoForm(handle: string, titleKey: PageMessageKey, allowSave: boolean): DemoForm {
  return { handle, title: formatPageMessage('en', titleKey), titleKey, allowSave };
}

/** The example forms of examples/forms, in the order the page shows them. */
export const DEMO_FORMS: readonly DemoForm[] = [
  demoForm('contact', 'demo.form.contact', false),
  demoForm('application', 'demo.form.application', true),
  demoForm('kitchen-sink', 'demo.form.kitchen-sink', true),
  demoForm('job-application', 'demo.form.job-application', true),
  // Without Stripe keys the card fields are the offline test double's, labelled as such.
  demoForm('donation', 'demo.form.donation', true),
];

/** A configured site as the demo's language switch and manifest list show it. */
export interface DemoSite {
  readonly handle: string;
  /** BCP 47, as configured. */
  readonly language: string;
  readonly isDefault: boolean;
  /** Handles of the exposed forms translated into the site's language. */
  readonly translated: readonly string[];
}

export interface DemoPageOptions {
  /** The site the page is drawn for; English when absent. */
  readonly language?: DemoLanguage;
  /** The configured sites: a language switch and the translated manifests; none when absent. */
  readonly sites?: readonly DemoSite[];
}

/** A language's own name for itself ("Deutsch (Deutschland)", "العربية"), the tag when unknown. */
function autonym(tag: string): string {
  try {
    return new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

function siteQuery(site: DemoSite): string {
  return site.isDefault ? '' : `?site=${encodeURIComponent(site.handle)}`;
}

/** Links to the page on every site, each named in its own language; the current one marked. */
function languageSwitch(sites: readonly DemoSite[], language: DemoLanguage): string {
  if (sites.length < 2) return '';
  const links = sites.map((site) => {
    const current = site.isDefault ? language.site === null : language.site === site.handle;
    return `<li><a href="./${escapeHtml(siteQuery(site))}" lang="${escapeHtml(site.language)}" hreflang="${escapeHtml(site.language)}"${current ? ' aria-current="page"' : ''}>${escapeHtml(autonym(site.language))}</a></li>`;
  });
  return `  <nav aria-label="${escapeHtml(language.text('demo.languages'))}"><ul class="sites">${links.join('')}</ul></nav>\n`;
}

/** Every other site's manifests of the forms translated for it, as the banner lists them. */
function siteManifests(sites: readonly DemoSite[], baseUrl: string | null, language: DemoLanguage): string {
  const others = sites.filter((site) => !site.isDefault);
  if (others.length === 0) return '';
  const items = others.map((site) => {
    const urls = site.translated.map((handle) => `${baseUrl ?? ''}/svc/api/forms/${encodeURIComponent(handle)}/manifest?site=${encodeURIComponent(site.handle)}`);
    const list = urls.length === 0 ? `<p>${escapeHtml(language.text('demo.noTranslations'))}</p>` : `<ul>${urls.map((url) => `<li><a href="${escapeHtml(url)}"><code>${escapeHtml(url)}</code></a></li>`).join('')}</ul>`;
    return `    <h3 lang="${escapeHtml(site.language)}">${escapeHtml(autonym(site.language))} <code>${escapeHtml(site.handle)}</code> (<code>${escapeHtml(site.language)}</code>)</h3>\n    ${list}`;
  });
  return `  <section aria-labelledby="sites-title">
    <h2 id="sites-title">${escapeHtml(language.text('demo.sitesHeading'))}</h2>
    <p>${escapeHtml(language.text('demo.sitesIntro'))}</p>
${items.join('\n')}
  </section>\n`;
}

/**
 * The page's HTML. `scriptUrl` is where the bundled element is served (absolute when the page
 * lives on another origin: the service answers it with CORS); `baseUrl` is the default service
 * address, null for "this page's origin".
 *
 * @example
 * reply.type('text/html').send(renderDemoPage('/demo/svc-elements.js', null));
 * reply.type('text/html').send(renderDemoPage('/demo/svc-elements.js', null, { language: demoLanguage(sites.resolve('ar')), sites }));
 */
export function renderDemoPage(scriptUrl: string, baseUrl: string | null = null, options: DemoPageOptions = {}): string {
  const language = options.language ?? ENGLISH_DEMO;
  const siteAttribute = language.site === null ? '' : ` site="${escapeHtml(language.site)}"`;
  const sections = DEMO_FORMS.map((form) => {
    const link = `<a href="${escapeHtml(baseUrl ?? '')}/demo/classic/${form.handle}${escapeHtml(language.query)}">${escapeHtml(language.text('demo.classicLink'))}</a>`;
    return `  <section aria-labelledby="title-${form.handle}">
    <h2 id="title-${form.handle}">${escapeHtml(language.text(form.titleKey))}</h2>
    <svc-form handle="${form.handle}"${siteAttribute}${form.allowSave ? ' allow-save' : ''}></svc-form>
    <p>${language.html('demo.classicLinkNote', { link })}</p>
  </section>`;
  }).join('\n');
  const intro = language.html('demo.intro', { element: '<code>&lt;svc-form&gt;</code>', address: '<code id="service-address"></code>' });
  const more = language.html('demo.introMore', { base: '<code>?base=URL</code>', resume: '<code>?form=HANDLE&amp;token=…&amp;key=…</code>' });
  const sites = options.sites ?? [];
  return renderDemoDocument({
    title: language.text('demo.pageTitle'),
    language: language.page,
    main: `  <h1>${escapeHtml(language.text('demo.heading'))}</h1>
${languageSwitch(sites, language)}  <p>${intro}
  ${more}</p>
${sections}
${siteManifests(sites, baseUrl, language)}`,
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
