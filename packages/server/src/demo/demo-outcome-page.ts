/**
 * Where the demo's payer lands after paying (issue #31): the payment callback's own outcome page
 * ("Thank you", "Payment not completed"), drawn in the demo's look with a link back to the form
 * on the demo page, instead of svc's unstyled plain page. Used only when svc runs as the demo; a
 * form with a successUrl, failureUrl or returnUrl sends the payer there as before.
 */
import type { FastifyReply } from 'fastify';
import type { Form } from '@svc/core';
import { DEMO_PAGE_HEADERS, escapeHtml, renderDemoDocument } from './demo-html.js';
import { ENGLISH_DEMO, demoLanguage, type DemoLanguage } from './demo-language.js';
import type { Site } from '../sites/site-registry.js';
import { DEMO_FORMS } from './demo-page.js';

/** The page runs no script and loads nothing: its one stylesheet is inline (and the empty icon). */
export const DEMO_OUTCOME_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/**
 * The link back: the form's section on the demo page, or the page itself for a form it does not show.
 *
 * @example
 * demoFormLink('donation'); // '/demo/#title-donation'
 */
export function demoFormLink(handle: string, language: DemoLanguage = ENGLISH_DEMO): string {
  return DEMO_FORMS.some((demo) => demo.handle === handle) ? `/demo/${language.query}#title-${encodeURIComponent(handle)}` : `/demo/${language.query}`;
}

/**
 * The outcome page's HTML: the title, its lines, and the link back to the form, in the words
 * and direction of `language` (the site's; English when absent).
 *
 * @example
 * renderDemoOutcomePage('Thank you', ['Thank you for your donation!'], 'donation');
 */
export function renderDemoOutcomePage(title: string, lines: readonly string[], handle: string, language: DemoLanguage = ENGLISH_DEMO): string {
  const paragraphs = lines.map((line) => `    <p>${escapeHtml(line)}</p>`).join('\n');
  return renderDemoDocument({
    title,
    language: language.page,
    main: `  <section aria-labelledby="outcome-title">
    <h1 id="outcome-title">${escapeHtml(title)}</h1>
${paragraphs}
    <p><a id="back-to-form" href="${escapeHtml(demoFormLink(handle, language))}">${escapeHtml(language.text('demo.backToForm'))}</a></p>
  </section>`,
    script: null,
  });
}

/**
 * The payment callback's outcome page in the demo (payments-feature passes it as the context's
 * `outcomePage`), in the language of the payment's site, its link back to that site's demo.
 *
 * @example
 * return demoOutcomePage(reply, 200, 'Thank you', [form.settings.successMessage], form, site);
 */
export function demoOutcomePage(reply: FastifyReply, status: number, title: string, lines: readonly string[], form: Form, site: Site | null = null): FastifyReply {
  return reply
    .code(status)
    .headers({ ...DEMO_PAGE_HEADERS, 'content-security-policy': DEMO_OUTCOME_CSP })
    .send(renderDemoOutcomePage(title, lines, form.handle as string, site === null ? ENGLISH_DEMO : demoLanguage(site)));
}
