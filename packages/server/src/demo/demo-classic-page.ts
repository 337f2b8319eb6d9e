/**
 * The demo's server-rendered form pages (issue #14): what a PHP, Rails or Django site does with
 * svc, built only from the form-properties JSON. It works with JavaScript off (a plain post, a 303
 * back here with `svc_flash`); with JavaScript on, a small script posts the final step by ajax,
 * honouring `disableSubmit`, `showSpinner` and `loadingText`.
 */
import type { ManifestField } from '@svc/core';
import { renderClassicField } from './demo-classic-fields.js';
import { escapeHtml, renderDemoDocument } from './demo-html.js';
import { ENGLISH_DEMO, type DemoLanguage } from './demo-language.js';

export const DEMO_CLASSIC_PATH = '/demo/classic';

/** The part of the properties JSON the page reads. */
export interface ClassicPageProperties {
  readonly hash: string;
  readonly handle: string;
  readonly ajaxEnabled: boolean;
  readonly disableSubmit: boolean;
  readonly showSpinner: boolean;
  readonly showLoadingText: boolean;
  readonly loadingText: string;
  readonly class: string;
  readonly method: string;
  readonly enctype: string;
  readonly successMessage: string;
  readonly anchor: string;
  readonly action: string;
  readonly actionUrl: string;
  readonly svc_payload?: string;
  readonly csrf?: { readonly name: string; readonly token: string };
  readonly honeypot?: { readonly name: string; readonly value: string };
  readonly page: {
    readonly index: number;
    readonly label: string;
    readonly buttons: { readonly submit: { label: string } | null; readonly back: { label: string } | null; readonly save: { label: string } | null } | null;
    readonly rows: readonly { readonly fields: readonly string[] }[];
    readonly fields: Readonly<Record<string, ManifestField>>;
  };
  readonly pageCount: number;
  readonly values: Readonly<Record<string, unknown>>;
  readonly errors: Readonly<Record<string, readonly string[]>>;
  readonly formErrors: readonly string[];
  readonly finished: boolean;
  readonly message: string | null;
  readonly draft: { readonly resumeUrl: string | null } | null;
}

const STYLE = `<style>
  .field { margin: 0 0 1rem; border: 0; padding: 0; }
  .field label, .field legend { display: block; font-weight: 600; margin-bottom: 0.25rem; }
  .field input:not([type=checkbox]):not([type=radio]), .field select, .field textarea { width: 100%; box-sizing: border-box; padding: 0.4rem; font: inherit; }
  .check label, label.choice { display: inline; font-weight: normal; }
  label.choice { display: block; }
  .errors { color: #b42318; margin: 0.25rem 0 0; padding-inline-start: 1.1rem; }
  .errors:empty { display: none; }
  .form-errors { border: 1px solid #b42318; color: #b42318; padding: 0.5rem 0.75rem; border-radius: 6px; }
  .done { border: 1px solid #1a7f37; color: #116329; padding: 0.5rem 0.75rem; border-radius: 6px; }
  /* Off the start edge: to the left in ltr, the right in rtl, neither of which a page scrolls to. */
  .hp { position: absolute; inset-inline-start: -9999px; }
  .busy::after { content: ''; display: inline-block; width: 0.8em; height: 0.8em; margin-inline-start: 0.5em; border: 2px solid currentColor; border-right-color: transparent; border-radius: 50%; animation: spin 0.8s linear infinite; }
  @keyframes spin { to { transform: rotate(360deg); } }
  .help { color: #57606a; margin: 0 0 0.25rem; }
  .visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
  /* Rating: radios drawn highest first, shown lowest first, so the checked star lights those after it. */
  .stars { display: inline-flex; flex-direction: row-reverse; gap: 0.15rem; }
  .stars label { display: inline; margin: 0; font-size: 1.8rem; line-height: 1; color: #8c959f; cursor: pointer; }
  .stars input:checked ~ label, .stars label:hover, .stars label:hover ~ label { color: #b35900; }
  .stars input:focus-visible + label { outline: 2px solid #0969da; outline-offset: 2px; }
  table.table { border-collapse: collapse; width: 100%; }
  table.table th { text-align: start; font-weight: 600; }
  table.table td { padding-block: 0.15rem; padding-inline: 0 0.25rem; }
</style>`;

/** The ajax layer: the final step of a page with JavaScript, as Freeform's ajax option does. */
const AJAX_SCRIPT = `const form = document.querySelector('form[data-svc]');
if (form) {
  const cfg = JSON.parse(form.dataset.svc);
  form.addEventListener('submit', async (event) => {
    const button = event.submitter;
    // Only the final submit goes by ajax; page steps stay plain posts that redraw the page.
    if (!cfg.ajax || !cfg.last || (button && button.value !== 'submit')) return;
    event.preventDefault();
    const data = new FormData(form);
    if (button && button.name) data.set(button.name, button.value);
    const buttons = [...form.querySelectorAll('button')];
    const labels = buttons.map((b) => b.textContent);
    if (cfg.disableSubmit) buttons.forEach((b) => { b.disabled = true; });
    if (button && cfg.showSpinner) button.classList.add('busy');
    if (button && cfg.showLoadingText) button.textContent = cfg.loadingText;
    const status = document.getElementById('form-status');
    try {
      // Not form.action: the form's own input named "action" (the entry svc reads) shadows that property.
      const res = await fetch(form.getAttribute('action'), { method: 'POST', body: data, headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' } });
      const answer = await res.json();
      if (answer.finished) {
        const done = document.createElement('p');
        done.className = 'done';
        done.setAttribute('role', 'status');
        done.textContent = answer.message || cfg.successMessage;
        form.replaceWith(done);
        return;
      }
      if (answer.hash) form.querySelector('input[name=formHash]').value = answer.hash;
      const payload = form.querySelector('input[name=svc_payload]');
      if (payload && answer.svc_payload) payload.value = answer.svc_payload;
      for (const list of form.querySelectorAll('ul.errors')) list.replaceChildren();
      form.querySelectorAll('[aria-invalid]').forEach((el) => el.removeAttribute('aria-invalid'));
      for (const [handle, messages] of Object.entries(answer.errors || {})) {
        const list = document.getElementById('f-' + handle + '-errors');
        if (!list) continue;
        for (const message of messages) { const li = document.createElement('li'); li.textContent = message; list.append(li); }
      }
      const messages = answer.formErrors && answer.formErrors.length ? answer.formErrors : answer.code ? [answer.message] : answer.success ? [] : [answer.message];
      status.replaceChildren(...messages.filter(Boolean).map((m) => { const p = document.createElement('p'); p.textContent = m; return p; }));
      status.hidden = status.childElementCount === 0;
    } catch (error) {
      status.textContent = cfg.sendFailed;
      status.hidden = false;
    } finally {
      buttons.forEach((b, i) => { b.disabled = false; b.textContent = labels[i]; b.classList.remove('busy'); });
    }
  });
}`;

function hidden(name: string, value: string): string {
  return `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;
}

/**
 * The page for the properties `p`, in the words and direction of `language` (the site the
 * properties were read for; issue #34).
 *
 * @example
 * reply.send(renderClassicPage(await (await fetch(`${svc}/svc/api/forms/contact/properties`)).json(), 'Contact'));
 */
export function renderClassicPage(p: ClassicPageProperties, title: string, language: DemoLanguage = ENGLISH_DEMO): string {
  const t = language;
  const source = `<code>GET /svc/api/forms/${escapeHtml(p.handle)}/properties${escapeHtml(t.query)}</code>`;
  const intro = `<p><a href="/demo/${escapeHtml(t.query)}">${escapeHtml(t.text('demo.allForms'))}</a> · ${t.html('demo.classicIntro', { source, form: '<code>&lt;form&gt;</code>' })}</p>`;
  const documentTitle = t.text('demo.serverRendered', { title });
  if (p.finished) {
    const main = `<h1>${escapeHtml(title)}</h1>${intro}<p class="done" role="status">${escapeHtml(p.message ?? p.successMessage)}</p><p><a href="${DEMO_CLASSIC_PATH}/${escapeHtml(p.handle)}${escapeHtml(t.query)}">${escapeHtml(t.text('demo.fillAgain'))}</a></p>`;
    return renderDemoDocument({ title: documentTitle, main: STYLE + main, script: '', language: t.page });
  }
  const fresh = Object.keys(p.values).length === 0;
  const fields = p.page.rows
    .flatMap((row) => row.fields)
    .map((handle) => (p.page.fields[handle] ? renderClassicField(p.page.fields[handle] as ManifestField, p.values[handle], p.errors[handle] ?? [], fresh, t) : ''))
    .join('\n');
  const buttons = p.page.buttons;
  const button = (action: string, label: string) => `<button type="submit" name="svc-action" value="${action}">${escapeHtml(label)}</button>`;
  const bar = [
    buttons?.back ? button('back', buttons.back.label) : '',
    buttons?.submit ? button('submit', buttons.submit.label) : button('submit', t.element('element.submit')),
    buttons?.save ? button('save', buttons.save.label) : '',
  ].join(' ');
  const formErrors = p.formErrors.map((e) => `<p>${escapeHtml(e)}</p>`).join('');
  const resumeLink = p.draft?.resumeUrl ? `<a href="${escapeHtml(p.draft.resumeUrl)}">${escapeHtml(t.text('demo.resumeLink'))}</a>` : '';
  const draft = resumeLink ? `<p class="done" role="status">${t.html('demo.saved', { link: resumeLink })}</p>` : '';
  const config = {
    ajax: p.ajaxEnabled,
    last: p.page.index === p.pageCount - 1,
    disableSubmit: p.disableSubmit,
    showSpinner: p.showSpinner,
    showLoadingText: p.showLoadingText,
    loadingText: p.loadingText || t.text('demo.sending'),
    successMessage: p.successMessage,
    sendFailed: t.text('demo.sendFailed'),
  };
  const form = `<form id="${escapeHtml(p.anchor)}" class="${escapeHtml(p.class)}" method="${escapeHtml(p.method)}" action="${escapeHtml(p.actionUrl)}" enctype="${escapeHtml(p.enctype)}" novalidate data-svc="${escapeHtml(JSON.stringify(config))}">
${hidden('action', p.action)}${hidden('formHash', p.hash)}${p.svc_payload ? hidden('svc_payload', p.svc_payload) : ''}${p.csrf ? hidden(p.csrf.name, p.csrf.token) : ''}
${p.honeypot ? `<div class="hp" aria-hidden="true"><label>${escapeHtml(t.text('demo.honeypot'))} <input type="text" name="${escapeHtml(p.honeypot.name)}" value="" tabindex="-1" autocomplete="off"></label></div>` : ''}
<div id="form-status" class="form-errors" role="alert"${formErrors ? '' : ' hidden'}>${formErrors}</div>
${fields}
<p>${bar}</p>
</form>`;
  const place = { page: p.page.index + 1, pages: p.pageCount };
  const progress = p.pageCount > 1 ? `<p>${escapeHtml(p.page.label ? t.text('demo.pageOfLabel', { ...place, label: p.page.label }) : t.element('element.pageOf', place))}</p>` : '';
  return renderDemoDocument({ title: documentTitle, main: `${STYLE}<h1>${escapeHtml(title)}</h1>${intro}${draft}${progress}${form}`, script: AJAX_SCRIPT, language: t.page });
}
