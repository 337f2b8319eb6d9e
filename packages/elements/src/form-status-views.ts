/**
 * The parts around the fields: page indicator, the button bar with its spinner and loading
 * text, the success message and the save-and-continue notice.
 */
import type { FormSession, ManifestPage } from '@svc/client';
import { formatMessage } from '@svc/core';
import { h } from './dom-builder.js';

export interface ButtonBar {
  readonly element: HTMLElement;
  readonly submit: HTMLButtonElement;
  readonly back: HTMLButtonElement | null;
  readonly save: HTMLButtonElement | null;
  /** Shows or hides the request-in-flight state the form settings ask for. */
  setBusy(busy: boolean): void;
}

export interface ButtonBarOptions {
  readonly page: ManifestPage | undefined;
  readonly pageIndex: number;
  readonly allowSave: boolean;
  readonly settings: Readonly<Record<string, unknown>>;
  /** BCP 47 tag of the default button labels and loading text (the form's own labels win). */
  readonly language: string;
}

export function renderButtonBar({ page, pageIndex, allowSave, settings, language }: ButtonBarOptions): ButtonBar {
  const submit = h('button', { type: 'submit', part: 'submit' }, page?.buttons.submit?.label || formatMessage(language, 'element.submit'));
  const back = page?.buttons.back && pageIndex > 0 ? h('button', { type: 'button', part: 'back', class: 'secondary' }, page.buttons.back.label || formatMessage(language, 'element.back')) : null;
  const saveLabel = page?.buttons.save?.label;
  const save = allowSave || saveLabel ? h('button', { type: 'button', part: 'save', class: 'secondary' }, saveLabel || formatMessage(language, 'element.saveLater')) : null;
  const spinner = settings.showSpinner === true ? h('span', { part: 'spinner', class: 'spinner', 'aria-hidden': 'true', hidden: true }) : null;
  const loadingText = typeof settings.loadingText === 'string' && settings.loadingText !== '' ? settings.loadingText : formatMessage(language, 'element.loading');
  const loading = settings.showLoadingText === true ? h('span', { part: 'loading', class: 'loading', role: 'status' }) : null;
  const element = h('div', { part: 'buttons', class: 'buttons' }, back, submit, save, spinner, loading);
  return {
    element,
    submit,
    back,
    save,
    setBusy(busy) {
      // contract §2 settings: disableSubmit guards against double submits while one is running.
      if (settings.disableSubmit === true) submit.disabled = busy;
      if (spinner) spinner.hidden = !busy;
      if (loading) loading.textContent = busy ? loadingText : '';
    },
  };
}

/**
 * "Page 2 of 3", counting only the pages the rules currently show, so the count changes live
 * when an answer adds or removes a page. A page counts when it is the current one, has no
 * fields at all, or has at least one visible field (visibleFields is empty for a hidden page).
 */
export function progressText(session: FormSession): string {
  // The pages the rules show; the current page counts even if a rule has just hidden it.
  const shown = session.visiblePages();
  if (!shown.includes(session.pageIndex)) shown.push(session.pageIndex);
  shown.sort((x, y) => x - y);
  return formatMessage(session.language, 'element.pageOf', { page: shown.indexOf(session.pageIndex) + 1, pages: shown.length });
}

export function renderSuccess(message: string): HTMLElement {
  return h('div', { part: 'success', class: 'success', role: 'status', tabindex: -1 }, message);
}

/**
 * The resume link: the page's own template (`resume-url`, `{token}` and `{key}` filled in, issue
 * #36) when it sets one, else the server's when the form defines one, else this page with the
 * draft in the query.
 */
export function resumeLinkOf(draft: { token: string; key: string; resumeUrl: string | null }, handle: string, template: string | null = null): string {
  if (template) {
    const filled = template.replaceAll('{token}', encodeURIComponent(draft.token)).replaceAll('{key}', encodeURIComponent(draft.key));
    return new URL(filled, globalThis.location.href).toString();
  }
  if (draft.resumeUrl) return draft.resumeUrl;
  const url = new URL(globalThis.location.href);
  url.searchParams.set('token', draft.token);
  url.searchParams.set('key', draft.key);
  // A page may embed several forms; `form` says which one the draft belongs to.
  url.searchParams.set('form', handle);
  url.hash = '';
  return url.toString();
}

export function renderDraftNotice(link: string, language: string): HTMLElement {
  return h(
    'div',
    { part: 'draft', class: 'draft', role: 'status' },
    h('p', {}, formatMessage(language, 'element.savedLink')),
    h('p', {}, h('a', { href: link, part: 'resume-link' }, link)),
  );
}
