/**
 * The hosted page's form without JavaScript (issue #36 item 1): the classic form drawn from the
 * form-properties JSON, placed inside `<svc-form>` as its light-DOM content. Until the element's
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

/**
 * The `<form>` of the properties' current page, with the values and errors a refused post left.
 *
 * @example
 * renderFallbackForm(properties, demoLanguage(sites.resolve('de')));
 */
export function renderFallbackForm(p: ClassicPageProperties, t: DemoLanguage): string {
  const fresh = Object.keys(p.values).length === 0;
  const fields = p.page.rows
    .flatMap((row) => row.fields)
    .map((handle) => (p.page.fields[handle] ? renderClassicField(p.page.fields[handle] as ManifestField, p.values[handle], p.errors[handle] ?? [], fresh, t) : ''))
    .join('\n');
  const buttons = p.page.buttons;
  const button = (action: string, label: string) => `<button type="submit" name="svc-action" value="${action}">${escapeHtml(label)}</button>`;
  const bar = [
    buttons?.back ? button('back', buttons.back.label) : '',
    button('submit', buttons?.submit?.label ?? t.element('element.submit')),
    buttons?.save ? button('save', buttons.save.label) : '',
  ].join(' ');
  const formErrors = p.formErrors.map((e) => `<p>${escapeHtml(e)}</p>`).join('');
  const resumeLink = p.draft?.resumeUrl ? `<a href="${escapeHtml(p.draft.resumeUrl)}">${escapeHtml(t.text('demo.resumeLink'))}</a>` : '';
  const saved = resumeLink ? `<p class="done" role="status">${t.html('demo.saved', { link: resumeLink })}</p>` : '';
  const progress = p.pageCount > 1 ? `<p>${escapeHtml(t.element('element.pageOf', { page: p.page.index + 1, pages: p.pageCount }))}${p.page.label ? `: ${escapeHtml(p.page.label)}` : ''}</p>` : '';
  return `${saved}${progress}<form id="${escapeHtml(p.anchor)}" class="${escapeHtml(p.class)}" method="post" action="${escapeHtml(p.actionUrl)}" enctype="${escapeHtml(p.enctype)}" novalidate>
${hidden('action', p.action)}${hidden('formHash', p.hash)}${p.svc_payload ? hidden('svc_payload', p.svc_payload) : ''}${p.csrf ? hidden(p.csrf.name, p.csrf.token) : ''}
${p.honeypot ? `<div class="hp" aria-hidden="true"><label>${escapeHtml(t.text('demo.honeypot'))} <input type="text" name="${escapeHtml(p.honeypot.name)}" value="" tabindex="-1" autocomplete="off"></label></div>` : ''}
${formErrors ? `<div class="form-errors" role="alert">${formErrors}</div>` : ''}
${fields}
<p>${bar}</p>
</form>`;
}
