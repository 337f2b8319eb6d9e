/**
 * What `<svc-form>` does with a submit answer (contract §4): success and redirects, saved
 * drafts, page changes, and refusals shown as field and form errors. The element supplies the
 * parts it owns through `ResponseHost`; the decisions live here.
 */
import type { FormSession, SubmitResponse } from '@svc/client';
import type { FieldElement } from './field-renderers.js';
import { fillFormErrors, renderSuccess } from './form-status-views.js';

type FieldErrors = Readonly<Record<string, readonly string[]>>;

/** Where errors go: the rendered fields, the set of those marked invalid, the form-level box. */
export interface ErrorTargets {
  readonly session: FormSession | null;
  readonly fields: ReadonlyMap<string, FieldElement>;
  readonly invalid: Set<string>;
  readonly formErrors: HTMLElement | null;
}

export interface ResponseHost extends ErrorTargets {
  readonly session: FormSession;
  emit(name: string, detail: unknown): void;
  /** A draft was saved: show its resume link. */
  showDraft(draft: FormSession['draft']): void;
  /** The session moved to another page: render it. */
  changePage(): void;
  /** The form was submitted: show this in place of the form. */
  replaceForm(success: HTMLElement): void;
  /** The captcha was refused: widgets ask again before the next submit. */
  captchaFailed(): void;
}

/** Field errors on their fields; errors of fields not shown here are listed with the form's. */
export function showErrors(targets: ErrorTargets, fieldErrors: FieldErrors, formErrors: readonly string[], message: string | null): void {
  const { fields, invalid } = targets;
  invalid.clear();
  for (const [handle, element] of fields) {
    const messages = element.view.layout === 'hidden' ? [] : (fieldErrors[handle] ?? []);
    element.showErrors(messages);
    if (messages.length > 0) invalid.add(handle);
  }
  const elsewhere = Object.entries(fieldErrors).flatMap(([handle, messages]) => {
    if (invalid.has(handle)) return [];
    const label = targets.session?.manifest.fields[handle]?.label ?? handle;
    return messages.map((m) => `${label}: ${m}`);
  });
  const all = [...formErrors, ...elsewhere];
  if (targets.formErrors) fillFormErrors(targets.formErrors, all.length > 0 || invalid.size > 0 ? message : null, all);
}

export function focusFirstInvalid(fields: ReadonlyMap<string, FieldElement>, invalid: ReadonlySet<string>): void {
  for (const [handle, element] of fields) {
    if (!invalid.has(handle) || element.wrapper.hidden) continue;
    const target = element.view.focusTarget();
    if (target) {
      target.focus();
      return;
    }
  }
}

/** interface.md 2.8 onSuccess: redirect when the form says so, otherwise the success message. */
function succeed(host: ResponseHost, response: SubmitResponse): void {
  const settings = host.session.manifest.settings ?? {};
  const url = response.redirect?.url ?? settings.returnUrl ?? null;
  const message = response.message || settings.successMessage || 'Thank you.';
  const delay = response.redirect?.delay ?? 0;
  if (settings.successBehavior === 'redirect' && url) {
    if (delay <= 0) {
      globalThis.location.assign(url);
      return;
    }
    setTimeout(() => globalThis.location.assign(url), delay * 1000);
  }
  const success = renderSuccess(message);
  host.replaceForm(success);
  success.focus();
}

export function handleSubmitResponse(host: ResponseHost, response: SubmitResponse, pageBefore: number): void {
  const { session } = host;
  switch (response.status) {
    case 'submitted':
      host.emit('svc:submitted', response);
      succeed(host, response);
      return;
    case 'draft_saved': {
      const draft = session.draft ?? response.draft;
      showErrors(host, {}, [], null);
      if (draft) host.showDraft(draft);
      host.emit('svc:draft', draft);
      return;
    }
    case 'page_valid':
    case 'validated':
      if (session.pageIndex !== pageBefore) {
        host.changePage();
        host.emit('svc:page', { index: session.pageIndex, total: session.totalPages });
        // Focus follows the page change so keyboard and screen-reader users start at its top.
        const first = [...host.fields.values()].find((f) => !f.wrapper.hidden && f.view.focusTarget());
        first?.view.focusTarget()?.focus();
      } else {
        showErrors(host, response.errors.fields, response.errors.form, null);
      }
      return;
    default: {
      if (response.status === 'captcha_failed') host.captchaFailed();
      const message = response.message ?? (response.status === 'validation_failed' ? (session.manifest.settings.errorMessage ?? null) : null);
      showErrors(host, response.errors.fields, response.errors.form, message);
      focusFirstInvalid(host.fields, host.invalid);
      host.emit('svc:error', { response });
    }
  }
}
