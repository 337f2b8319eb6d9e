/**
 * The hosted page's form without JavaScript (issue #36 items 1 and 4): the classic form drawn from
 * the form-properties JSON (or, for a signed profile link, from the manifest's layout with the
 * link's context: hosted-profile-post.ts), placed inside `<svc-form>` as its light-DOM content. Until the element's
 * script runs (or when it never does) the browser shows that content; once `<svc-form>` is
 * defined its shadow root, which has no default slot, takes its place. Fields are drawn by the
 * demo's classic renderer in the site's language (demo-language.ts: the pages' catalogue).
 */
import type { ManifestField } from '@svc/core';
import { renderClassicField } from '../demo/demo-classic-fields.js';
import type { ClassicPageProperties } from '../demo/demo-classic-page.js';
import type { DemoLanguage } from '../demo/demo-language.js';
import { escapeHtml } from '../http/html-page.js';

function hidden(name: string, value: string): string {
  return `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;
}

/** What a no-JavaScript form is drawn from: the classic page's properties, or a profile link's. */
export interface FallbackForm {
  readonly page: ClassicPageProperties['page'];
  readonly pageCount: number;
  readonly values: Readonly<Record<string, unknown>>;
  /** Nothing posted yet: fields without a value show their defaults. */
  readonly fresh: boolean;
  readonly errors: Readonly<Record<string, readonly string[]>>;
  readonly formErrors: readonly string[];
  readonly draft: ClassicPageProperties['draft'];
  readonly anchor: string;
  readonly class: string;
  readonly actionUrl: string;
  readonly enctype: string;
  /** Hidden inputs the post carries back: the classic action, hash, payload and CSRF; a profile form's state. */
  readonly hidden: readonly (readonly [string, string])[];
  readonly honeypot: { readonly name: string } | null;
  /** Offer "save for later" when the page has that button (not on a profile link's form). */
  readonly allowSave: boolean;
}

/** The classic page's properties as a fallback form that posts to the classic route. */
export function classicFallback(p: ClassicPageProperties): FallbackForm {
  return {
    page: p.page, pageCount: p.pageCount, values: p.values, fresh: Object.keys(p.values).length === 0, errors: p.errors, formErrors: p.formErrors, draft: p.draft,
    anchor: p.anchor, class: p.class, actionUrl: p.actionUrl, enctype: p.enctype,
    hidden: [['action', p.action], ['formHash', p.hash], ...(p.svc_payload ? [['svc_payload', p.svc_payload] as const] : []), ...(p.csrf ? [[p.csrf.name, p.csrf.token] as const] : [])],
    honeypot: p.honeypot ?? null,
    allowSave: true,
  };
}

/**
 * The `<form>` of the current page, with the values and errors a refused post left.
 *
 * @example
 * renderFallbackForm(classicFallback(properties), demoLanguage(sites.resolve('de')));
 */
export function renderFallbackForm(p: FallbackForm, t: DemoLanguage): string {
  const fields = p.page.rows
    .flatMap((row) => row.fields)
    .map((handle) => (p.page.fields[handle] ? renderClassicField(p.page.fields[handle] as ManifestField, p.values[handle], p.errors[handle] ?? [], p.fresh, t) : ''))
    .join('\n');
  const buttons = p.page.buttons;
  const button = (action: string, label: string) => `<button type="submit" name="svc-action" value="${action}">${escapeHtml(label)}</button>`;
  const bar = [
    buttons?.back ? button('back', buttons.back.label) : '',
    button('submit', buttons?.submit?.label ?? t.element('element.submit')),
    buttons?.save && p.allowSave ? button('save', buttons.save.label) : '',
  ].join(' ');
  const formErrors = p.formErrors.map((e) => `<p>${escapeHtml(e)}</p>`).join('');
  const resumeLink = p.draft?.resumeUrl ? `<a href="${escapeHtml(p.draft.resumeUrl)}">${escapeHtml(t.text('demo.resumeLink'))}</a>` : '';
  const saved = resumeLink ? `<p class="done" role="status">${t.html('demo.saved', { link: resumeLink })}</p>` : '';
  const progress = p.pageCount > 1 ? `<p>${escapeHtml(t.element('element.pageOf', { page: p.page.index + 1, pages: p.pageCount }))}${p.page.label ? `: ${escapeHtml(p.page.label)}` : ''}</p>` : '';
  return `${saved}${progress}<form id="${escapeHtml(p.anchor)}" class="${escapeHtml(p.class)}" method="post" action="${escapeHtml(p.actionUrl)}" enctype="${escapeHtml(p.enctype)}" novalidate>
${p.hidden.map(([name, value]) => hidden(name, value)).join('')}
${p.honeypot ? `<div class="hp" aria-hidden="true"><label>${escapeHtml(t.text('demo.honeypot'))} <input type="text" name="${escapeHtml(p.honeypot.name)}" value="" tabindex="-1" autocomplete="off"></label></div>` : ''}
${formErrors ? `<div class="form-errors" role="alert">${formErrors}</div>` : ''}
${fields}
<p>${bar}</p>
</form>`;
}
